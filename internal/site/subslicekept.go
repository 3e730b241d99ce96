package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SubsliceKept finds a loop that appends to one slice and then keeps a
// slice of it in another, growing in step (regexp2's findAllRunesIndex):
//
//	flat = append(flat, start, end)
//	out = append(out, flat[len(flat)-2:len(flat):len(flat)])
//
// Each growth of flat copies it to a new array while the slices out holds
// keep every earlier array alive, and out regrows beside it. Appending
// only to flat in the loop and slicing it into out once, after the loop,
// when the count is known, makes one array of each.
var SubsliceKept = &analysis.Analyzer{
	Name: "subslicekept",
	Doc:  "a loop keeping slices of a slice it grows by append in another slice growing in step",
	Run:  runSubsliceKept,
}

func runSubsliceKept(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			}
			if body == nil {
				return
			}
			grown := map[types.Object]*ast.AssignStmt{} // appended to in this loop's body
			ast.Inspect(body, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				if as, ok := n.(*ast.AssignStmt); ok {
					if v, _ := selfAppend(pass, as); v != nil {
						grown[v] = as
					}
				}
				return true
			})
			for keeper, as := range grown {
				_, call := selfAppend(pass, as)
				if len(call.Args) != 2 || call.Ellipsis.IsValid() {
					continue
				}
				se, ok := ast.Unparen(call.Args[1]).(*ast.SliceExpr)
				if !ok {
					continue
				}
				src := objOf(pass, se.X)
				flat := grown[src]
				if src == nil || src == keeper || flat == nil {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Category: "subslice-kept",
					Pos:      as.Pos(),
					Related:  []analysis.RelatedInformation{{Pos: flat.Pos(), Message: "grown here"}},
					Message: fmt.Sprintf("%s keeps slices of %s, which the same loop grows by append (line %d): each growth copies %s to a new array, the slices %s holds keep every earlier one alive, and %s regrows beside it",
						keeper.Name(), src.Name(), pass.Fset.Position(flat.Pos()).Line, src.Name(), keeper.Name(), keeper.Name()),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"append only to %s in the loop; after it, when the count is known, make %s once at its length and fill it with slices of %s's one final array: one array for the values, one for %s",
						src.Name(), keeper.Name(), src.Name(), keeper.Name())}},
				})
			}
		})
	}
	return nil, nil
}

// selfAppend returns the variable of `v = append(v, …)` and the call.
func selfAppend(pass *analysis.Pass, as *ast.AssignStmt) (types.Object, *ast.CallExpr) {
	if len(as.Lhs) != 1 || len(as.Rhs) != 1 {
		return nil, nil
	}
	call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil, nil
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	if b, ok := pass.TypesInfo.Uses[id].(*types.Builtin); !ok || b.Name() != "append" {
		return nil, nil
	}
	v := objOf(pass, as.Lhs[0])
	if v == nil || objOf(pass, call.Args[0]) != v {
		return nil, nil
	}
	return v, call
}
