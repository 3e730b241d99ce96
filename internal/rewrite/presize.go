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

// presize finds slices and maps that start empty and grow by exactly one
// element per iteration of a range loop whose length is known, and maps
// made empty and filled by maps.Copy.
func (u *unit) presize(fn *ast.FuncDecl) []candidate {
	if hasGoto(fn.Body) {
		return nil // jumps make "empty when the loop starts" unprovable
	}
	var out []candidate
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.RangeStmt:
			for _, s := range n.Body.List {
				if c, ok := u.presizeGrow(fn, n, s); ok {
					out = append(out, c)
				}
			}
		case *ast.ExprStmt:
			if c, ok := u.presizeCopy(n); ok {
				out = append(out, c)
			}
		}
		return true
	})
	return out
}

// target is what a loop grows: a local variable (a named result, a
// parameter) or a field of a local variable.
type target struct {
	obj   *types.Var // the variable, or the one whose field it is
	field *types.Var // the field, nil for a variable
	typ   types.Type
	isMap bool
}

func (t target) String() string {
	if t.field != nil {
		return t.obj.Name() + "." + t.field.Name()
	}
	return t.obj.Name()
}

// targetOf recognizes v and x.F (x a local variable, F a field of it),
// slices or maps.
func (u *unit) targetOf(e ast.Expr) (target, bool) {
	var t target
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		v, ok := u.info.ObjectOf(e).(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || (u.types != nil && v.Parent() == u.types.Scope()) {
			return t, false
		}
		t.obj = v
	case *ast.SelectorExpr:
		x, ok := e.X.(*ast.Ident)
		if !ok {
			return t, false
		}
		v, ok := u.info.ObjectOf(x).(*types.Var)
		if !ok || v.IsField() || v.Parent() == nil || (u.types != nil && v.Parent() == u.types.Scope()) {
			return t, false
		}
		sel, ok := u.info.Selections[e]
		if !ok || sel.Kind() != types.FieldVal || len(sel.Index()) != 1 {
			return t, false // a promoted field goes through an embedded value
		}
		t.obj, t.field = v, sel.Obj().(*types.Var)
	default:
		return t, false
	}
	t.typ = u.typeOf(e)
	if t.typ == nil {
		return t, false
	}
	switch t.typ.Underlying().(type) {
	case *types.Slice:
	case *types.Map:
		t.isMap = true
		if t.field != nil {
			return t, false // a map field is made with its struct: its room is not ours to choose
		}
	default:
		return t, false
	}
	return t, true
}

// is reports whether e is the target.
func (u *unit) is(e ast.Expr, t target) bool {
	got, ok := u.targetOf(e)
	return ok && got.obj == t.obj && got.field == t.field
}

// mentionsTarget reports whether n refers to the target: the variable,
// or for a field, the variable in any way but a selection of another
// field.
func (u *unit) mentionsTarget(n ast.Node, t target) bool {
	if t.field == nil {
		return u.mentions(n, t.obj)
	}
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := sel.X.(*ast.Ident); ok && u.info.ObjectOf(x) == t.obj {
				s, ok := u.info.Selections[sel]
				if ok && s.Kind() == types.FieldVal && s.Obj() != t.field && !u.addressed(sel) {
					return false // another field: it cannot see this one
				}
				found = true
				return false
			}
		}
		if id, ok := n.(*ast.Ident); ok && u.info.ObjectOf(id) == t.obj {
			found = true
		}
		return true
	})
	return found
}

// addressed reports whether e's address is taken (&x.G, or a method
// with a pointer receiver called on it).
func (u *unit) addressed(e ast.Expr) bool {
	switch p := u.parents[e].(type) {
	case *ast.UnaryExpr:
		return p.Op == token.AND
	case *ast.SelectorExpr:
		s, ok := u.info.Selections[p]
		return ok && s.Kind() == types.MethodVal
	}
	return false
}

