package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// LatencyMeasured finds the two clock reads that measure how long an
// operation took: start := time.Now() (or a clock function the package
// keeps, now()), then time.Since(start) or now().Sub(start). A latency
// needs a read at each end: the reads are the function's own work, not
// a clock read once per operation too many.
var LatencyMeasured = &analysis.Analyzer{
	Name: "latencymeasured",
	Doc:  "a clock read at the start of an operation and one at its end, to measure its latency",
	Run:  runLatencyMeasured,
}

func runLatencyMeasured(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		starts := map[*types.Var]*ast.CallExpr{}
		inspectBody(body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !clockRead(pass, call) {
				return
			}
			if v, ok := objOf(pass, as.Lhs[0]).(*types.Var); ok {
				starts[v] = call
			}
		})
		if len(starts) == 0 {
			return
		}
		inspectBody(body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return
			}
			v, ok := objOf(pass, call.Args[0]).(*types.Var)
			start := starts[v]
			if !ok || start == nil {
				return
			}
			var end *ast.CallExpr
			switch {
			case isFunc(pass, call, "time", "", "Since"):
				end = call
			default:
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Sub" {
					return
				}
				if c, ok := ast.Unparen(sel.X).(*ast.CallExpr); ok && clockRead(pass, c) {
					end = c
				}
			}
			if end == nil {
				return
			}
			msg := fmt.Sprintf("%s and %s read the clock at the start and the end of the operation: its latency, measured", oneLine(types.ExprString(start)), oneLine(types.ExprString(end)))
			advice := "a latency needs a read at each end: the function's own work, with nothing to read less; " + ownWorkWords
			for _, at := range []*ast.CallExpr{start, end} {
				pass.Report(analysis.Diagnostic{
					Category:       "latency-measured" + ownWork,
					Pos:            at.Pos(),
					Message:        msg,
					SuggestedFixes: []analysis.SuggestedFix{{Message: advice}},
				})
			}
		})
	})
	return nil, nil
}

// clockRead reports whether call reads the clock: time.Now(), or a call
// of a func() time.Time value (a clock the package keeps, for tests).
func clockRead(pass *analysis.Pass, call *ast.CallExpr) bool {
	if len(call.Args) != 0 {
		return false
	}
	if isFunc(pass, call, "time", "", "Now") {
		return true
	}
	sig, ok := pass.TypesInfo.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || calledFunc(pass, call) != nil {
		return false
	}
	return isNamed(sig.Results().At(0).Type(), "time", "Time")
}
