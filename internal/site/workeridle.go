package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// WorkerIdle finds where a goroutine the package starts waits for its
// next piece of work: the loop of a worker (for fn := range w.task in
// the func literal ants' goWorker.run starts), or a select or receive
// in the endless loop of a function started with go whose cases only
// receive. A block profile puts a parked worker's idle time there:
// nothing to do yet, not goroutines waiting on a lock another holds.
var WorkerIdle = &analysis.Analyzer{
	Name: "workeridle",
	Doc:  "a goroutine the package starts waiting for its next piece of work",
	Run:  runWorkerIdle,
}

func runWorkerIdle(pass *analysis.Pass) (any, error) {
	// The functions started with go: func literals, and the package's
	// functions and methods named in a go statement.
	started := map[*types.Func]token.Pos{}
	var lits []*ast.FuncLit
	for fd := range funcDecls(pass) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			g, ok := n.(*ast.GoStmt)
			if !ok {
				return true
			}
			if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
				lits = append(lits, lit)
			} else if fn := calledFunc(pass, g.Call); fn != nil && fn.Pkg() == pass.Pkg {
				if _, ok := started[fn]; !ok {
					started[fn] = g.Pos()
				}
			}
			return true
		})
	}
	// A started function that only runs another of the package's (go
	// s.send(), whose body is `if err := s.sendLoop(); …`): that one is
	// the goroutine's loop.
	for fd := range funcDecls(pass) {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		at, isStarted := started[fn]
		if !ok || !isStarted || len(fd.Body.List) != 1 {
			continue
		}
		ast.Inspect(fd.Body.List[0], func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if inner := calledFunc(pass, call); inner != nil && inner.Pkg() == pass.Pkg {
					if _, seen := started[inner]; !seen {
						started[inner] = at
					}
				}
			}
			return true
		})
	}
	fields := map[*types.Var]int{} // a worker's task channel field → the line it waits at
	for _, lit := range lits {
		idleWaits(pass, "the goroutine", lit.Body, fields)
	}
	for fd := range funcDecls(pass) {
		fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if at, isStarted := started[fn]; ok && isStarted {
			idleWaits(pass, fd.Name.Name, fd.Body, fields)
			goroutineSetup(pass, fd, at)
		}
	}
	// An exported method that blocks its caller until the next event
	// arrives (yamux's AcceptStream: a select on s.acceptCh and the
	// session's shutdown): the wait is the API's, paced by whoever
	// sends.
	for fd := range funcDecls(pass) {
		if !fd.Name.IsExported() || fd.Recv == nil || len(fd.Body.List) != 1 {
			continue
		}
		sel, ok := fd.Body.List[0].(*ast.SelectStmt)
		if !ok {
			continue
		}
		if ch := receivesOnly(sel); ch != nil && chanField(pass, ch) != nil {
			pass.Report(analysis.Diagnostic{
				Category:       "api-wait" + ownWork,
				Pos:            sel.Pos(),
				Message:        fmt.Sprintf("%s waits here for %s: the call blocks its caller until the next one arrives, as the API says — a wait paced by whoever sends, not goroutines contending", fd.Name.Name, text(pass, ch)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "the wait is the caller's by design: time off the CPU until the event comes, nothing to shorten here"}},
			})
		}
	}
	// The sends that hand a worker its tasks (w.task <- fn): the other
	// half of the hand-off.
	for fd := range funcDecls(pass) {
		inspectBody(fd.Body, func(n ast.Node) {
			send, ok := n.(*ast.SendStmt)
			if !ok {
				return
			}
			f := chanField(pass, send.Chan)
			line, ok := fields[f]
			if !ok || f == nil {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "worker-idle" + ownWork,
				Pos:            send.Pos(),
				Message:        fmt.Sprintf("%s hands a task to a worker through %s, the channel its goroutine waits on (line %d)", fd.Name.Name, text(pass, send.Chan), line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: handOff}},
			})
		})
	}
	return nil, nil
}

// handOff is the advice at both ends of a worker's task channel.
const handOff = "handing each task over a channel to a parked goroutine, and waking it, is what a worker pool does: its block-profile wait is idle time and its CPU the hand-off itself; nothing to change short of handing tasks over in batches, which changes what the pool's API promises"

// idleWaits reports the loops of a goroutine's body (its own, not its
// func literals') that wait for work: a range over a channel, and in an
// endless loop a receive statement or a select whose cases all receive.
func idleWaits(pass *analysis.Pass, who string, body *ast.BlockStmt, fields map[*types.Var]int) {
	inspectBody(body, func(n ast.Node) {
		switch l := n.(type) {
		case *ast.RangeStmt:
			if _, ok := pass.TypesInfo.TypeOf(l.X).Underlying().(*types.Chan); ok {
				reportIdle(pass, l.Pos(), who, text(pass, l.X))
				if f := chanField(pass, l.X); f != nil {
					fields[f] = pass.Fset.Position(l.Pos()).Line
				}
			}
		case *ast.ForStmt:
			if l.Cond != nil {
				return
			}
			for _, s := range l.Body.List {
				if ch := receivesOnly(s); ch != nil {
					reportIdle(pass, s.Pos(), who, text(pass, ch))
					return
				}
			}
		}
	})
}

