package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// ResultKept finds a benchmark whose every b.N loop (and b.Loop loop),
// its sub-benchmarks' included, stores a call's result in a package-level
// variable (SinkInt = commonPrefixLength(x, y)): the compiler cannot
// remove the call, so a time below a nanosecond is the operation's own
// (an empty input), not work deleted.
var ResultKept = &analysis.Analyzer{
	Name: "resultkept",
	Doc:  "a benchmark whose loops store their results in a package-level variable",
	Run:  runResultKept,
}

func runResultKept(pass *analysis.Pass) (any, error) {
	eachBenchmark(pass, func(fd *ast.FuncDecl) {
		loops, kept, bloops := 0, 0, 0
		var sink string
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			var body *ast.BlockStmt
			switch n := n.(type) {
			case *ast.ForStmt:
				if n.Cond == nil || !benchLoopCond(n.Cond) {
					return true
				}
				body = n.Body
			case *ast.RangeStmt:
				if !benchLoopCond(n.X) {
					return true
				}
				body = n.Body
			default:
				return true
			}
			loops++
			if fs, ok := n.(*ast.ForStmt); ok && isLoopCall(fs.Cond) {
				bloops++
			}
			if v := storedGlobal(pass, body); v != "" {
				kept++
				sink = v
			}
			return true
		})
		if loops > 0 && bloops == loops && kept != loops {
			// for b.Loop(): the compiler keeps the calls in the
			// body and their results, not what a call's own code
			// may skip when its result is unused.
			pass.Report(analysis.Diagnostic{
				Category: "b-loop",
				Pos:      fd.Name.Pos(),
				Message:  fmt.Sprintf("%s loops with b.Loop: the compiler keeps the calls in its body", fd.Name.Name),
			})
			return
		}
		if loops == 0 || kept != loops {
			return
		}
		pass.Report(analysis.Diagnostic{
			Category: "result-kept",
			Pos:      fd.Name.Pos(),
			Message:  fmt.Sprintf("%s stores what each loop computes in %s, a package-level variable: the compiler cannot remove the work", fd.Name.Name, sink),
		})
	})
	return nil, nil
}

// isLoopCall reports whether e is a call of a Loop method with no
// arguments (b.Loop()).
func isLoopCall(e ast.Expr) bool {
	c, ok := e.(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := c.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Loop"
}

// benchLoopCond reports whether an expression is a benchmark loop's
// bound: i < b.N, range b.N, b.Loop().
func benchLoopCond(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "N" || sel.Sel.Name == "Loop") {
			found = true
		}
		return !found
	})
	return found
}

// storedGlobal returns the name of a package-level variable a statement of
// body assigns a call's result to, or "".
func storedGlobal(pass *analysis.Pass, body *ast.BlockStmt) string {
	for _, st := range body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN && as.Tok != token.ADD_ASSIGN {
			continue
		}
		call := false
		for _, r := range as.Rhs {
			ast.Inspect(r, func(n ast.Node) bool {
				c, isCall := n.(*ast.CallExpr)
				// A call of constants only may be folded at compile
				// time, sink or not.
				call = call || isCall && !constantArgs(pass, c)
				return !call
			})
		}
		if !call {
			continue
		}
		for _, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			if v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var); ok && v.Parent() == pass.Pkg.Scope() {
				return id.Name
			}
		}
	}
	return ""
}

// constantArgs reports whether every argument of call is a constant (and
// a method's receiver too): the compiler may compute it at compile time.
func constantArgs(pass *analysis.Pass, call *ast.CallExpr) bool {
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		isPkg := false
		if id := identOf(sel.X); id != nil {
			_, isPkg = pass.TypesInfo.ObjectOf(id).(*types.PkgName)
		}
		if !isPkg {
			if tv, ok := pass.TypesInfo.Types[sel.X]; !ok || tv.Value == nil {
				return false
			}
		}
	}
	for _, a := range call.Args {
		if tv, ok := pass.TypesInfo.Types[a]; !ok || tv.Value == nil {
			return false
		}
	}
	return true
}
