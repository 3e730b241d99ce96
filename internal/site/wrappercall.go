package site

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// WrapperCall finds a function whose body is one call of another of the
// package's functions, its result handed back (`v, _ := ToIntE(i);
// return v`, `return f(x)`): when the compiler does not inline it, it is
// because the callee was inlined into it; inlining the wrapper in turn
// would only move that call, so its budget is no handle.
var WrapperCall = &analysis.Analyzer{
	Name: "wrappercall",
	Doc:  "a function whose body is one call of the package's own function, its result handed back",
	Run:  runWrapperCall,
}

func runWrapperCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var call *ast.CallExpr
		switch len(fd.Body.List) {
		case 1: // return f(x)
			ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
			if !ok || len(ret.Results) != 1 {
				return
			}
			call, _ = ast.Unparen(ret.Results[0]).(*ast.CallExpr)
		case 2: // v, _ := f(x); return v
			as, ok := fd.Body.List[0].(*ast.AssignStmt)
			ret, ok2 := fd.Body.List[1].(*ast.ReturnStmt)
			if !ok || !ok2 || len(as.Rhs) != 1 || len(ret.Results) != 1 {
				return
			}
			if v := identOf(as.Lhs[0]); v == nil || !isObj(pass, ret.Results[0], pass.TypesInfo.ObjectOf(v)) {
				return
			}
			call, _ = ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		}
		if call == nil {
			return
		}
		callee := calleeFunc(pass, call)
		if callee == nil || callee.Pkg() != pass.Pkg {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category:       "wrapper-call",
			Pos:            fd.Pos(),
			Message:        fmt.Sprintf("%s is one call of %s, its result handed back: when the compiler does not inline %s, it is because %s was inlined into it", fd.Name.Name, callee.Name(), fd.Name.Name, callee.Name()),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("inlining %s would only move the call of %s to its callers: its inlining budget is no handle; what %s costs is %s's", fd.Name.Name, callee.Name(), fd.Name.Name, callee.Name())}},
		})
	})
	return nil, nil
}