// presizeGrow checks a statement of a range loop's body that grows a
// target by one element: `t = append(t, e)` or `t[k] = v`.
func (u *unit) presizeGrow(fn *ast.FuncDecl, loop *ast.RangeStmt, grow ast.Stmt) (candidate, bool) {
	as, ok := grow.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return candidate{}, false
	}
	var t target
	if ix, isIndex := as.Lhs[0].(*ast.IndexExpr); isIndex {
		if t, ok = u.targetOf(ix.X); !ok || !t.isMap || u.mentionsTarget(ix.Index, t) || u.mentionsTarget(as.Rhs[0], t) {
			return candidate{}, false
		}
	} else {
		call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if t, ok = u.targetOf(as.Lhs[0]); !ok || t.isMap || !isCall || !u.isBuiltin(call, "append") || call.Ellipsis.IsValid() || len(call.Args) != 2 {
			return candidate{}, false
		}
		if !u.is(call.Args[0], t) || u.mentionsTarget(call.Args[1], t) {
			return candidate{}, false
		}
	}
	// Nothing else in the loop sees the target, and only a return that
	// discards it ends an iteration before its element is added.
	if u.mentionsTarget(loop.X, t) || (loop.Key != nil && u.mentionsTarget(loop.Key, t)) || (loop.Value != nil && u.mentionsTarget(loop.Value, t)) {
		return candidate{}, false
	}
	for _, s := range loop.Body.List {
		if s != grow && u.mentionsTarget(s, t) {
			return candidate{}, false
		}
		if s == grow {
			continue
		}
		before := s.Pos() < grow.Pos()
		if ok, _ := u.exits(s, t, before); !ok {
			return candidate{}, false
		}
	}
	size, rangeCall, ok := u.rangeSize(loop.X)
	if !ok {
		return candidate{}, false
	}
	decl, startsNil, ok := u.emptyAt(fn, loop, t)
	if !ok {
		return candidate{}, false
	}
	typ, ok := u.typeText(t)
	if !ok {
		return candidate{}, false
	}
	return u.presizeEdit(fn, loop, grow, t, decl, startsNil, typ, size, rangeCall), true
}

// exits reports whether s leaves the iteration only in ways presizing
// keeps equivalent: before the element is added (before), no break or
// continue of the loop, no goto; anywhere, a return only when it
// discards the target (it does not mention it, and is not a bare return
// of it as a named result). returns says whether s has a return at all.
func (u *unit) exits(s ast.Stmt, t target, before bool) (ok, returns bool) {
	ok = true
	// Inside a nested loop, break and continue are its own; inside a
	// switch or select, break is.
	var walk func(n ast.Node, loops, breaks int) bool
	walk = func(n ast.Node, loops, breaks int) bool {
		if !ok || n == nil {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			loops, breaks = loops+1, breaks+1
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
			breaks++
		case *ast.BranchStmt:
			switch {
			case !before:
			case n.Tok == token.GOTO || n.Label != nil:
				ok = false
			case n.Tok == token.BREAK && breaks == 0, n.Tok == token.CONTINUE && loops == 0:
				ok = false
			}
		case *ast.ReturnStmt:
			returns = true
			if u.mentionsTarget(n, t) || len(n.Results) == 0 && u.isResult(t.obj) {
				ok = false
			}
		}
		for _, c := range children(n) {
			walk(c, loops, breaks)
		}
		return false
	}
	walk(s, 0, 0)
	return ok, returns
}

// children are a node's direct children.
func children(n ast.Node) []ast.Node {
	var out []ast.Node
	ast.Inspect(n, func(c ast.Node) bool {
		if c == n {
			return true
		}
		if c != nil {
			out = append(out, c)
		}
		return false
	})
	return out
}

// isResult reports whether v is a named result of the function it is
// declared in.
func (u *unit) isResult(v *types.Var) bool {
	for _, d := range u.file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Type.Results == nil || v.Pos() < fd.Pos() || v.Pos() > fd.End() {
			continue
		}
		for _, f := range fd.Type.Results.List {
			for _, n := range f.Names {
				if u.info.Defs[n] == v {
					return true
				}
			}
		}
	}
	return false
}

