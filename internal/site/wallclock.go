package site

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// WallClock finds time.Now() whose only use is its wall time as an
// integer: time.Now().UnixNano() (or .Add(d).UnixNano(), Unix,
// UnixMilli, UnixMicro), a cache stamping and checking expirations.
// time.Now reads the wall clock and the monotonic clock; the integer
// keeps the wall time alone, which moves when the system clock is set.
// Expirations compared with one another need one monotonic read: the
// time since a base time the process keeps.
var WallClock = &analysis.Analyzer{
	Name: "wallclock",
	Doc:  "time.Now() read only for its wall time as an integer (UnixNano, Unix, …)",
	Run:  runWallClock,
}

func runWallClock(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) != 0 {
				return
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return
			}
			switch sel.Sel.Name {
			case "UnixNano", "Unix", "UnixMilli", "UnixMicro":
			default:
				return
			}
			x := ast.Unparen(sel.X)
			if add, ok := x.(*ast.CallExpr); ok && len(add.Args) == 1 {
				if as, ok := add.Fun.(*ast.SelectorExpr); ok && as.Sel.Name == "Add" {
					x = ast.Unparen(as.X)
				}
			}
			now, ok := x.(*ast.CallExpr)
			if !ok || len(now.Args) != 0 || !isFunc(pass, now, "time", "", "Now") {
				return
			}
			expr := oneLine(text(pass, call))
			pass.Report(analysis.Diagnostic{
				Category:       "wall-clock",
				Pos:            call.Pos(),
				Message:        fmt.Sprintf("%s reads the wall clock and the monotonic clock, then keeps only the wall time as an integer, on every call", expr),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "where the integers are only compared with one another (expirations, elapsed times), read the clock once, monotonically: time.Since(base) of a base time the process keeps (one clock read, and immune to the system clock being set); a coarse clock a ticker updates where its precision is enough"}},
			})
		})
	})
	return nil, nil
}