// receivesOnly returns the channel a statement waits to receive from (a
// receive, or the first of a select whose cases all receive), or nil.
func receivesOnly(s ast.Stmt) ast.Expr {
	switch s := s.(type) {
	case *ast.SelectStmt:
		var first ast.Expr
		for _, c := range s.Body.List {
			cc, ok := c.(*ast.CommClause)
			if !ok {
				return nil
			}
			if cc.Comm == nil {
				return nil // a default: the select never waits
			}
			ch := received(cc.Comm)
			if ch == nil {
				return nil
			}
			if first == nil {
				first = ch
			}
		}
		return first
	default:
		return received(s)
	}
}

// received is the channel a receive statement (<-ch, v := <-ch,
// v, ok = <-ch) receives from, or nil.
func received(s ast.Stmt) ast.Expr {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op.String() == "<-" {
		return u.X
	}
	return nil
}

func reportIdle(pass *analysis.Pass, pos token.Pos, who, ch string) {
	pass.Report(analysis.Diagnostic{
		Category:       "worker-idle" + ownWork,
		Pos:            pos,
		Message:        fmt.Sprintf("%s waits here for its next piece of work from %s: a worker parked between tasks, not a goroutine waiting on another", who, ch),
		SuggestedFixes: []analysis.SuggestedFix{{Message: handOff}},
	})
}

// goroutineSetup reports the statements a function the package starts as
// a goroutine runs before its first loop that call something (ants'
// purgeStaleWorkers: ticker := time.NewTicker(…), then its select loop):
// they run once per start — once per pool — not per operation.
func goroutineSetup(pass *analysis.Pass, fd *ast.FuncDecl, at token.Pos) {
	if !hasLoop(fd.Body) {
		// No loop: the goroutine is one wait, started per call of
		// whoever starts it, not a worker set up once.
		timerWaiter(pass, fd, at)
		return
	}
	for _, st := range fd.Body.List {
		switch st.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			return
		}
		calls := false
		ast.Inspect(st, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && !isConversion(pass, c) {
				calls = true
			}
			return !calls
		})
		if !calls {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Category:       "goroutine-setup" + ownWork,
			Pos:            st.Pos(),
			Message:        fmt.Sprintf("%s runs as a goroutine the package starts (line %d), and this line runs once per start, before its loop", fd.Name.Name, pass.Fset.Position(at).Line),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "what it makes here is made once per goroutine started, not per operation: a benchmark that starts them in its timed loop (a pool made per iteration) counts the starts"}},
		})
	}
}

// hasLoop reports whether body has a for or range statement outside
// its function literals.
func hasLoop(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		}
		return !found
	})
	return found
}

// timerWaiter reports a goroutine the package starts (at) that makes a
// timer and waits once, in a select, for it or for the channels that
// say it is no longer needed (yamux's setOpenTimeout, started by
// OpenStream for every stream: time.NewTimer, then a select on the
// stream's establishCh, the session's shutdownCh and the timer): a
// goroutine, its stack, a timer and its channel per start, to run one
// function if the time passes first. time.AfterFunc runs it on the
// timer's own goroutine, and Stop where the wait would end cancels it.
func timerWaiter(pass *analysis.Pass, fd *ast.FuncDecl, at token.Pos) {
	var timer *ast.CallExpr
	var sel *ast.SelectStmt
	var others []string
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if timer == nil && (isFunc(pass, x, "time", "", "NewTimer") || isFunc(pass, x, "time", "", "After")) {
				timer = x
			}
		case *ast.SelectStmt:
			if sel == nil {
				sel = x
			}
		}
		return true
	})
	if timer == nil || sel == nil {
		return
	}
	for _, st := range sel.Body.List {
		cc := st.(*ast.CommClause)
		if cc.Comm == nil {
			return // a default: no wait
		}
		ch := received(cc.Comm)
		if ch == nil {
			return // a send: not a wait for an end
		}
		if t := oneLine(text(pass, ch)); !strings.HasSuffix(t, ".C") && !strings.HasPrefix(t, "time.After") {
			others = append(others, t)
		}
	}
	if len(others) == 0 {
		return
	}
	pass.Report(analysis.Diagnostic{
		Category: "timer-goroutine",
		Pos:      timer.Pos(),
		Message: fmt.Sprintf("%s runs as a goroutine started at line %d on every call there, and only waits: %s, then a select on %s and the timer — a goroutine and its stack, a timer and its channel per start, to act if the time passes first",
			fd.Name.Name, pass.Fset.Position(at).Line, oneLine(text(pass, timer)), strings.Join(others, ", ")),
		Related:        []analysis.RelatedInformation{{Pos: at, Message: "the goroutine started"}},
		SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("start no goroutine: time.AfterFunc runs the timeout's work on the timer's own goroutine when it fires, and its Stop, called where %s is closed or signalled, cancels it — one timer per start, no goroutine, no select", others[0])}},
	})
}
