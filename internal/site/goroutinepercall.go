package site

import (
	"fmt"
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

// GoroutinePerCall finds a function that makes a channel and starts a
// goroutine on every call, handing it the channel (go func(c chan …) {…}
// (c, …)): a goroutine, its closure and a channel per call, the design of
// handing each piece of work to a goroutine of its own. pierrec/lz4's
// Writer.write does so per block in its concurrent mode: 96 allocations
// per op of BenchmarkWriterFlush/concurrency=4 at 4 KiB blocks, under 3%
// of the CPU at 64 KiB ones (measured by hand): the mode's cost, not an
// allocation to hoist.
var GoroutinePerCall = &analysis.Analyzer{
	Name: "goroutinepercall",
	Doc:  "a function that makes a channel and starts a goroutine with it on every call",
	Run:  runGoroutinePerCall,
}

func runGoroutinePerCall(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		var chans []*ast.CallExpr
		var gos []*ast.GoStmt
		inspectBody(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.CallExpr:
				if isBuiltin(pass, x.Fun, "make") && len(x.Args) >= 1 {
					if _, ok := x.Args[0].(*ast.ChanType); ok {
						chans = append(chans, x)
					}
				}
			case *ast.GoStmt:
				gos = append(gos, x)
			}
		})
		if len(chans) == 0 || len(gos) == 0 {
			return
		}
		g := gos[0]
		related := []analysis.RelatedInformation{{Pos: g.Pos(), Message: "the goroutine started per call"}}
		for _, c := range chans[1:] {
			related = append(related, analysis.RelatedInformation{Pos: c.Pos(), Message: "a channel made per call"})
		}
		pass.Report(analysis.Diagnostic{
			Category: "goroutine-per-call",
			Pos:      chans[0].Pos(),
			Related:  related,
			Message: fmt.Sprintf("%s makes a channel and starts a goroutine on every call (line %d): a goroutine, its closure and a channel per call, the design of handing each piece of work to a goroutine of its own",
				fd.Name.Name, pass.Fset.Position(g.Pos()).Line),
			SuggestedFixes: []analysis.SuggestedFix{{Message: "a cost of the design, paid per piece of work: a fixed set of workers fed through one channel would reuse them; measure it at the sizes callers hand over, where the work per piece usually dwarfs it"}},
		})
	})
	return nil, nil
}