// rangeSize returns the source of a range's iteration count and, when x
// is a call, x itself (the call then moves to a local before the loop,
// where it is evaluated once, as the range does).
func (u *unit) rangeSize(x ast.Expr) (string, *ast.CallExpr, bool) {
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
		t := u.typeOf(call)
		if t == nil {
			return "", nil, false
		}
		if tv, ok := u.info.Types[call.Fun]; ok && tv.IsType() {
			return "", nil, false // a conversion: its operand is the range
		}
		switch t := t.Underlying().(type) {
		case *types.Slice, *types.Map:
		case *types.Basic:
			if t.Info()&(types.IsString|types.IsInteger) == 0 {
				return "", nil, false
			}
		default:
			return "", nil, false // a channel, an iterator function
		}
		return "", call, true
	}
	size, ok := u.rangeLen(x)
	return size, nil, ok
}

// rangeLen returns the source of the iteration count of a range over x
// (len(x), or x itself for a range over an integer) when x can be
// evaluated again without effect and its length is what it ranges over.
func (u *unit) rangeLen(x ast.Expr) (string, bool) {
	if !pure(x) {
		return "", false
	}
	t := u.typeOf(x)
	if t == nil {
		return "", false
	}
	switch t := t.Underlying().(type) {
	case *types.Slice, *types.Array, *types.Map:
		return "len(" + u.text(x) + ")", true
	case *types.Pointer:
		if _, ok := t.Elem().Underlying().(*types.Array); ok {
			return "len(" + u.text(x) + ")", true
		}
	case *types.Basic:
		if t.Info()&types.IsString != 0 {
			return "len(" + u.text(x) + ")", true // bytes: at least the runes
		}
		if t.Info()&types.IsInteger != 0 {
			return u.text(x), true
		}
	}
	return "", false
}

// pure reports whether e is an identifier, a literal or a chain of field
// selections: evaluating it again has no effect.
func pure(e ast.Expr) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident, *ast.BasicLit:
		return true
	case *ast.SelectorExpr:
		return pure(e.X)
	}
	return false
}

// A decl is where a target is made empty: a statement of the function
// (`var out []T`, `out := []T{}`, `x := &T{…}`), or nil for a named
// result or a parameter.
type decl struct {
	stmt ast.Stmt
	// typ is the type's source in a slice or map declaration, nil when
	// the type must be written from the types.
	typ ast.Expr
}

// emptyAt finds the target's declaration and checks that the target is
// empty when the loop starts: made empty there, nothing mentions it in
// between, and no loop or function literal between the declaration and
// the loop runs the loop again with the target grown. startsNil says a
// slice that is nil there.
func (u *unit) emptyAt(fn *ast.FuncDecl, loop *ast.RangeStmt, t target) (decl, bool, bool) {
	var d decl
	startsNil := false
	switch {
	case t.field != nil:
		s, lit := u.declStmt(fn, t.obj)
		if s == nil || !u.fieldUnset(s, lit, t) {
			return d, false, false
		}
		d.stmt, startsNil = s, true
	case u.isResult(t.obj):
		if t.isMap {
			return d, false, false
		}
		startsNil = true
	default:
		s, _ := u.declStmt(fn, t.obj)
		if s == nil {
			return d, false, false // a parameter: not ours to empty
		}
		typ, isNil, ok := u.emptyValue(s, t.obj)
		if !ok {
			return d, false, false
		}
		d.stmt, d.typ, startsNil = s, typ, isNil
	}
	// From the declaration (or the function's start) to the loop.
	from := fn.Body.Pos()
	if d.stmt != nil {
		from = d.stmt.End()
	}
	scope := ast.Node(fn.Body)
	if d.stmt != nil {
		scope = u.parents[d.stmt]
	}
	for p := u.parents[loop]; p != nil && p != scope; p = u.parents[p] {
		switch p.(type) {
		case *ast.ForStmt, *ast.RangeStmt, *ast.FuncLit:
			return d, false, false
		}
	}
	// Every statement and expression from there to the loop: the
	// statements before it and the conditions of those around it.
	var between []ast.Node
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if n == nil || n == ast.Node(loop) {
			return false
		}
		_, isStmt := n.(ast.Stmt)
		_, isExpr := n.(ast.Expr)
		if (isStmt || isExpr) && n.Pos() >= from && n.End() <= loop.Pos() {
			between = append(between, n)
			return false
		}
		return true
	})
	// A return there ends its path before the loop: what it hands out
	// is the empty value, never the one the loop grows.
	for _, s := range between {
		for _, n := range withoutReturns(s) {
			if u.mentionsTarget(n, t) {
				return d, false, false
			}
			// x itself may go nowhere before the loop: only its
			// other fields are set.
			if t.field != nil && u.mentions(n, t.obj) && !u.onlyOtherFields(n, t) {
				return d, false, false
			}
		}
	}
	return d, startsNil, true
}

