package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TickerSelect finds a select that waits on a ticker's or a timer's
// channel (case <-s.ticker.C, case <-time.After(d)): a background loop
// that sleeps between ticks (zap's BufferedWriteSyncer.flushLoop). A
// block profile puts its sleep at the select; nothing waits on anything
// another goroutine holds.
var TickerSelect = &analysis.Analyzer{
	Name: "tickerselect",
	Doc:  "a select that waits on a ticker's or a timer's channel",
	Run:  runTickerSelect,
}

func runTickerSelect(pass *analysis.Pass) (any, error) {
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			sel, ok := n.(*ast.SelectStmt)
			if !ok {
				return
			}
			for _, c := range sel.Body.List {
				cc, ok := c.(*ast.CommClause)
				if !ok || cc.Comm == nil {
					continue
				}
				var recv ast.Expr
				switch s := cc.Comm.(type) {
				case *ast.ExprStmt:
					recv = s.X
				case *ast.AssignStmt:
					if len(s.Rhs) == 1 {
						recv = s.Rhs[0]
					}
				}
				u, ok := ast.Unparen(recv).(*ast.UnaryExpr)
				if !ok || u.Op.String() != "<-" || !timeChannel(pass, u.X) {
					continue
				}
				pass.Report(analysis.Diagnostic{
					Category:       "ticker-select",
					Pos:            sel.Pos(),
					Message:        fmt.Sprintf("%s waits here for %s: a background loop sleeping between ticks, not a goroutine waiting on another", fd.Name.Name, text(pass, u.X)),
					SuggestedFixes: []analysis.SuggestedFix{{Message: "its wait is the interval it was given: time off the CPU by design, nothing to shorten"}},
				})
				return
			}
		})
	}
	return nil, nil
}

// timeChannel reports whether e is a time.Ticker's or time.Timer's C, or
// a call of time.After or time.Tick.
func timeChannel(pass *analysis.Pass, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return false
		}
		t := pass.TypesInfo.TypeOf(x.X)
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && (n.Obj().Name() == "Ticker" || n.Obj().Name() == "Timer")
	case *ast.CallExpr:
		fn := calledFunc(pass, x)
		return fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "time" && (fn.Name() == "After" || fn.Name() == "Tick")
	}
	return false
}
