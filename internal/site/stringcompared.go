package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// StringCompared finds two values compared through a method of the
// module's that builds their text (v.String() == other.String()): each
// side formats its value anew, on every comparison, only for the two
// strings to be compared and dropped. hashicorp/go-version's Compare
// tests equality this way first ("a quick, efficient equality check"):
// String runs bytes, a strconv.AppendInt per segment into a slice grown
// from nil, for both versions — 79% of BenchmarkCompareVersionV1. The
// fields the text is built from compare without building anything.
var StringCompared = &analysis.Analyzer{
	Name: "stringcompared",
	Doc:  "two values compared by the text a method builds for each",
	Run:  runStringCompared,
}

func runStringCompared(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			be, ok := n.(*ast.BinaryExpr)
			if !ok || be.Op != token.EQL && be.Op != token.NEQ {
				return
			}
			x, y := builtText(pass, be.X), builtText(pass, be.Y)
			if x == nil || y == nil || x.fn != y.fn {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "string-compared",
				Pos:      be.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: x.decl.Pos(), Message: fmt.Sprintf("%s builds the text (%s)", x.fn.Name(), x.how)}},
				Message: fmt.Sprintf("%s compares %s with %s: %s builds each text anew (%s) on every call, only for the two strings to be compared and dropped",
					fd.Name.Name, types.ExprString(be.X), types.ExprString(be.Y), x.fn.Name(), x.how),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"compare the fields %s is built from, directly (or drop the test where the comparison after it decides the same): no string is built, and the values that differ stop at their first differing field", x.fn.Name())}},
			})
		})
	})
	return nil, nil
}

// textCall is a call of a method of the package's own that returns a
// string it builds.
type textCall struct {
	fn   *types.Func
	decl *ast.FuncDecl
	how  string
}

// builtText returns e as a call of a method of this package that takes
// no argument and returns a string its body builds (not a field or a
// constant it returns as is), or nil.
func builtText(pass *analysis.Pass, e ast.Expr) *textCall {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() != pass.Pkg {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
		return nil
	}
	fd := funcDecl(pass, fn)
	if fd == nil || fd.Body == nil || len(fd.Body.List) == 0 {
		return nil
	}
	ret, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil
	}
	inner, ok := ast.Unparen(ret.Results[0]).(*ast.CallExpr)
	if !ok {
		return nil // a field, a variable or a literal: nothing built here
	}
	return &textCall{fn: fn, decl: fd, how: oneLine(types.ExprString(inner))}
}
