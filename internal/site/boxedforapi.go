package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BoxedForAPI finds a loop that boxes each element to call one of the
// package's exported functions whose parameter is an empty interface — a
// conversion library's slice path calling its own ToE[T](any) per
// element through reflection:
//
//	for j := 0; j < s.Len(); j++ {
//		val, err := ToE[T](s.Index(j).Interface())   // boxed for ToE's any
//	}
//
// The boxing is what the exported function's signature asks for: one
// allocation per element that is not pointer-shaped, whoever calls it. A
// typed loop for the common slice types skips the reflection, not the
// boxing.
var BoxedForAPI = &analysis.Analyzer{
	Name: "boxedforapi",
	Doc:  "each element of a loop boxed to call the package's exported function that takes any",
	Run:  runBoxedForAPI,
}

func runBoxedForAPI(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			var body *ast.BlockStmt
			switch x := n.(type) {
			case *ast.ForStmt:
				body = x.Body
			case *ast.RangeStmt:
				body = x.Body
			default:
				return
			}
			inspectBody(body, func(n ast.Node) {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return
				}
				fn := calleeFunc(pass, c)
				if fn == nil || fn.Pkg() != pass.Pkg || !fn.Exported() {
					return
				}
				sig, ok := fn.Type().(*types.Signature)
				if !ok || sig.Variadic() {
					return
				}
				for i, a := range c.Args {
					if i >= sig.Params().Len() {
						return
					}
					it, ok := sig.Params().At(i).Type().Underlying().(*types.Interface)
					if !ok || !it.Empty() {
						continue
					}
					inner, ok := ast.Unparen(a).(*ast.CallExpr)
					if !ok || !isFunc(pass, inner, "reflect", "Value", "Interface") {
						continue
					}
					pass.Report(analysis.Diagnostic{
						Category: "boxed-for-api",
						Pos:      inner.Pos(),
						Message: fmt.Sprintf("%s boxes each element (%s) to call %s, whose parameter is %s: reflect's Interface copies an element that is not pointer-shaped to the heap, once per element",
							fd.Name.Name, oneLine(types.ExprString(inner)), fn.Name(), types.TypeString(sig.Params().At(i).Type(), types.RelativeTo(pass.Pkg))),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("a cost of %s's signature, which takes any: every caller boxes what it passes; typed loops for the common slice types ([]string, []int, []any) skip the reflection but not the boxing while the values go through %s", fn.Name(), fn.Name())}},
					})
				}
			})
		})
	})
	return nil, nil
}
