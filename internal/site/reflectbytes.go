package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ReflectSliceBytes finds v.Slice(i, j).Bytes() on a reflect.Value: on a
// byte array, Slice allocates the slice header of the Value it returns,
// only for Bytes to read it; reflect.Value.Bytes takes an addressable
// byte array itself (Go 1.21), so v.Bytes()[i:j] gives the same bytes
// without the allocation.
var ReflectSliceBytes = &analysis.Analyzer{
	Name: "reflectslicebytes",
	Doc:  "v.Slice(i, j).Bytes() on a reflect.Value, which allocates a slice header for a byte array",
	Run:  runReflectSliceBytes,
}

func runReflectSliceBytes(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Bytes" {
				return true
			}
			inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
			if !ok || len(inner.Args) != 2 {
				return true
			}
			isel, ok := inner.Fun.(*ast.SelectorExpr)
			if !ok || isel.Sel.Name != "Slice" || !isNamed(pass.TypesInfo.TypeOf(isel.X), "reflect", "Value") {
				return true
			}
			v := types.ExprString(isel.X)
			bounds := fmt.Sprintf("[%s:%s]", types.ExprString(inner.Args[0]), types.ExprString(inner.Args[1]))
			if types.ExprString(inner.Args[0]) == "0" {
				bounds = fmt.Sprintf("[:%s]", types.ExprString(inner.Args[1]))
			}
			pass.Report(analysis.Diagnostic{
				Category: "reflect-slice-bytes",
				Pos:      call.Pos(),
				Message:  fmt.Sprintf("%s makes a reflect.Value of a new slice only to read its bytes: on a byte array, Slice allocates that slice's header", oneLine(types.ExprString(call))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"when %s is addressable, %s.Bytes()%s gives the same bytes without the allocation (Value.Bytes takes an addressable byte array)", v, v, bounds)}},
			})
			return true
		})
	}
	return nil, nil
}