// withoutReturns returns n, or when n holds return statements, the
// nodes of n outside them.
func withoutReturns(n ast.Node) []ast.Node {
	has := false
	ast.Inspect(n, func(m ast.Node) bool {
		_, isRet := m.(*ast.ReturnStmt)
		has = has || isRet
		return !has
	})
	if !has {
		return []ast.Node{n}
	}
	if _, ok := n.(*ast.ReturnStmt); ok {
		return nil
	}
	var out []ast.Node
	for _, c := range children(n) {
		out = append(out, withoutReturns(c)...)
	}
	return out
}

// declStmt finds the statement of fn that declares v, and the composite
// literal it is made from (&T{…} or T{…}), if any.
func (u *unit) declStmt(fn *ast.FuncDecl, v *types.Var) (ast.Stmt, *ast.CompositeLit) {
	var found ast.Stmt
	var lit *ast.CompositeLit
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch s := n.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE && len(s.Lhs) == 1 && len(s.Rhs) == 1 {
				if id, ok := s.Lhs[0].(*ast.Ident); ok && u.info.Defs[id] == v && u.inList(s) {
					found, lit = s, compositeOf(s.Rhs[0])
				}
			}
		case *ast.DeclStmt:
			g, ok := s.Decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
				return true
			}
			vs := g.Specs[0].(*ast.ValueSpec)
			if len(vs.Names) == 1 && u.info.Defs[vs.Names[0]] == v && u.inList(s) {
				found = s
				if len(vs.Values) == 1 {
					lit = compositeOf(vs.Values[0])
				}
			}
		}
		return true
	})
	return found, lit
}

func compositeOf(e ast.Expr) *ast.CompositeLit {
	e = ast.Unparen(e)
	if un, ok := e.(*ast.UnaryExpr); ok && un.Op == token.AND {
		e = ast.Unparen(un.X)
	}
	lit, _ := e.(*ast.CompositeLit)
	return lit
}

// fieldUnset reports whether the struct s declares leaves the field at
// its zero value: made from a keyed literal without it (lit), an empty
// one, or declared by var with no value.
func (u *unit) fieldUnset(s ast.Stmt, lit *ast.CompositeLit, t target) bool {
	if lit == nil {
		ds, ok := s.(*ast.DeclStmt)
		if !ok {
			return false
		}
		vs := ds.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
		_, isStruct := t.obj.Type().Underlying().(*types.Struct)
		return len(vs.Values) == 0 && isStruct
	}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return false // positional: every field is set
		}
		if id, ok := kv.Key.(*ast.Ident); ok && id.Name == t.field.Name() {
			return false
		}
	}
	return true
}

// onlyOtherFields reports whether every mention of x in s selects one of
// its other fields, not its address nor a method.
func (u *unit) onlyOtherFields(s ast.Node, t target) bool {
	ok := true
	ast.Inspect(s, func(n ast.Node) bool {
		if sel, isSel := n.(*ast.SelectorExpr); isSel {
			if x, isID := sel.X.(*ast.Ident); isID && u.info.ObjectOf(x) == t.obj {
				se, has := u.info.Selections[sel]
				if !has || se.Kind() != types.FieldVal || se.Obj() == t.field || u.addressed(sel) {
					ok = false
				}
				return false
			}
		}
		if id, isID := n.(*ast.Ident); isID && u.info.ObjectOf(id) == t.obj {
			ok = false
		}
		return ok
	})
	return ok
}

