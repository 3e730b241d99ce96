package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapKeyConverted finds m[string(b)] = v: the map keeps the key, so the
// conversion's copy is the entry's own string and cannot be avoided at
// the conversion (a lookup, m[string(b)], does not allocate). Keeping one
// representation does not fit: fewer entries, or a map kept across calls
// and cleared, is where an insert's cost goes down.
var MapKeyConverted = &analysis.Analyzer{
	Name: "mapkeyconverted",
	Doc:  "a string(b) conversion as the key of a map assignment: the map keeps the copy",
	Run:  runMapKeyConverted,
}

func runMapKeyConverted(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return true
			}
			for _, l := range as.Lhs {
				ix, ok := ast.Unparen(l).(*ast.IndexExpr)
				if !ok {
					continue
				}
				if _, isMap := typeUnder(pass, ix.X).(*types.Map); !isMap {
					continue
				}
				conv, ok := ast.Unparen(ix.Index).(*ast.CallExpr)
				if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) {
					continue
				}
				if b, ok := pass.TypesInfo.TypeOf(conv).Underlying().(*types.Basic); !ok || b.Info()&types.IsString == 0 {
					continue
				}
				m := oneLine(types.ExprString(ix.X))
				pass.Report(analysis.Diagnostic{
					Category: "map-key-converted",
					Pos:      conv.Pos(),
					Message:  fmt.Sprintf("%s is the key of an entry %s keeps: the copy is the entry's own string", oneLine(types.ExprString(conv)), m),
					SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
						"nothing to remove at the conversion (a lookup, %s[%s], would not copy): the inserts cost, so fewer entries, or %s made once and cleared (clear) where it is made per call", m, oneLine(types.ExprString(conv)), m)}},
				})
			}
			return true
		})
	})
	return nil, nil
}
