package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// LinknameCall finds a call of a function the package declares without
// a body and binds to the runtime with //go:linkname:
//
//	//go:linkname mapiterinit runtime.mapiterinit
//	func mapiterinit(t unsafe.Pointer, m unsafe.Pointer, it *hiter)
//	…
//	mapiterinit(t, m, &it.hiter)
//
// segmentio/encoding's runtime_reflect (both hand analyses: leave it). The
// compiler says nothing of what such a call allocates: the allocation is
// the runtime's. Since Go 1.24 the runtime keeps mapiterinit for
// linknamed callers as a compatibility shim that allocates the map
// iterator (runtime/linkname_shim.go) on every call.
var LinknameCall = &analysis.Analyzer{
	Name: "linknamecall",
	Doc:  "a call of a runtime function bound with //go:linkname: what it allocates is the runtime's",
	Run:  runLinknameCall,
}

func runLinknameCall(pass *analysis.Pass) (any, error) {
	linked := map[*types.Func]string{} // bodyless declaration → runtime target
	for _, f := range pass.Files {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				fields := strings.Fields(strings.TrimPrefix(c.Text, "//go:linkname "))
				if !strings.HasPrefix(c.Text, "//go:linkname ") || len(fields) != 2 || !strings.HasPrefix(fields[1], "runtime.") {
					continue
				}
				if fn, ok := pass.Pkg.Scope().Lookup(fields[0]).(*types.Func); ok {
					if fd := funcDecl(pass, fn); fd != nil && fd.Body == nil {
						linked[fn] = fields[1]
					}
				}
			}
		}
	}
	if len(linked) == 0 {
		return nil, nil
	}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calledFunc(pass, call)
			target, ok := linked[fn]
			if !ok {
				return
			}
			says := fmt.Sprintf("%s calls %s through //go:linkname (%s, line %d): what it allocates is the runtime's, which no compiler diagnostic of this package explains",
				text(pass, call), target, fn.Name(), pass.Fset.Position(fn.Pos()).Line)
			advice := fmt.Sprintf("the allocation is %s's own: nothing to change at this line; a change is to stop calling the runtime's internals (the reflect package's exported API does the same work) — measure it before making it", target)
			if target == "runtime.mapiterinit" {
				says += "; since Go 1.24 the runtime keeps mapiterinit for linknamed callers as a compatibility shim that allocates the map iterator on every call (runtime/linkname_shim.go), one allocation per map walked"
			}
			pass.Report(analysis.Diagnostic{Category: "linkname-call" + ownWork, Pos: call.Pos(), Message: says,
				SuggestedFixes: []analysis.SuggestedFix{{Message: advice + "; " + ownWorkWords}}})
		})
	})
	return nil, nil
}