// emptyValue recognizes the declarations of an empty slice or map:
// `var out []T`, `out := []T{}`, `out := make([]T, 0)`, `var out = []T{}`,
// `m := map[K]V{}`, `m := make(map[K]V)`: the type's source and whether
// it starts nil.
func (u *unit) emptyValue(s ast.Stmt, v *types.Var) (ast.Expr, bool, bool) {
	var typ, val ast.Expr
	switch s := s.(type) {
	case *ast.DeclStmt:
		vs := s.Decl.(*ast.GenDecl).Specs[0].(*ast.ValueSpec)
		if len(vs.Values) > 1 {
			return nil, false, false
		}
		typ = vs.Type
		if len(vs.Values) == 1 {
			val = ast.Unparen(vs.Values[0])
		}
	case *ast.AssignStmt:
		val = ast.Unparen(s.Rhs[0])
	}
	switch x := val.(type) {
	case nil:
		if typ == nil {
			return nil, false, false
		}
	case *ast.CompositeLit:
		if len(x.Elts) != 0 || x.Type == nil {
			return nil, false, false
		}
		typ = x.Type
	case *ast.CallExpr:
		if !u.isBuiltin(x, "make") || x.Ellipsis.IsValid() || len(x.Args) == 0 {
			return nil, false, false
		}
		typ = x.Args[0]
		switch len(x.Args) {
		case 1: // make(map[K]V)
		case 2: // make([]T, 0)
			if !u.isZero(x.Args[1]) {
				return nil, false, false
			}
		default:
			return nil, false, false
		}
	default:
		return nil, false, false
	}
	tt := u.typeOf(typ)
	if tt == nil || !types.Identical(tt, v.Type()) {
		return nil, false, false
	}
	switch tt.Underlying().(type) {
	case *types.Slice:
		if call, ok := val.(*ast.CallExpr); ok && len(call.Args) != 2 {
			return nil, false, false
		}
		return typ, val == nil, true
	case *types.Map:
		if val == nil {
			return nil, false, false // a nil map cannot be filled
		}
		return typ, false, true
	}
	return nil, false, false
}

