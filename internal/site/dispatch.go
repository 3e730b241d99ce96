package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// InterfaceDispatch finds a function or func literal whose whole body is
// one call of a method through an interface (return a.Less(b)): every
// call of it is a dynamic call the compiler cannot inline. Where a profile
// finds it hot, the cost is the interface-based API's; a type parameter
// over the concrete type, or a func of that type, lets the compiler call
// the method directly.
var InterfaceDispatch = &analysis.Analyzer{
	Name: "interfacedispatch",
	Doc:  "a function whose whole body calls a method through an interface",
	Run:  runInterfaceDispatch,
}

func runInterfaceDispatch(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch x := n.(type) {
			case *ast.FuncDecl:
				body = x.Body
			case *ast.FuncLit:
				body = x.Body
			}
			if body == nil || len(body.List) != 1 {
				return true
			}
			var call *ast.CallExpr
			switch st := body.List[0].(type) {
			case *ast.ReturnStmt:
				if len(st.Results) == 1 {
					call, _ = ast.Unparen(st.Results[0]).(*ast.CallExpr)
				}
			case *ast.ExprStmt:
				call, _ = ast.Unparen(st.X).(*ast.CallExpr)
			}
			if call == nil {
				return true
			}
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok {
				return true
			}
			s, ok := pass.TypesInfo.Selections[sel]
			if !ok || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
				return true
			}
			iface := types.TypeString(s.Recv(), types.RelativeTo(pass.Pkg))
			if _, named := types.Unalias(s.Recv()).(*types.Named); !named {
				iface = "an interface"
			} else {
				iface = "the " + iface + " interface"
			}
			pass.Report(analysis.Diagnostic{
				Category:       "interface-dispatch",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s, the function's whole body, calls %s through %s: a dynamic call on every call, which the compiler cannot inline", oneLine(types.ExprString(call)), sel.Sel.Name, iface),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "inherent to an interface-based API: a type parameter over the concrete type (a generic version of the API) or a func of that type lets the compiler call it directly; PGO devirtualizes the call when one concrete type dominates the profile"}},
			})
			return true
		})
	}
	return nil, nil
}
