package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// GrownToRequest finds a method that grows its receiver's slice to the
// size its argument asks for: r.f = make([]T, n, …) with n computed from
// a parameter, in a method that copies the old contents into the new
// array (a grow). bits-and-blooms/bitset's extendSet grows b.set to hold
// bit i when Set(i) is past the end: the storage the caller's index
// needs, which both hand analyses call the API's (New(n) sizes it once),
// not a layout to change.
var GrownToRequest = &analysis.Analyzer{
	Name: "grownrequest",
	Doc:  "a method growing its receiver's slice to the size its argument asks for",
	Run:  runGrownToRequest,
}

func runGrownToRequest(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) != 1 || len(fd.Recv.List[0].Names) != 1 {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		params := paramSet(pass, fd)
		if recv == nil || len(params) == 0 {
			return
		}
		derived := derivedFrom(pass, fd.Body, params)
		// The fields the method copies into a new array: what it grows.
		grown := map[string]*ast.CallExpr{} // field → the copy of its old contents
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if ok && isBuiltin(pass, call.Fun, "copy") && len(call.Args) == 2 {
				if sel, ok := ast.Unparen(call.Args[1]).(*ast.SelectorExpr); ok && isObj(pass, sel.X, recv) {
					grown[sel.Sel.Name] = call
				}
			}
		})
		if len(grown) == 0 {
			return
		}
		made := map[types.Object]*ast.CallExpr{} // newset := make(…)
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if ok && isBuiltin(pass, mk.Fun, "make") && len(mk.Args) >= 2 && sizedBy(pass, mk.Args[1:], derived) {
				if id, ok := as.Lhs[0].(*ast.Ident); ok {
					made[pass.TypesInfo.ObjectOf(id)] = mk
				}
			}
			if id, isID := ast.Unparen(as.Rhs[0]).(*ast.Ident); isID {
				mk = made[pass.TypesInfo.Uses[id]] // b.set = newset
			} else if !ok || !isBuiltin(pass, mk.Fun, "make") || len(mk.Args) < 2 || !sizedBy(pass, mk.Args[1:], derived) {
				return
			}
			if mk == nil {
				return
			}
			sel, ok := as.Lhs[0].(*ast.SelectorExpr)
			if !ok || !isObj(pass, sel.X, recv) || grown[sel.Sel.Name] == nil {
				return
			}
			field := types.ExprString(sel)
			pass.Report(analysis.Diagnostic{
				Category: "grown-to-request",
				Pos:      mk.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: grown[sel.Sel.Name].Pos(), Message: "the old contents copied"}},
				Message: fmt.Sprintf("%s grows %s to the size its argument asks for (%s): the storage the caller's request needs",
					fd.Name.Name, field, oneLine(types.ExprString(mk))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "a cost of what the caller asks: a caller that knows the final size sizes it once (a constructor or a Grow taking the size), and growth that doubles the capacity already spreads the rest"}},
			})
		})
	})
	return nil, nil
}

// derivedFrom returns the parameters and the locals of body computed from
// them (nsize := wordsNeeded(i + 1)).
func derivedFrom(pass *analysis.Pass, body *ast.BlockStmt, params map[*types.Var]bool) map[types.Object]bool {
	out := map[types.Object]bool{}
	for p := range params {
		out[p] = true
	}
	inspectBody(body, func(n ast.Node) {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return
		}
		for i, r := range as.Rhs {
			id, ok := as.Lhs[i].(*ast.Ident)
			if ok && mentionsAny(pass, r, out) {
				if obj := pass.TypesInfo.ObjectOf(id); obj != nil {
					out[obj] = true
				}
			}
		}
	})
	return out
}

// sizedBy reports whether one of make's size arguments mentions objs.
func sizedBy(pass *analysis.Pass, args []ast.Expr, objs map[types.Object]bool) bool {
	for _, a := range args {
		if mentionsAny(pass, a, objs) {
			return true
		}
	}
	return false
}

// mentionsAny reports whether e uses one of objs.
func mentionsAny(pass *analysis.Pass, e ast.Expr, objs map[types.Object]bool) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && objs[pass.TypesInfo.Uses[id]] {
			found = true
		}
		return !found
	})
	return found
}
