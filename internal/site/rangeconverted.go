package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// RangeConverted finds a loop ranging over string(b) of a []byte b to
// decode its runes: the conversion copies b into a new string (on the
// heap when it is over 32 bytes or escapes) before the loop reads it
// once. utf8.DecodeRune over b does the same decoding in place, with the
// same result for invalid bytes (utf8.RuneError, width 1).
var RangeConverted = &analysis.Analyzer{
	Name: "rangeconverted",
	Doc:  "a range over string(b) of a byte slice, a copy only to decode its runes",
	Run:  runRangeConverted,
}

func runRangeConverted(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || rs.Value == nil {
				return true
			}
			conv, ok := ast.Unparen(rs.X).(*ast.CallExpr)
			if !ok || len(conv.Args) != 1 || !isConversion(pass, conv) || !isString(pass.TypesInfo.TypeOf(conv)) || !isByteSliceType(pass.TypesInfo.TypeOf(conv.Args[0])) {
				return true
			}
			b := oneLine(types.ExprString(conv.Args[0]))
			r := oneLine(types.ExprString(rs.Value))
			pass.Report(analysis.Diagnostic{
				Category: "range-converted",
				Pos:      conv.Pos(),
				Message:  fmt.Sprintf("the loop ranges over %s, a copy of %s made only to decode its runes (a new allocation when %s is over 32 bytes)", oneLine(types.ExprString(conv)), b, b),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"decode in place: for i := 0; i < len(%s); { %s, size := utf8.DecodeRune(%s[i:]); …; i += size } (an invalid byte decodes as utf8.RuneError of width 1, as the range does)", b, r, b)}},
			})
			return true
		})
	})
	return nil, nil
}
