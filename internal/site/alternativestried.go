package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"
)

// AlternativesTried finds a loop that tries another package's function
// on each alternative until one returns no error, and drops the errors
// of the ones that fail (a date parser trying two dozen layouts with
// time.Parse):
//
//	for _, format := range formats {
//		if d, e = time.Parse(format.Format, s); e == nil {
//			return
//		}
//	}
//
// Each alternative that fails first does its work up to the failure and
// builds an error (time.Parse's *ParseError quotes the layout and the
// value) that nobody reads. The function's error is not the module's to
// change; which alternatives it is called on is: a cheap test of the
// input rejects the ones that cannot match.
var AlternativesTried = &analysis.Analyzer{
	Name: "alternativestried",
	Doc:  "a loop calling another package's function on each alternative until one succeeds, dropping the errors of the rest",
	Run:  runAlternativesTried,
}

func runAlternativesTried(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			var body *ast.BlockStmt
			var over string
			switch x := n.(type) {
			case *ast.RangeStmt:
				body, over = x.Body, oneLine(types.ExprString(x.X))
			default:
				return
			}
			inspectBody(body, func(n ast.Node) {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
					return
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok {
					return
				}
				fn, ok := typeutil.Callee(pass.TypesInfo, call).(*types.Func)
				if !ok || fn.Pkg() == nil || fn.Pkg() == pass.Pkg {
					return // the module's own function: error-per-alternative
				}
				v := objOf(pass, as.Lhs[len(as.Lhs)-1])
				if v == nil || !isErrorType(v.Type()) || !droppedInLoop(pass, body, v) || !leavesOnSuccess(pass, body, v) {
					return
				}
				name := fn.Pkg().Name() + "." + fn.Name()
				if sig, ok := fn.Type().(*types.Signature); ok && sig.Recv() != nil {
					name = fn.Name()
				}
				pass.Report(analysis.Diagnostic{
					Category: "alternatives-tried",
					Pos:      call.Pos(),
					Message: fmt.Sprintf("%s tries %s on each of %s in turn until one returns no error: every alternative that fails first runs %s up to its failure and builds an error that is dropped",
						fd.Name.Name, name, over, name),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("reject the alternatives that cannot match with a cheap test of the input before calling %s (its length, the bytes at the alternative's fixed positions: a digit or a letter, a separator), keeping their order, so that %s runs only on candidates that can succeed", name, name)}},
				})
			})
		})
	}
	return nil, nil
}

// leavesOnSuccess reports whether the loop returns or breaks when the
// error v is nil: the first alternative that succeeds ends it.
func leavesOnSuccess(pass *analysis.Pass, body *ast.BlockStmt, v types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		is, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		b, ok := ast.Unparen(is.Cond).(*ast.BinaryExpr)
		if !ok || b.Op.String() != "==" {
			return true
		}
		x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
		if isObj(pass, x, v) && isNil(pass, y) || isObj(pass, y, v) && isNil(pass, x) {
			found = leaves(is.Body.List)
		}
		return !found
	})
	return found
}
