package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"
)

// builder finds a string extended in a loop (s += x, s = s + x) and
// nowhere read in it: every iteration's s += x copies s.
func (u *unit) builder(fn *ast.FuncDecl) []candidate {
	if hasGoto(fn.Body) {
		return nil
	}
	// The loops each string is extended in, outermost first.
	loops := map[*types.Var][]ast.Stmt{}
	var order []*types.Var
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 {
			return true
		}
		v, ok := u.obj(as.Lhs[0]).(*types.Var)
		if !ok || v.Type() != types.Typ[types.String] || v.IsField() || v.Parent() == nil || (u.types != nil && v.Parent() == u.types.Scope()) {
			return true
		}
		if _, isAppend := u.stringAppend(as, v); !isAppend {
			return true
		}
		for p := u.parents[as]; p != nil && p != fn.Body; p = u.parents[p] {
			switch p.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if loops[v] == nil {
					order = append(order, v)
				}
				if !slices.Contains(loops[v], p.(ast.Stmt)) {
					loops[v] = append(loops[v], p.(ast.Stmt))
				}
			}
		}
		return true
	})
	var out []candidate
	for _, v := range order {
		ls := loops[v]
		slices.SortFunc(ls, func(a, b ast.Stmt) int { return int(a.Pos()) - int(b.Pos()) })
		for _, l := range ls {
			if c, ok := u.builderLoop(fn, l, v); ok {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// builderLoop checks a loop for the string v: v is mentioned in the loop
// only by statements of its blocks that extend it, never by a function
// literal anywhere nor by its address; nothing leaves the loop past the
// statement after it (goto, a labeled break or continue of an outer
// loop, a bare return of v as a named result); and v is read after it.
func (u *unit) builderLoop(fn *ast.FuncDecl, loop ast.Stmt, v *types.Var) (candidate, bool) {
	stmt := ast.Stmt(loop)
	if l, ok := u.parents[loop].(*ast.LabeledStmt); ok {
		stmt = l
	}
	if !u.inList(stmt) {
		return candidate{}, false
	}
	for _, id := range u.idents(fn.Body, v) {
		if inside[*ast.FuncLit](u, id, fn.Body) {
			return candidate{}, false
		}
		if un, ok := u.parents[id].(*ast.UnaryExpr); ok && un.Op == token.AND {
			return candidate{}, false
		}
	}
	var appends []*ast.AssignStmt
	var parts [][]ast.Expr
	ok := true
	ast.Inspect(loop, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			if p, isAppend := u.stringAppend(n, v); isAppend {
				if !u.inList(n) {
					ok = false
					return false
				}
				appends = append(appends, n)
				parts = append(parts, p)
				return false
			}
		case *ast.Ident:
			if u.info.ObjectOf(n) == v {
				ok = false // read in the loop: the builder would have to copy it out
			}
		case *ast.BranchStmt:
			if n.Label != nil && u.labelOutside(n.Label, stmt) {
				ok = false
			}
		case *ast.ReturnStmt:
			if len(n.Results) == 0 && u.isResult(v) {
				ok = false // a bare return hands out v before the builder's String
			}
		}
		return true
	})
	if !ok || len(appends) == 0 {
		return candidate{}, false
	}
	if !u.isResult(v) && !u.mentionedAfter(fn, v, loop) {
		return candidate{}, false
	}
	strs, okq := u.qualifier("strings")
	if !okq {
		return candidate{}, false
	}
	sb := u.fresh("sb")
	name := v.Name()
	c := candidate{
		kind:    "builder",
		line:    u.line(appends[0].Pos()),
		shape:   "concat-in-loop",
		says:    fmt.Sprintf("%s is built with += in a loop: every += copies the whole string so far into a new one", name),
		imports: []string{"strings"},
	}
	decl, empty := u.emptyStringAt(fn, stmt, v)
	switch {
	case decl != nil && u.parents[decl] == u.parents[stmt] && empty:
		// Declared empty in the loop's block, unused until it: the
		// builder replaces the declaration.
		c.more = []int{u.line(decl.Pos())}
		c.desc = fmt.Sprintf("builder %s: var %s strings.Builder, %s.WriteString in the loop, %s := %s.String() after it", name, sb, sb, name, sb)
		c.advice = fmt.Sprintf("build it in a strings.Builder: var %s strings.Builder before the loop, %s.WriteString(…) in it, %s := %s.String() after it", sb, sb, name, sb)
		c.edits = []edit{
			u.deleteStmt(decl),
			insertBefore(stmt, fmt.Sprintf("var %s %s.Builder", sb, strs)),
			insertAfter(stmt, fmt.Sprintf("%s := %s.String()", name, sb)),
		}
	default:
		before := fmt.Sprintf("var %s %s.Builder", sb, strs)
		start := "empty"
		if !empty {
			before += fmt.Sprintf("\n%s.WriteString(%s)", sb, name)
			start = "what " + name + " holds"
		}
		c.desc = fmt.Sprintf("builder %s: var %s strings.Builder from %s, %s.WriteString in the loop, %s = %s.String() after it", name, sb, start, sb, name, sb)
		c.advice = fmt.Sprintf("build it in a strings.Builder: var %s strings.Builder before the loop (starting from %s), %s.WriteString(…) in it, %s = %s.String() after it", sb, start, sb, name, sb)
		c.edits = []edit{
			insertBefore(stmt, before),
			insertAfter(stmt, fmt.Sprintf("%s = %s.String()", name, sb)),
		}
		if decl != nil {
			c.more = []int{u.line(decl.Pos())}
		}
	}
	for i, as := range appends {
		c.more = append(c.more, u.line(as.Pos()))
		var writes []string
		for _, p := range parts[i] {
			writes = append(writes, fmt.Sprintf("%s.WriteString(%s)", sb, u.text(p)))
		}
		c.edits = append(c.edits, replace(as, strings.Join(writes, "\n")))
	}
	return c, true
}

// labelOutside reports whether a branch's label names a statement that
// is not the loop's (its label's) nor inside it.
func (u *unit) labelOutside(label *ast.Ident, loop ast.Stmt) bool {
	obj := u.info.Uses[label]
	if obj == nil {
		return true
	}
	return obj.Pos() < loop.Pos() || obj.Pos() >= loop.End()
}

// mentionedAfter reports whether fn mentions v after the loop.
func (u *unit) mentionedAfter(fn *ast.FuncDecl, v *types.Var, loop ast.Stmt) bool {
	for _, id := range u.idents(fn.Body, v) {
		if id.Pos() >= loop.End() {
			return true
		}
	}
	return false
}

// emptyStringAt returns v's declaration statement in fn (nil for a
// parameter or a named result) and whether v is surely "" when stmt
// starts: declared empty (or a named result), nothing mentions it in
// between, and no loop or function literal between the declaration and
// stmt runs stmt again with v grown.
func (u *unit) emptyStringAt(fn *ast.FuncDecl, stmt ast.Stmt, v *types.Var) (ast.Stmt, bool) {
	var decl ast.Stmt
	scope, from := ast.Node(fn.Body), fn.Body.Pos()
	if !u.isResult(v) {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			if decl != nil {
				return false
			}
			if s, ok := n.(ast.Stmt); ok && u.inList(s) && u.emptyString(s) == v {
				decl = s
				return false
			}
			return true
		})
		if decl == nil {
			d, _ := u.declStmt(fn, v)
			return d, false // declared with a value, or a parameter
		}
		scope, from = u.parents[decl], decl.End()
	}
	p := u.parents[stmt]
	for ; p != nil && p != scope; p = u.parents[p] {
		switch p.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return decl, false
		}
	}
	if p == nil {
		return decl, false
	}
	for _, id := range u.idents(fn.Body, v) {
		if id.Pos() > from && id.Pos() < stmt.Pos() {
			return decl, false
		}
	}
	return decl, true
}