func (u *unit) isZero(e ast.Expr) bool {
	tv, ok := u.info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// typeText is the source of the target's type, as this file can write
// it: the declaration's, or the type written with the file's imports.
func (u *unit) typeText(t target) (string, bool) {
	ok := true
	s := types.TypeString(t.typ, func(p *types.Package) string {
		if p == u.types {
			return ""
		}
		for _, imp := range u.file.Imports {
			if strings.Trim(imp.Path.Value, "`\"") == p.Path() {
				if imp.Name != nil {
					if imp.Name.Name == "_" || imp.Name.Name == "." {
						ok = false
					}
					return imp.Name.Name
				}
				return p.Name()
			}
		}
		ok = false
		return p.Name()
	})
	return s, ok
}

// presizeEdit writes the rewrite: the room made where the target is
// declared when that is the loop's own block and nothing tells nil from
// empty, else just before the loop (guarded by the length when the
// target starts nil, so that it stays nil when there is nothing to add).
func (u *unit) presizeEdit(fn *ast.FuncDecl, loop *ast.RangeStmt, grow ast.Stmt, t target, d decl, startsNil bool, typ, size string, call *ast.CallExpr) candidate {
	name := t.String()
	var edits []edit
	var pre []string // statements before the loop
	if call != nil {
		items := u.fresh("items")
		pre = append(pre, fmt.Sprintf("%s := %s", items, u.text(call)))
		edits = append(edits, replace(call, items))
		if b, ok := u.typeOf(call).Underlying().(*types.Basic); ok && b.Info()&types.IsInteger != 0 {
			size = items
		} else {
			size = "len(" + items + ")"
		}
	}
	if d.typ != nil {
		typ = u.text(d.typ)
	}
	mk := fmt.Sprintf("make(%s, 0, %s)", typ, size)
	if t.isMap {
		mk = fmt.Sprintf("make(%s, %s)", typ, size)
	}
	guarded := startsNil && !u.staysLocal(fn, loop, t)
	// A local declared in the loop's own block, not guarded and not
	// handed out (returned) between its declaration and the loop: made
	// with its room where it is declared, or just before the loop.
	sameList := d.stmt != nil && t.field == nil && !guarded && u.parents[d.stmt] == u.parents[loopStmt(u, loop)] &&
		!u.mentionedBetween(d.stmt, loopStmt(u, loop), t.obj)
	c := candidate{
		kind:  "presize",
		line:  u.line(grow.Pos()),
		shape: "append-unsized",
		says:  fmt.Sprintf("%s grows by one element per element of %s, whose length is known before the loop, starting from no room: append reallocates and copies it as it grows", name, u.text(loop.X)),
	}
	if t.isMap {
		c.shape = "map-unsized"
		c.says = fmt.Sprintf("%s gets one entry per element of %s, whose length is known before the loop, starting from no room: the map grows and rehashes as it fills", name, u.text(loop.X))
	}
	if d.stmt != nil {
		c.more = append(c.more, u.line(d.stmt.Pos()))
	}
	switch {
	case sameList && len(pre) == 0 && u.adjacent(d.stmt, loop):
		edits = append(edits, replace(d.stmt, name+" := "+mk))
		c.desc = fmt.Sprintf("presize %s: %s", name, mk)
		c.advice = fmt.Sprintf("make it with room for all of them before the loop: %s := %s", name, mk)
	case sameList:
		pre = append(pre, name+" := "+mk)
		edits = append(edits, u.deleteStmt(d.stmt))
		c.desc = fmt.Sprintf("presize %s: %s", name, mk)
		c.advice = fmt.Sprintf("make it with room for all of them before the loop: %s := %s", name, mk)
	case guarded:
		cond := size + " > 0"
		pre = append(pre, fmt.Sprintf("if %s {\n%s = %s\n}", cond, name, mk))
		c.desc = fmt.Sprintf("presize %s: %s before the loop when %s (nil-preserving)", name, mk, cond)
		c.advice = fmt.Sprintf("make it with room for all of them before the loop, only when there is something to add, so that it stays nil otherwise (it leaves the function, where nil and empty may differ): if %s { %s = %s }", cond, name, mk)
	default:
		pre = append(pre, name+" = "+mk)
		c.desc = fmt.Sprintf("presize %s: %s = %s before the loop", name, name, mk)
		c.advice = fmt.Sprintf("make it with room for all of them before the loop: %s = %s", name, mk)
	}
	if len(pre) > 0 {
		edits = append(edits, insertBefore(loopStmt(u, loop), strings.Join(pre, "\n")))
	}
	c.edits = edits
	return c
}

// mentionedBetween reports whether a statement after from and before to,
// in the list that holds both, mentions v: a declaration moved down to
// to would leave it undeclared there.
func (u *unit) mentionedBetween(from, to ast.Stmt, v types.Object) bool {
	list := stmtsOf(u.parents[from])
	i, j := slices.Index(list, from), slices.Index(list, to)
	if i < 0 || j < i {
		return true
	}
	for _, s := range list[i+1 : j] {
		if u.mentions(s, v) {
			return true
		}
	}
	return false
}

// loopStmt is the statement the loop is: its label's, when it has one.
func loopStmt(u *unit, loop *ast.RangeStmt) ast.Stmt {
	if l, ok := u.parents[loop].(*ast.LabeledStmt); ok {
		return l
	}
	return loop
}

// adjacent reports whether s is the statement just before the loop.
func (u *unit) adjacent(s ast.Stmt, loop *ast.RangeStmt) bool {
	list := stmtsOf(u.parents[s])
	i := slices.Index(list, s)
	return i >= 0 && i+1 < len(list) && list[i+1] == loopStmt(u, loop)
}

func stmtsOf(n ast.Node) []ast.Stmt {
	switch n := n.(type) {
	case *ast.BlockStmt:
		return n.List
	case *ast.CaseClause:
		return n.Body
	case *ast.CommClause:
		return n.Body
	}
	return nil
}

// staysLocal reports whether nothing can tell the target nil from empty:
// a local variable that, after the loop, is only measured (len, cap),
// ranged over, indexed or appended to itself — never compared, returned,
// stored, passed or captured.
func (u *unit) staysLocal(fn *ast.FuncDecl, loop *ast.RangeStmt, t target) bool {
	if t.field != nil || u.isResult(t.obj) {
		return false
	}
	ok := true
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !ok || !isID || u.info.ObjectOf(id) != t.obj || u.info.Defs[id] != nil {
			return ok
		}
		if id.Pos() >= loop.Pos() && id.End() <= loop.End() {
			return true // the grow itself
		}
		if inside[*ast.FuncLit](u, id, fn.Body) {
			ok = false
			return false
		}
		switch p := u.parents[id].(type) {
		case *ast.IndexExpr:
			ok = p.X == id
		case *ast.RangeStmt:
			ok = p.X == id
		case *ast.CallExpr:
			ok = (u.isBuiltin(p, "len") || u.isBuiltin(p, "cap")) ||
				u.isBuiltin(p, "append") && len(p.Args) > 0 && p.Args[0] == id && u.assignedBack(p, t.obj)
		case *ast.AssignStmt:
			ok = slices.Contains(p.Lhs, ast.Expr(id)) && p.Tok == token.ASSIGN
		default:
			ok = false
		}
		return ok
	})
	return ok
}

