package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

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
				if !inLoop(fd.Body, sel.Pos()) {
					// One wait with a timeout, once per call: a
					// timer made for it when it is time.After.
					if call, ok := ast.Unparen(u.X).(*ast.CallExpr); ok && len(sel.Body.List) > 1 {
						timeoutPerCall(pass, fd, call)
					}
					pass.Report(analysis.Diagnostic{
						Category:       "ticker-select",
						Pos:            sel.Pos(),
						Message:        fmt.Sprintf("%s waits here for %s or its other cases: one wait with a timeout, not a goroutine waiting on another", fd.Name.Name, text(pass, u.X)),
						SuggestedFixes: []analysis.SuggestedFix{{Message: "its wait is the timeout it was given, or the event it waits for: time off the CPU by design, nothing to shorten"}},
					})
					return
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

// inLoop reports whether pos is inside a for or range statement of body
// (not counting function literals' loops around it).
func inLoop(body *ast.BlockStmt, pos token.Pos) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch l := n.(type) {
		case *ast.FuncLit:
			return !(l.Pos() <= pos && pos < l.End()) // a literal around pos starts afresh
		case *ast.ForStmt, *ast.RangeStmt:
			if l.Pos() <= pos && pos < l.End() {
				found = true
			}
		}
		return !found
	})
	return found
}

// timeoutPerCall reports a select's timeout made with time.After once per
// call of a function that is no loop (yamux's Ping: case
// <-time.After(s.config.ConnectionWriteTimeout)): a timer and its
// channel made for every call, about four allocations, whether it fires
// or not. A timer the function stops when the wait ends, or one kept and
// Reset (a pool of them, where the package keeps one), makes none.
func timeoutPerCall(pass *analysis.Pass, fd *ast.FuncDecl, call *ast.CallExpr) {
	fn := calledFunc(pass, call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "time" || fn.Name() != "After" {
		return
	}
	fix := "take a timer the package keeps (a sync.Pool of *time.Timer, Reset to the timeout and stopped when the wait ends), or keep one in the value and Reset it per call: no timer and channel made per call"
	if pool := timerPoolVar(pass); pool != "" {
		fix = fmt.Sprintf("take a timer from %s, the package's own pool of timers (Reset to the timeout, stopped and drained when the wait ends, put back): no timer and channel made per call", pool)
	}
	pass.Report(analysis.Diagnostic{
		Category:       "timeout-per-call",
		Pos:            call.Pos(),
		Message:        fmt.Sprintf("%s waits with %s as its timeout, once per call: time.After makes a timer and its channel on every call, whether it fires or not", fd.Name.Name, oneLine(text(pass, call))),
		SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
	})
}

// timerPoolVar returns the name of a package-level sync.Pool whose New
// makes a *time.Timer, or "".
func timerPoolVar(pass *analysis.Pass) string {
	name := ""
	eachPackageVar(pass, func(v *types.Var, value ast.Expr) {
		if name != "" {
			return
		}
		found := false
		ast.Inspect(value, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok && isFunc(pass, c, "time", "", "NewTimer") {
				found = true
			}
			return !found
		})
		if found && strings.Contains(types.TypeString(v.Type(), nil), "sync.Pool") {
			name = v.Name()
		}
	})
	return name
}
