package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// TailFromFront finds a loop that walks its input from the front to find
// where the part to keep at the end begins, from the input's total measure
// (for i, r := range s { … if sw-(width+cw) <= w { return i … } }): it
// covers nearly all of s when the kept tail is short, after a first pass
// that measured all of s for sw. Walking back from the end stops once
// the tail is measured.
var TailFromFront = &analysis.Analyzer{
	Name: "tailfromfront",
	Doc:  "a loop from the front of its input to find where a kept tail begins, from the input's total",
	Run:  runTailFromFront,
}

func runTailFromFront(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		params := paramSet(pass, fd)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			in, ok := ast.Unparen(rs.X).(*ast.Ident)
			if !ok || !isStringType(pass.TypesInfo.TypeOf(rs.X)) {
				return true
			}
			ast.Inspect(rs.Body, func(m ast.Node) bool {
				st, ok := m.(*ast.IfStmt)
				if !ok {
					return true
				}
				cmp, ok := ast.Unparen(st.Cond).(*ast.BinaryExpr)
				if !ok || cmp.Op != token.LEQ && cmp.Op != token.LSS {
					return true
				}
				sub, ok := ast.Unparen(cmp.X).(*ast.BinaryExpr)
				if !ok || sub.Op != token.SUB {
					return true
				}
				total, ok := ast.Unparen(sub.X).(*ast.Ident)
				if !ok {
					return true
				}
				tv, _ := pass.TypesInfo.ObjectOf(total).(*types.Var)
				if tv == nil || !params[tv] {
					return true // the total is what the caller measured
				}
				pass.Report(analysis.Diagnostic{
					Category: "tail-from-front",
					Pos:      rs.Pos(), // the loop is the cost
					Related:  []analysis.RelatedInformation{{Pos: st.Pos(), Message: "the test for the tail"}},
					Message: fmt.Sprintf("the loop over %s walks it from the front until %s is at most %s (line %d), to find where the part kept at the end begins: with a short tail it covers nearly all of %s, after the pass that measured %s",
						in.Name, oneLine(types.ExprString(cmp.X)), oneLine(types.ExprString(cmp.Y)), pass.Fset.Position(st.Pos()).Line, in.Name, total.Name),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"walk %s back from its end (utf8.DecodeLastRuneInString) and stop once the tail reaches %s: the work is bounded by the tail, and the total %s is not needed", in.Name, oneLine(types.ExprString(cmp.Y)), total.Name)}},
				})
				return false
			})
			return true
		})
	})
	return nil, nil
}
