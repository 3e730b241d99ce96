package rewrite

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// field finds a local array in a pointer-receiver method whose slice is
// passed to a method of an interface, which the compiler cannot see
// through, so the array moves to the heap on every call. Moving it into
// a field of the receiver's struct allocates it once with the struct;
// it also makes the method unsafe for concurrent or re-entrant calls on
// one receiver, and changes a type: review only.
func (u *unit) field(fn *ast.FuncDecl) []candidate {
	recv, st, structType := u.pointerReceiver(fn)
	if recv == nil {
		return nil
	}
	var out []candidate
	stmtLists(fn.Body, func(list []ast.Stmt) {
		for _, s := range list {
			if c, ok := u.fieldArray(fn, recv, st, structType, s); ok {
				out = append(out, c)
			}
		}
	})
	return out
}

// pointerReceiver returns the receiver's name, the struct's type and its
// declaration in this file, for a method on *T with T a non-generic
// struct type declared in the file.
func (u *unit) pointerReceiver(fn *ast.FuncDecl) (*ast.Ident, *types.Named, *ast.StructType) {
	if fn.Recv == nil || len(fn.Recv.List) != 1 || len(fn.Recv.List[0].Names) != 1 {
		return nil, nil, nil
	}
	recv := fn.Recv.List[0].Names[0]
	if recv.Name == "_" {
		return nil, nil, nil
	}
	ptr, ok := u.typeOf(fn.Recv.List[0].Type).(*types.Pointer)
	if !ok {
		return nil, nil, nil
	}
	named, ok := types.Unalias(ptr.Elem()).(*types.Named)
	if !ok || named.TypeParams().Len() > 0 || named.Obj().Pkg() != u.types {
		return nil, nil, nil
	}
	if _, ok := named.Underlying().(*types.Struct); !ok {
		return nil, nil, nil
	}
	for _, d := range u.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, spec := range g.Specs {
			ts := spec.(*ast.TypeSpec)
			if u.info.Defs[ts.Name] == named.Obj() {
				if st, ok := ts.Type.(*ast.StructType); ok && st.Fields != nil && st.Fields.Closing.IsValid() {
					return recv, named, st
				}
			}
		}
	}
	return nil, nil, nil
}

func (u *unit) fieldArray(fn *ast.FuncDecl, recv *ast.Ident, named *types.Named, st *ast.StructType, s ast.Stmt) (candidate, bool) {
	ds, ok := s.(*ast.DeclStmt)
	if !ok {
		return candidate{}, false
	}
	g, ok := ds.Decl.(*ast.GenDecl)
	if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
		return candidate{}, false
	}
	vs := g.Specs[0].(*ast.ValueSpec)
	if len(vs.Names) != 1 || len(vs.Values) != 0 || vs.Type == nil {
		return candidate{}, false
	}
	obj := u.info.Defs[vs.Names[0]]
	if obj == nil {
		return candidate{}, false
	}
	if _, ok := obj.Type().(*types.Array); !ok {
		return candidate{}, false
	}
	// The array's type must mean the same in the struct: no local types
	// or constants in it.
	if !u.packageLevel(vs.Type) {
		return candidate{}, false
	}
	var escape *ast.CallExpr
	uses := u.idents(fn.Body, obj)
	for _, id := range uses {
		if id == vs.Names[0] {
			continue
		}
		if inside[*ast.FuncLit](u, id, fn.Body) {
			return candidate{}, false
		}
		if sl, ok := u.parents[id].(*ast.SliceExpr); ok && sl.X == id {
			if call, ok := u.parents[sl].(*ast.CallExpr); ok && u.interfaceMethod(call) && escape == nil {
				escape = call
			}
		}
	}
	if escape == nil {
		return candidate{}, false
	}
	name := u.fresh(obj.Name() + "Buf")
	if o, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), true, u.types, name); o != nil {
		return candidate{}, false
	}
	field := recv.Name + "." + name
	c := candidate{
		kind:   "field",
		line:   u.line(s.Pos()),
		more:   []int{u.line(escape.Pos())},
		review: true,
		desc: fmt.Sprintf("field %s: %s %s in %s, zeroed per call (not safe for concurrent calls on one %s)",
			obj.Name(), name, u.text(vs.Type), named.Obj().Name(), named.Obj().Name()),
		shape:  "array-through-interface",
		says:   fmt.Sprintf("%s is passed to %s, a method of an interface the compiler cannot see through, so it is moved to the heap on every call", obj.Name(), u.text(escape.Fun)),
		advice: fmt.Sprintf("keep it in the receiver: a field %s %s in %s, zeroed where %s was declared (one per %s: not for concurrent calls on one value)", name, u.text(vs.Type), named.Obj().Name(), obj.Name(), named.Obj().Name()),
		edits: []edit{
			{pos: st.Fields.Closing, end: st.Fields.Closing, text: u.lineBefore(st.Fields.Closing) + fmt.Sprintf("%s %s // scratch for %s\n", name, u.text(vs.Type), fn.Name.Name)},
			replace(s, fmt.Sprintf("%s = %s{}", field, u.text(vs.Type))),
		},
	}
	for _, id := range uses {
		if id != vs.Names[0] {
			c.edits = append(c.edits, replace(id, field))
		}
	}
	return c, true
}

// packageLevel reports whether every identifier in e refers to
// something declared at package level or imported.
func (u *unit) packageLevel(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			return false
		case *ast.Ident:
			obj := u.info.Uses[n]
			if obj == nil || (obj.Parent() != types.Universe && (u.types == nil || obj.Parent() != u.types.Scope())) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// interfaceMethod reports whether call calls a method of an interface
// value: a dynamic call the escape analysis cannot follow.
func (u *unit) interfaceMethod(call *ast.CallExpr) bool {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s, ok := u.info.Selections[sel]
	return ok && s.Kind() == types.MethodVal && types.IsInterface(s.Recv())
}

// lineBefore is "\n" unless pos starts a line (after indentation).
func (u *unit) lineBefore(pos token.Pos) string {
	before := bytes.TrimRight(u.src[:u.off(pos)], " \t")
	if len(before) > 0 && before[len(before)-1] == '\n' {
		return ""
	}
	return "\n"
}
