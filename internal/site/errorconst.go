package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ErrorConst finds errors.New of a constant text in a return statement
// (`return uuid, errors.New("invalid UUID format")`): every failure
// allocates a new error whose text never changes. One error value made
// once (a package-level var, which callers can also compare with
// errors.Is) costs nothing per call; the text stays the same.
// A custom error type's literal whose fields are all constants
// (`return -1, &queueError{"Full queue. Maximum size limit reached."}`,
// bigcache's BytesQueue.Push on every insert into a full queue) is the
// same: one value made once.
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
				if lit := constErrorLit(pass, e); lit != "" {
					pass.Report(analysis.Diagnostic{
						Category: "error-constant",
						Pos:      e.Pos(),
						Message:  fmt.Sprintf("%s returns %s on this path: a new error whose fields are constants, allocated every time the path is taken", fd.Name.Name, lit),
						SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
							"make it once, a package-level var (var errX = %s), and return that: no allocation each time, the same error, and callers can test it with errors.Is", lit)}},
					})
					continue
				}
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

// constErrorLit returns the text of &T{…} when T's pointer is an error and
// every field the literal sets is a constant (&queueError{"Full queue."}),
// or "".
func constErrorLit(pass *analysis.Pass, e ast.Expr) string {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return ""
	}
	lit, ok := ast.Unparen(u.X).(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return ""
	}
	t := pass.TypesInfo.TypeOf(u)
	errType, _ := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	if t == nil || errType == nil || !types.Implements(t, errType) {
		return ""
	}
	var elts []string
	for _, el := range lit.Elts {
		v := el
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			v = kv.Value
		}
		if pass.TypesInfo.Types[v].Value == nil {
			return ""
		}
		elts = append(elts, types.ExprString(el))
	}
	return oneLine(fmt.Sprintf("&%s{%s}", types.ExprString(lit.Type), strings.Join(elts, ", ")))
}
