package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BoxedForCall finds a struct literal passed to an interface parameter of
// a function of the package that is too large to inline: the compiler
// cannot see what the callee does with the interface, so the struct
// escapes and is allocated on every call, only to carry its fields to the
// callee's method calls (gin's `c.Render(code, render.String{…})` in
// Context.String and Context.JSON: 1 allocation per response; both hand
// analyses called the concrete type's methods directly: OneRouteString
// 1 → 0 allocs/op, −56…−65%).
var BoxedForCall = &analysis.Analyzer{
	Name: "boxedforcall",
	Doc:  "a struct literal passed to an interface parameter of a function too large to inline",
	Run:  runBoxedForCall,
}

func runBoxedForCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		eachCall(fd.Body, func(call *ast.CallExpr, _ []ast.Node) {
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() != pass.Pkg {
				return
			}
			callee := funcDecl(pass, fn)
			if callee == nil || callee.Body == nil || inlCost(pass, callee) <= 80 {
				return
			}
			sig := fn.Type().(*types.Signature)
			for i, arg := range call.Args {
				if i >= sig.Params().Len() || sig.Variadic() && i >= sig.Params().Len()-1 {
					break
				}
				pt := sig.Params().At(i).Type()
				lit, ok := ast.Unparen(arg).(*ast.CompositeLit)
				if !ok || !types.IsInterface(pt) {
					continue
				}
				st, ok := pass.TypesInfo.TypeOf(lit).Underlying().(*types.Struct)
				if !ok || st.NumFields() == 0 || invariantLiteral(pass, lit, nil) {
					// The same value on every call: literal-boxed
					// says convert it once.
					continue
				}
				qual := func(p *types.Package) string {
					if p == pass.Pkg {
						return ""
					}
					return p.Name()
				}
				tn := types.TypeString(pass.TypesInfo.TypeOf(lit), qual)
				param := sig.Params().At(i).Name()
				pass.Report(analysis.Diagnostic{
					Category: "boxed-for-call",
					Pos:      lit.Pos(),
					Message: fmt.Sprintf("%s passes a %s literal to %s's %s parameter %s, an interface: %s is too large to inline (about %d by the compiler's measure), so the value escapes and is allocated on every call to carry its fields to %s",
						fd.Name.Name, tn, fn.Name(), types.TypeString(pt, qual), param, fn.Name(), inlCost(pass, callee), fn.Name()),
					Related: []analysis.RelatedInformation{{Pos: callee.Name.Pos(), Message: "the callee"}},
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"call what %s does with %s on the %s itself here (its methods are the concrete type's, which the compiler can see through), or a helper that takes the concrete type (a type parameter: check with go build -gcflags=-m that the value stays on the stack); %s keeps its signature for callers with other types",
						fn.Name(), param, tn, fn.Name())}},
				})
			}
		})
	})
	return nil, nil
}
