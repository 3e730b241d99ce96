package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// RescanRest finds a function that searches the whole of its input once
// per needle of a set (bytes.IndexByte(data, b) for each start byte),
// keeping the earliest hit, called from a loop on the rest of a longer
// input (f(haystack[i+1:], set)) every time the loop needs the next
// candidate: each call scans to the end for every needle that is absent
// or late, even after another was found near, so the loop rescans the
// rest of the input again and again. coregx/ahocorasick's IsMatch calls
// findEarliestStartByte on every return of its automaton to the start
// state: 58.8–185.8 MB scanned for a 64 KB input, −96% when each needle's
// next position is kept for the call, measured by hand.
var RescanRest = &analysis.Analyzer{
	Name: "rescanrest",
	Doc:  "a search of the whole input per needle, called from a loop on the rest of the input",
	Run:  runRescanRest,
}

func runRescanRest(pass *analysis.Pass) (any, error) {
	searches := map[*types.Func]*ast.CallExpr{} // function → its search call
	params := map[*types.Func]int{}             // which parameter it searches
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil {
			return
		}
		sig := fn.Type().(*types.Signature)
		inspectBody(fd.Body, func(n ast.Node) {
			r, ok := n.(*ast.RangeStmt)
			if !ok || r.Value == nil {
				return
			}
			ast.Inspect(r.Body, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 || !(isFunc(pass, call, "bytes", "", "IndexByte") || isFunc(pass, call, "bytes", "", "Index") || isFunc(pass, call, "strings", "", "IndexByte") || isFunc(pass, call, "strings", "", "Index")) {
					return true
				}
				if objOf(pass, call.Args[1]) != objOf(pass, r.Value) {
					return true
				}
				data := objOf(pass, call.Args[0])
				for i := range sig.Params().Len() {
					if sig.Params().At(i) == data {
						searches[fn], params[fn] = call, i
					}
				}
				return true
			})
		})
	})
	if len(searches) == 0 {
		return nil, nil
	}
	reported := map[*types.Func]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			default:
				return
			}
			ast.Inspect(body, func(m ast.Node) bool {
				call, ok := m.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn := calledFunc(pass, call)
				search := searches[fn]
				if search == nil || reported[fn] || params[fn] >= len(call.Args) {
					return true
				}
				sl, ok := ast.Unparen(call.Args[params[fn]]).(*ast.SliceExpr)
				if !ok || sl.Low == nil || sl.High != nil {
					return true
				}
				reported[fn] = true
				pass.Report(analysis.Diagnostic{
					Category: "rescan-rest",
					Pos:      search.Pos(),
					Related:  []analysis.RelatedInformation{{Pos: call.Pos(), Message: "called on the rest of the input, in a loop"}},
					Message: fmt.Sprintf("%s searches all of %s once per needle (%s), keeping the earliest hit: a needle that is absent or late is searched to the end even after another was found near; %s calls it on %s in its loop (line %d), so every call scans the rest of the input again",
						fn.Name(), oneLine(types.ExprString(search.Args[0])), oneLine(types.ExprString(search)), fd.Name.Name, oneLine(types.ExprString(sl)), pass.Fset.Position(call.Pos()).Line),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"search each needle only up to the earliest hit so far (%s on %s[:earliest]), and keep each needle's next position across the calls of one %s (positions only move forward): each byte is then scanned once per needle per call of %s, not once per call of %s", calleeName(search), oneLine(types.ExprString(search.Args[0])), fd.Name.Name, fd.Name.Name, fn.Name())}},
				})
				return true
			})
		})
	})
	return nil, nil
}