// emptyString recognizes `s := ""`, `var s string` and `var s = ""`.
func (u *unit) emptyString(s ast.Stmt) types.Object {
	var id *ast.Ident
	var val ast.Expr
	switch s := s.(type) {
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
			return nil
		}
		vs := g.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 1 || len(vs.Values) > 1 {
			return nil
		}
		id = vs.Names[0]
		if len(vs.Values) == 1 {
			val = vs.Values[0]
		}
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return nil
		}
		id, _ = s.Lhs[0].(*ast.Ident)
		val = s.Rhs[0]
	default:
		return nil
	}
	if id == nil || id.Name == "_" {
		return nil
	}
	if val != nil {
		tv, ok := u.info.Types[val]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String || constant.StringVal(tv.Value) != "" {
			return nil
		}
	}
	obj := u.info.Defs[id]
	if obj == nil || obj.Type() != types.Typ[types.String] {
		return nil
	}
	return obj
}

// stringAppend recognizes s += x and s = s + x (x a string, s not in
// it) and returns the operands x is the sum of.
func (u *unit) stringAppend(as *ast.AssignStmt, obj types.Object) ([]ast.Expr, bool) {
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 || u.obj(as.Lhs[0]) != obj {
		return nil, false
	}
	var terms []ast.Expr
	switch as.Tok {
	case token.ADD_ASSIGN:
		terms = u.sum(as.Rhs[0])
	case token.ASSIGN:
		terms = u.sum(as.Rhs[0])
		if len(terms) < 2 || u.obj(terms[0]) != obj {
			return nil, false
		}
		terms = terms[1:]
	default:
		return nil, false
	}
	for _, t := range terms {
		if u.mentions(t, obj) || !u.isString(t) {
			return nil, false
		}
	}
	return terms, true
}

// sum flattens a string concatenation a + b + c into its operands.
func (u *unit) sum(e ast.Expr) []ast.Expr {
	e = ast.Unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD && u.isString(b) {
		return append(u.sum(b.X), b.Y)
	}
	return []ast.Expr{e}
}

// isString reports whether e is of type string (not a named string type,
// which WriteString would not take) or an untyped string constant.
func (u *unit) isString(e ast.Expr) bool {
	t := u.typeOf(e)
	if t == nil {
		return false
	}
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && (b.Kind() == types.String || b.Kind() == types.UntypedString)
}