// assignedBack reports whether call's result is assigned to v alone.
func (u *unit) assignedBack(call *ast.CallExpr, v types.Object) bool {
	as, ok := u.parents[call].(*ast.AssignStmt)
	return ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Rhs[0] == call && u.obj(as.Lhs[0]) == v
}

// presizeCopy finds `maps.Copy(m, src)` filling a map made empty just
// before it: m gets exactly src's entries.
func (u *unit) presizeCopy(s *ast.ExprStmt) (candidate, bool) {
	call, ok := s.X.(*ast.CallExpr)
	if !ok || len(call.Args) != 2 {
		return candidate{}, false
	}
	if path, name := u.pkgFunc(call); path != "maps" || name != "Copy" {
		return candidate{}, false
	}
	list := stmtsOf(u.parents[s])
	i := slices.Index(list, ast.Stmt(s))
	if i < 1 || !pure(call.Args[1]) {
		return candidate{}, false
	}
	m, ok := u.obj(call.Args[0]).(*types.Var)
	if !ok {
		return candidate{}, false
	}
	prev := list[i-1]
	typ, _, ok := u.emptyValue(prev, m)
	if !ok || !u.declares(prev, m) {
		return candidate{}, false
	}
	if _, isMap := u.typeOf(typ).Underlying().(*types.Map); !isMap {
		return candidate{}, false
	}
	if _, isMap := u.typeOf(call.Args[1]).Underlying().(*types.Map); !isMap {
		return candidate{}, false
	}
	mk := fmt.Sprintf("make(%s, len(%s))", u.text(typ), u.text(call.Args[1]))
	return candidate{
		kind:   "presize",
		line:   u.line(call.Pos()),
		more:   []int{u.line(prev.Pos())},
		desc:   fmt.Sprintf("presize %s: %s", m.Name(), mk),
		shape:  "map-unsized",
		says:   fmt.Sprintf("%s is made empty and filled with every entry of %s by maps.Copy: the map grows and rehashes as it fills", m.Name(), u.text(call.Args[1])),
		advice: fmt.Sprintf("give the map its size when it is made: %s := %s", m.Name(), mk),
		edits:  []edit{replace(prev, m.Name()+" := "+mk)},
	}, true
}

// declares reports whether s declares v (:= or var).
func (u *unit) declares(s ast.Stmt, v types.Object) bool {
	switch s := s.(type) {
	case *ast.AssignStmt:
		return s.Tok == token.DEFINE && len(s.Lhs) == 1 && u.info.Defs[s.Lhs[0].(*ast.Ident)] == v
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		return ok && len(g.Specs) == 1 && len(g.Specs[0].(*ast.ValueSpec).Names) == 1 && u.info.Defs[g.Specs[0].(*ast.ValueSpec).Names[0]] == v
	}
	return false
}

// hasGoto reports whether body has a goto.
func hasGoto(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if b, ok := n.(*ast.BranchStmt); ok && b.Tok == token.GOTO {
			found = true
		}
		return !found
	})
	return found
}
