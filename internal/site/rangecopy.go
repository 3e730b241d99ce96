package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// RangeCopy finds a range loop that copies more than it needs to: over an
// array value with a value variable, which copies the whole array before
// the first iteration (a radix tree's `for t, nds := range nn.children`
// over a [4]nodes of 96 bytes, on every node it visits), and over a
// slice or array of large elements with a value variable, which copies
// each element. The fix is to range over the indexes and read the
// element in place.
var RangeCopy = &analysis.Analyzer{
	Name: "rangecopy",
	Doc:  "a range loop copying an array, or each large element, into its value variable",
	Run:  runRangeCopy,
}

// Sizes from which a copy is worth a shape: an array range expression
// (the loop copies it once; eight words or fewer are a few moves), an
// element (the loop copies each).
const (
	rangeArrayMin   = 65
	rangeElementMin = 128
)

func runRangeCopy(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			r, ok := n.(*ast.RangeStmt)
			if !ok || r.Value == nil {
				return
			}
			if id, ok := r.Value.(*ast.Ident); ok && id.Name == "_" {
				return
			}
			t := pass.TypesInfo.TypeOf(r.X)
			if t == nil {
				return
			}
			x := text(pass, r.X)
			switch u := t.Underlying().(type) {
			case *types.Array:
				if size, ok := sizeof(pass.TypesSizes, u); ok && size >= rangeArrayMin {
					if call, ok := ast.Unparen(r.X).(*ast.CallExpr); ok && !isConversion(pass, call) {
						// A call's result: the array is made anew
						// on every call, and indexing the call would
						// make it once per element.
						pass.Report(analysis.Diagnostic{
							Category:       "range-copy",
							Pos:            r.X.Pos(),
							Message:        fmt.Sprintf("the loop ranges over %s, which returns an array of %d bytes (%s) by value: the array is built and copied every time the loop starts", x, size, types.TypeString(t, types.RelativeTo(pass.Pkg))),
							SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("where %s returns the same elements every time, build the array once, in a package-level var (assigned in an init function where its elements refer back to this function: an initializer would be a cycle), and range over its indexes reading each element in place (for i := range rules { r := &rules[i] … }); do not index the call itself, which would build it once per element", x)}},
						})
						return
					}
					pass.Report(analysis.Diagnostic{
						Category:       "range-copy",
						Pos:            r.X.Pos(),
						Message:        fmt.Sprintf("the loop ranges over %s, an array of %d bytes (%s), with a value variable: it copies the whole array before its first iteration, every time the loop starts", x, size, types.TypeString(t, types.RelativeTo(pass.Pkg))),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("range over the indexes and read each element in place (for i := range %s { v := %s[i] … }), or over &%s", x, x, x)}},
					})
					return
				}
				rangeElemCopy(pass, r, x, u.Elem())
			case *types.Slice:
				rangeElemCopy(pass, r, x, u.Elem())
			}
		})
	})
	return nil, nil
}

// rangeElemCopy reports a range loop whose value variable copies each
// element of a large type.
func rangeElemCopy(pass *analysis.Pass, r *ast.RangeStmt, x string, elem types.Type) {
	size, ok := sizeof(pass.TypesSizes, elem)
	if !ok || size < rangeElementMin {
		return
	}
	v := text(pass, r.Value)
	pass.Report(analysis.Diagnostic{
		Category:       "range-copy",
		Pos:            r.Value.Pos(),
		Message:        fmt.Sprintf("the loop copies each element of %s (a %s, %d bytes) into %s", x, types.TypeString(elem, types.RelativeTo(pass.Pkg)), size, v),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("range over the indexes and use the element in place (for i := range %s { %s := &%s[i] … })", x, v, x)}},
	})
}
