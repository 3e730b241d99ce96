package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
)

// builder finds a string that starts empty and is only ever extended in
// the loop that follows it: every iteration's s += x copies s.
func (u *unit) builder(fn *ast.FuncDecl) []candidate {
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for i, s := range list {
			obj := u.emptyString(s)
			if obj == nil {
				continue
			}
			for j := i + 1; j < len(list); j++ {
				if !u.mentions(list[j], obj) {
					continue
				}
				if c, ok := u.builderLoop(s, list[j], list[j+1:], obj); ok {
					out = append(out, c)
				}
				break
			}
		}
	})
	return out
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

// builderLoop checks the loop: obj is mentioned only by statements of
// the loop's blocks that append to it (s += x, s = s + x), never in the
// loop's header or a function literal, and read after the loop.
func (u *unit) builderLoop(decl, next ast.Stmt, after []ast.Stmt, obj types.Object) (candidate, bool) {
	loop, body := loopOf(next)
	if loop == nil || !u.inList(next) {
		return candidate{}, false
	}
	used := false
	for _, s := range after {
		used = used || u.mentions(s, obj)
	}
	if !used {
		return candidate{}, false
	}
	var appends []*ast.AssignStmt
	var parts [][]ast.Expr
	ok := true
	ast.Inspect(loop, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if as, isAssign := n.(*ast.AssignStmt); isAssign {
			if p, isAppend := u.stringAppend(as, obj); isAppend {
				if !u.inList(as) || inside[*ast.FuncLit](u, as, body) || !inside[*ast.BlockStmt](u, as, loop) {
					ok = false
					return false
				}
				appends = append(appends, as)
				parts = append(parts, p)
				return false
			}
		}
		if id, isIdent := n.(*ast.Ident); isIdent && u.info.ObjectOf(id) == obj {
			ok = false
		}
		return true
	})
	if !ok || len(appends) == 0 {
		return candidate{}, false
	}
	strs, okq := u.qualifier("strings")
	if !okq {
		return candidate{}, false
	}
	sb := u.fresh("sb")
	name := obj.Name()
	c := candidate{
		kind:    "builder",
		line:    u.line(appends[0].Pos()),
		more:    []int{u.line(decl.Pos())},
		desc:    fmt.Sprintf("builder %s: var %s strings.Builder, %s.WriteString in the loop, %s := %s.String() after it", name, sb, sb, name, sb),
		shape:   "concat-in-loop",
		says:    fmt.Sprintf("%s is built with += in a loop: every += copies the whole string so far into a new one", name),
		advice:  fmt.Sprintf("build it in a strings.Builder: var %s strings.Builder before the loop, %s.WriteString(…) in it, %s := %s.String() after it", sb, sb, name, sb),
		imports: []string{"strings"},
		edits: []edit{
			u.deleteStmt(decl),
			insertBefore(next, fmt.Sprintf("var %s %s.Builder", sb, strs)),
			insertAfter(next, fmt.Sprintf("%s := %s.String()", name, sb)),
		},
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
