package site

import (
	"fmt"
	"go/ast"
	"strconv"

	"golang.org/x/tools/go/analysis"
)

// ErrorConst finds errors.New of a constant text in a return statement
// (`return uuid, errors.New("invalid UUID format")`): every failure
// allocates a new error whose text never changes. One error value made
// once (a package-level var, which callers can also compare with
// errors.Is) costs nothing per call; the text stays the same.
var ErrorConst = &analysis.Analyzer{
	Name: "errorconst",
	Doc:  "errors.New of a constant text in a return statement: an allocation per failure for an error that never changes",
	Run:  runErrorConst,
}

func runErrorConst(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok {
				return
			}
			for _, e := range ret.Results {
				call, ok := ast.Unparen(e).(*ast.CallExpr)
				if !ok || len(call.Args) != 1 || !isFunc(pass, call, "errors", "", "New") {
					continue
				}
				tv := pass.TypesInfo.Types[call.Args[0]]
				if tv.Value == nil {
					continue // a text built per call
				}
				text, _ := strconv.Unquote(tv.Value.ExactString())
				pass.Report(analysis.Diagnostic{
					Category: "error-constant",
					Pos:      call.Pos(),
					Message:  fmt.Sprintf("%s returns errors.New(%q) on this path: a new error, with a text that never changes, allocated on every failure", fd.Name.Name, text),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"make it once, a package-level var (var errX = errors.New(%q)), and return that: no allocation per failure, the same text, and callers can test it with errors.Is", text)}},
				})
			}
		})
	})
	return nil, nil
}
