package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
)

// TimeoutSet finds a benchmark that sets a timeout to a constant before
// or inside its loop: a field or variable of type time.Duration named for
// a timeout or a deadline given a constant above zero
// (dmp.DiffTimeout = time.Second), or a context.WithTimeout of one. A
// call that stops when its time runs out takes the timeout whatever its
// speed: when the benchmark's time per op is the timeout, it measures the
// clock, and a faster implementation only does more work in the same
// time (go-diff's BenchmarkDiffMain: 1.017 s/op at its 1 s DiffTimeout,
// 0.268 s at 250 ms, measured by hand). The shape says only what the code
// sets; the report compares it with the time measured.
var TimeoutSet = &analysis.Analyzer{
	Name: "timeoutset",
	Doc:  "a benchmark that sets a constant timeout for the calls it measures",
	Run:  runTimeoutSet,
}

// TimeoutNote is the note of a timeout-set shape's related location at
// the constant: the note, then the timeout as time.Duration prints it.
const TimeoutNote = "the timeout: "

func runTimeoutSet(pass *analysis.Pass) (any, error) {
	eachBenchmark(pass, func(fd *ast.FuncDecl) {
		reported := false
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if reported {
				return false
			}
			var what string
			var val ast.Expr
			switch x := n.(type) {
			case *ast.AssignStmt:
				if len(x.Lhs) != 1 || len(x.Rhs) != 1 {
					return true
				}
				what, val = timeoutName(pass, x.Lhs[0]), x.Rhs[0]
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok {
					if v, _ := pass.TypesInfo.Uses[id].(*types.Var); v != nil && v.IsField() && timeoutWord(v.Name()) {
						what, val = v.Name(), x.Value
					}
				}
			case *ast.CallExpr:
				if fn := calledFunc(pass, x); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "context" && fn.Name() == "WithTimeout" && len(x.Args) == 2 {
					what, val = "the context's timeout", x.Args[1]
				}
			}
			if what == "" || val == nil {
				return true
			}
			d, ok := durationConst(pass, val)
			if !ok || d <= 0 {
				return true
			}
			reported = true
			pass.Report(analysis.Diagnostic{
				Category: "timeout-set",
				Pos:      n.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: val.Pos(), Message: TimeoutNote + d.String()}},
				Message:  fmt.Sprintf("%s sets %s to %s, a constant: a call that stops when its time runs out takes that long whatever its speed", fd.Name.Name, what, d),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"give it a timeout its input never reaches (or none, where zero means none), or an input that finishes well within %s, so that ns/op measures the work, not the clock", d)}},
			})
			return false
		})
	})
	return nil, nil
}

// timeoutName returns the text of e when it names a time.Duration field
// or variable for a timeout or a deadline, or "".
func timeoutName(pass *analysis.Pass, e ast.Expr) string {
	var name string
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		name = x.Name
	case *ast.SelectorExpr:
		name = x.Sel.Name
	default:
		return ""
	}
	if !timeoutWord(name) || !isDuration(pass.TypesInfo.TypeOf(e)) {
		return ""
	}
	return types.ExprString(e)
}

func timeoutWord(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "timeout") || strings.Contains(l, "deadline")
}

func isDuration(t types.Type) bool {
	n, _ := types.Unalias(t).(*types.Named)
	return n != nil && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && n.Obj().Name() == "Duration"
}

// durationConst returns the value of a constant duration expression.
func durationConst(pass *analysis.Pass, e ast.Expr) (time.Duration, bool) {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || !isDuration(tv.Type) {
		return 0, false
	}
	v, exact := constant.Int64Val(constant.ToInt(tv.Value))
	if !exact {
		return 0, false
	}
	return time.Duration(v), true
}
