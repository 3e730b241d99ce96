package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// CoAlloc finds two objects a function allocates one after the other, the
// second stored into a pointer field of the first:
//
//	tx := &Tx{db: db, writable: writable}
//	…
//	tx.wc = &txWriteContext{}
//
// They live and die together, yet cost two allocations; one struct that
// holds both (w := &struct{ tx Tx; wc txWriteContext }{}; tx = &w.tx;
// tx.wc = &w.wc) is one.
var CoAlloc = &analysis.Analyzer{
	Name: "coalloc",
	Doc:  "an object allocated and stored into a pointer field of another the same function just allocated",
	Run:  runCoAlloc,
}

func runCoAlloc(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		made := map[types.Object]*ast.AssignStmt{} // x := &T{…}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || !newStruct(pass, as.Rhs[0]) {
				return
			}
			switch l := as.Lhs[0].(type) {
			case *ast.Ident:
				if obj := pass.TypesInfo.ObjectOf(l); obj != nil {
					made[obj] = as
				}
			case *ast.SelectorExpr:
				// owner.field = &U{…}, owner made here.
				x, ok := ast.Unparen(l.X).(*ast.Ident)
				if !ok {
					return
				}
				first, ok := made[pass.TypesInfo.Uses[x]]
				if !ok || first.Pos() > as.Pos() {
					return
				}
				innerP, ok1 := pass.TypesInfo.TypeOf(l).(*types.Pointer)
				outerP, ok2 := pass.TypesInfo.TypeOf(x).(*types.Pointer)
				if !ok1 || !ok2 {
					return // a field of interface type, or an owner of a named pointer type
				}
				inner := types.TypeString(innerP.Elem(), types.RelativeTo(pass.Pkg))
				outer := types.TypeString(outerP.Elem(), types.RelativeTo(pass.Pkg))
				pass.Report(analysis.Diagnostic{
					Category: "allocated-together",
					Pos:      as.Pos(),
					Related:  []analysis.RelatedInformation{{Pos: first.Pos(), Message: "the owner, allocated first"}},
					Message: fmt.Sprintf("%s allocates a %s (line %d) and then a %s for its field %s: two objects that live and die together, two allocations",
						fd.Name.Name, outer, pass.Fset.Position(first.Pos()).Line, inner, text(pass, l)),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("allocate them as one: w := &struct{ a %s; b %s }{…}; %s = &w.a; %s = &w.b — one allocation; and make the field's own maps or slices where they are first needed",
						outer, inner, x.Name, text(pass, l))}},
				})
			}
		})
	})
	coAllocAddr(pass)
	return nil, nil
}

// coAllocAddr finds a struct allocated with a pointer field set to the
// address of a local the same function declared: the local moves to the
// heap to be pointed to, a second allocation for a value that lives and
// dies with the struct.
//
//	b := q.bound
//	v := &nearestVisitor{…, closestBound: &b, …}
//
// paulmach/orb's quadtree queries (both hand analyses: one allocation
// per query less with the bound held in the visitor).
func coAllocAddr(pass *analysis.Pass) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			u, ok := n.(*ast.UnaryExpr)
			if !ok || u.Op != token.AND {
				return
			}
			lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
			if !ok || !isStruct(pass.TypesInfo.TypeOf(lit)) {
				return
			}
			owner := types.TypeString(pass.TypesInfo.TypeOf(lit), types.RelativeTo(pass.Pkg))
			for _, el := range lit.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				addr, ok := ast.Unparen(kv.Value).(*ast.UnaryExpr)
				if !ok || addr.Op != token.AND {
					continue
				}
				id, ok := ast.Unparen(addr.X).(*ast.Ident)
				if !ok {
					continue
				}
				x, ok := pass.TypesInfo.Uses[id].(*types.Var)
				if !ok || x.IsField() || x.Parent() == pass.Pkg.Scope() || x.Pos() < fd.Body.Pos() || x.Pos() > fd.Body.End() {
					continue // a parameter, or a package's variable
				}
				field := kv.Key.(*ast.Ident).Name
				xt := typeName(pass, x.Type())
				pass.Report(analysis.Diagnostic{
					Category: "allocated-together",
					Pos:      x.Pos(),
					Related:  []analysis.RelatedInformation{{Pos: kv.Pos(), Message: "its address, kept in the " + owner}},
					Message: fmt.Sprintf("%s points the field %s of the %s it allocates at %s, a local %s: %s moves to the heap for it, a second allocation for a value that lives and dies with the %s",
						fd.Name.Name, field, owner, x.Name(), xt, x.Name(), owner),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"hold the %s in the %s itself (a field of type %s) and point %s at that field once the %s is made: one allocation",
						xt, owner, xt, field, owner)}},
				})
			}
		})
	})
}

// newStruct reports whether e is &T{…} of a struct type T.
func newStruct(pass *analysis.Pass, e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return false
	}
	lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
	if !ok {
		return false
	}
	t := pass.TypesInfo.TypeOf(lit)
	return t != nil && isStruct(t)
}
