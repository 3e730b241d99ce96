package site

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// ErrorPanic finds a function that reports an error by panicking, in a
// package that recovers it (a parser's failf, caught by the entry point's
// deferred recover): the CPU under runtime.gopanic there is the error
// path's unwinding, which costs with the depth of the stack it unwinds
// (a parser deep in recursion), once per failed call. A benchmark that
// spends it measures inputs that fail: nothing to cache, and the error
// path's own price (yaml.v3's depth-limit benchmarks).
var ErrorPanic = &analysis.Analyzer{
	Name: "errorpanic",
	Doc:  "a function that reports an error by a panic the package recovers",
	Run:  runErrorPanic,
}

func runErrorPanic(pass *analysis.Pass) (any, error) {
	var recovers ast.Node
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && recovers == nil && isBuiltin(pass, c.Fun, "recover") {
				recovers = c
			}
			return recovers == nil
		})
	}
	if recovers == nil {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if len(fd.Body.List) == 0 {
			return
		}
		es, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ExprStmt)
		if !ok {
			return
		}
		c, ok := es.X.(*ast.CallExpr)
		if !ok || !isBuiltin(pass, c.Fun, "panic") {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category: "error-panic" + ownWork,
			Pos:      c.Pos(),
			Message: fmt.Sprintf("%s reports an error by panicking, and the package recovers it (%s): the time under runtime.gopanic is the error path unwinding the stack to the recover, more the deeper the call that fails",
				fd.Name.Name, where(pass, recovers)),
			Related:        []analysis.RelatedInformation{{Pos: recovers.Pos(), Message: "the recover"}},
			SuggestedFixes: []analysis.SuggestedFix{{Message: "a benchmark that spends it measures inputs that fail, once per failed call: the error path's own price, with no result to cache; returning errors up the stack instead of panicking is a redesign of the package's error handling, worth it only where failing inputs are the common case"}},
		})
	})
	return nil, nil
}
