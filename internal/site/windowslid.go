package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// WindowSlid finds a slice kept as a sliding window by reslicing its front
// away (r.dict = r.dict[len(r.dict)-keep:]) and appending to it in the
// same function (r.dict = append(r.dict, dst...)): every slide drops the
// front of the backing array from the slice's capacity, so the appends
// after it run out of room and reallocate the window, again at every
// slide. pierrec/lz4's Reader.read keeps the last 64 KiB of a linked
// frame's output so: 216 allocations and 22.9 MiB per op of
// BenchmarkUncompressTwainLinked at the append. Moving the kept part to
// the front (copy) reuses one array. A queue's pop (q = q[1:]) is not
// this shape: a queue's cost is its own matter.
var WindowSlid = &analysis.Analyzer{
	Name: "windowslid",
	Doc:  "a slice slid by reslicing its front away and appended to: the append reallocates after every slide",
	Run:  runWindowSlid,
}

func runWindowSlid(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		slides := map[string]*ast.AssignStmt{}
		var appends []*ast.AssignStmt
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			lhs := types.ExprString(as.Lhs[0])
			t := pass.TypesInfo.TypeOf(as.Lhs[0])
			if t == nil { // _ = …
				return
			}
			if _, ok := t.Underlying().(*types.Slice); !ok {
				return
			}
			switch rhs := ast.Unparen(as.Rhs[0]).(type) {
			case *ast.SliceExpr:
				if rhs.Low == nil || rhs.High != nil || rhs.Max != nil || types.ExprString(rhs.X) != lhs || popOne(pass, rhs.Low) {
					return
				}
				if slides[lhs] == nil {
					slides[lhs] = as
				}
			case *ast.CallExpr:
				if isBuiltin(pass, rhs.Fun, "append") && len(rhs.Args) > 1 && types.ExprString(rhs.Args[0]) == lhs {
					appends = append(appends, as)
				}
			}
		})
		for _, ap := range appends {
			lhs := types.ExprString(ap.Lhs[0])
			sl := slides[lhs]
			if sl == nil {
				continue
			}
			slLine := pass.Fset.Position(sl.Pos()).Line
			kept := types.ExprString(sl.Rhs[0].(*ast.SliceExpr).Low)
			pass.Report(analysis.Diagnostic{
				Category: "window-slid",
				Pos:      ap.Rhs[0].Pos(),
				Related:  []analysis.RelatedInformation{{Pos: sl.Pos(), Message: "the slide that drops the front"}},
				Message: fmt.Sprintf("%s slides %s by reslicing its front away (%s at line %d) and appends to it here: each slide takes the front of the backing array out of %s's capacity, so the appends after it run out of room and allocate a new array, copying the window, at every slide",
					fd.Name.Name, lhs, oneLine(types.ExprString(sl.Lhs[0])+" = "+types.ExprString(sl.Rhs[0])), slLine, lhs),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("move the kept part to the front instead of slicing the front away: %s = %s[:copy(%s, %s[%s:])]; the one array is reused and the appends stay within its capacity (give it the window's full size once, where it is first made)",
					lhs, lhs, lhs, lhs, oneLine(kept))}},
			})
			delete(slides, lhs) // one report per window
		}
	})
	return nil, nil
}

// popOne reports whether low is the constant 1: q = q[1:], a queue's pop.
func popOne(pass *analysis.Pass, low ast.Expr) bool {
	tv, ok := pass.TypesInfo.Types[low]
	return ok && tv.Value != nil && constant.Compare(tv.Value, token.EQL, constant.MakeInt64(1))
}
