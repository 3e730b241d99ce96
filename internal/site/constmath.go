package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ConstMath finds a call of one of package math's functions with only
// constant arguments inside a function (math.Log2(10)): the compiler does
// not evaluate such a call at compile time, so every call of the function
// computes the same number again.
var ConstMath = &analysis.Analyzer{
	Name: "constmath",
	Doc:  "a call of a math function with constant arguments, computed again on every call",
	Run:  runConstMath,
}

// mathFuncs are package math's functions that compute: the compiler
// neither folds them for constant arguments nor replaces them by one
// instruction.
var mathFuncs = map[string]bool{
	"Log": true, "Log2": true, "Log10": true, "Log1p": true, "Logb": true,
	"Exp": true, "Exp2": true, "Expm1": true, "Pow": true, "Pow10": true, "Cbrt": true,
	"Sin": true, "Cos": true, "Tan": true, "Asin": true, "Acos": true, "Atan": true, "Atan2": true,
	"Sinh": true, "Cosh": true, "Tanh": true, "Hypot": true,
}

func runConstMath(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			inspectBody(fd.Body, func(n ast.Node) {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !mathFuncs[sel.Sel.Name] {
					return
				}
				fn, _ := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
				if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "math" {
					return
				}
				for _, a := range call.Args {
					if tv, ok := pass.TypesInfo.Types[a]; !ok || tv.Value == nil {
						return
					}
				}
				text := types.ExprString(call)
				pass.Report(analysis.Diagnostic{
					Category: "math-const",
					Pos:      call.Pos(),
					Message:  fmt.Sprintf("%s computes the same number on every call of %s: the compiler does not fold a math call", text, fd.Name.Name),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"compute it once: a package-level var (var x = %s) or its value written as a constant", text)}},
				})
			})
		}
	}
	return nil, nil
}
