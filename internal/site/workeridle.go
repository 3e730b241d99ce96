package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

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
	started := map[*types.Func]bool{}
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
				started[fn] = true
			}
			return true
		})
	}
	for _, lit := range lits {
		idleWaits(pass, "the goroutine", lit.Body)
	}
	for fd := range funcDecls(pass) {
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok && started[fn] {
			idleWaits(pass, fd.Name.Name, fd.Body)
		}
	}
	return nil, nil
}

// idleWaits reports the loops of a goroutine's body (its own, not its
// func literals') that wait for work: a range over a channel, and in an
// endless loop a receive statement or a select whose cases all receive.
func idleWaits(pass *analysis.Pass, who string, body *ast.BlockStmt) {
	inspectBody(body, func(n ast.Node) {
		switch l := n.(type) {
		case *ast.RangeStmt:
			if _, ok := pass.TypesInfo.TypeOf(l.X).Underlying().(*types.Chan); ok {
				reportIdle(pass, l.Pos(), who, text(pass, l.X))
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
		Category:       "worker-idle",
		Pos:            pos,
		Message:        fmt.Sprintf("%s waits here for its next piece of work from %s: a worker parked between tasks, not a goroutine waiting on another", who, ch),
		SuggestedFixes: []analysis.SuggestedFix{{Message: "its wait is idle time while there is no work: nothing holds anything it needs, so there is nothing to shorten"}},
	})
}
