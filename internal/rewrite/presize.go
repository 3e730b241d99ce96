package rewrite

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// presize finds slices and maps that start empty and grow by exactly one
// element per iteration of the range loop that follows.
func (u *unit) presize(fn *ast.FuncDecl) []candidate {
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for i, s := range list {
			obj, typ, nilSlice := u.emptyDecl(s)
			if obj == nil {
				continue
			}
			for j := i + 1; j < len(list); j++ {
				if !u.mentions(list[j], obj) {
					continue
				}
				if c, ok := u.presizeLoop(fn, s, list[j], obj, typ, nilSlice, j == i+1); ok {
					out = append(out, c)
				}
				break
			}
		}
	})
	return out
}

// emptyDecl recognizes `var out []T`, `out := []T{}`, `out := make([]T, 0)`,
// `m := map[K]V{}` and `m := make(map[K]V)`: the variable, its type's
// source, and whether it starts nil.
func (u *unit) emptyDecl(s ast.Stmt) (types.Object, ast.Expr, bool) {
	var id *ast.Ident
	var typ, val ast.Expr
	switch s := s.(type) {
	case *ast.DeclStmt:
		g, ok := s.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
			return nil, nil, false
		}
		vs := g.Specs[0].(*ast.ValueSpec)
		if len(vs.Names) != 1 || len(vs.Values) != 0 || vs.Type == nil {
			return nil, nil, false
		}
		id, typ = vs.Names[0], vs.Type
	case *ast.AssignStmt:
		if s.Tok != token.DEFINE || len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			return nil, nil, false
		}
		id, _ = s.Lhs[0].(*ast.Ident)
		val = ast.Unparen(s.Rhs[0])
	default:
		return nil, nil, false
	}
	if id == nil || id.Name == "_" {
		return nil, nil, false
	}
	switch v := val.(type) {
	case nil:
	case *ast.CompositeLit:
		if len(v.Elts) != 0 || v.Type == nil {
			return nil, nil, false
		}
		typ = v.Type
	case *ast.CallExpr:
		if !u.isBuiltin(v, "make") || v.Ellipsis.IsValid() || len(v.Args) == 0 {
			return nil, nil, false
		}
		typ = v.Args[0]
		switch len(v.Args) {
		case 1: // make(map[K]V)
		case 2: // make([]T, 0)
			if !u.isZero(v.Args[1]) {
				return nil, nil, false
			}
		default:
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	obj := u.info.Defs[id]
	t := u.typeOf(typ)
	if obj == nil || t == nil {
		return nil, nil, false
	}
	switch t.Underlying().(type) {
	case *types.Slice:
		if call, ok := val.(*ast.CallExpr); ok && len(call.Args) != 2 {
			return nil, nil, false
		}
		return obj, typ, val == nil
	case *types.Map:
		if val == nil {
			return nil, nil, false // a nil map cannot be filled
		}
		return obj, typ, false
	}
	return nil, nil, false
}

func (u *unit) isZero(e ast.Expr) bool {
	tv, ok := u.info.Types[e]
	return ok && tv.Value != nil && tv.Value.Kind() == constant.Int && constant.Sign(tv.Value) == 0
}

// presizeLoop checks the statement after the declaration: a range loop
// over a side-effect-free expression with a known length, whose body
// grows obj exactly once per iteration, unconditionally, and does
// nothing else with it.
func (u *unit) presizeLoop(fn *ast.FuncDecl, decl, next ast.Stmt, obj types.Object, typ ast.Expr, nilSlice, adjacent bool) (candidate, bool) {
	loop, body := loopOf(next)
	rs, ok := loop.(*ast.RangeStmt)
	if !ok || body == nil {
		return candidate{}, false
	}
	if (rs.Key != nil && u.mentions(rs.Key, obj)) || (rs.Value != nil && u.mentions(rs.Value, obj)) || u.mentions(rs.X, obj) {
		return candidate{}, false
	}
	size, ok := u.rangeLen(rs.X)
	if !ok {
		return candidate{}, false
	}
	_, isMap := u.typeOf(typ).Underlying().(*types.Map)
	grow := -1
	for k, s := range body.List {
		if !u.mentions(s, obj) {
			continue
		}
		if grow >= 0 || !u.growsOnce(s, obj, isMap) {
			return candidate{}, false
		}
		grow = k
	}
	if grow < 0 {
		return candidate{}, false
	}
	for _, s := range body.List[:grow] {
		if leaves(s) {
			return candidate{}, false
		}
	}
	if nilSlice && u.comparedToNil(fn, obj) {
		return candidate{}, false // a nil result would become an empty one
	}
	name := obj.Name()
	var mk string
	if isMap {
		mk = fmt.Sprintf("make(%s, %s)", u.text(typ), size)
	} else {
		mk = fmt.Sprintf("make(%s, 0, %s)", u.text(typ), size)
	}
	newDecl := name + " := " + mk
	c := candidate{
		kind:   "presize",
		line:   u.line(body.List[grow].Pos()),
		more:   []int{u.line(decl.Pos())},
		desc:   fmt.Sprintf("presize %s: %s", name, mk),
		shape:  "append-unsized",
		says:   fmt.Sprintf("%s grows by one element per element of %s, whose length is known before the loop, starting from no room: append reallocates and copies it as it grows", name, u.text(rs.X)),
		advice: fmt.Sprintf("make it with room for all of them before the loop: %s := %s", name, mk),
	}
	if isMap {
		c.shape = "map-unsized"
		c.says = fmt.Sprintf("%s gets one entry per element of %s, whose length is known before the loop, starting from no room: the map grows and rehashes as it fills", name, u.text(rs.X))
		c.advice = fmt.Sprintf("give the map its size when it is made: %s := %s", name, mk)
	}
	if adjacent {
		c.edits = []edit{replace(decl, newDecl)}
	} else {
		c.edits = []edit{u.deleteStmt(decl), insertBefore(next, newDecl)}
	}
	return c, true
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

// growsOnce reports whether s is `obj = append(obj, e)` (one element) or,
// for a map, `obj[k] = v`, with e, k and v not mentioning obj.
func (u *unit) growsOnce(s ast.Stmt, obj types.Object, isMap bool) bool {
	as, ok := s.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return false
	}
	if isMap {
		ix, ok := as.Lhs[0].(*ast.IndexExpr)
		return ok && u.obj(ix.X) == obj && !u.mentions(ix.Index, obj) && !u.mentions(as.Rhs[0], obj)
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || u.obj(as.Lhs[0]) != obj || !u.isBuiltin(call, "append") || call.Ellipsis.IsValid() || len(call.Args) != 2 {
		return false
	}
	return u.obj(call.Args[0]) == obj && !u.mentions(call.Args[1], obj)
}

// leaves reports whether s may end the iteration or the loop early:
// a break, continue, goto or return outside function literals.
func leaves(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt, *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// comparedToNil reports whether fn compares obj with nil.
func (u *unit) comparedToNil(fn *ast.FuncDecl, obj types.Object) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		b, ok := n.(*ast.BinaryExpr)
		if ok && (b.Op == token.EQL || b.Op == token.NEQ) && (u.obj(b.X) == obj || u.obj(b.Y) == obj) {
			found = true
		}
		return !found
	})
	return found
}
