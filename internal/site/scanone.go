package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// ScanOne finds fmt.Sscanf (Sscan, Fscanf) reading one value from a
// string with one verb: fmt's scanner reads the text a rune at a time
// through an interface, interprets the format on every call and reaches
// the value through reflection, where the value's own parser takes the
// text directly:
//
//	val := &big.Rat{}
//	_, err := fmt.Sscanf(num, "%f", val)   // val.SetString(num)
var ScanOne = &analysis.Analyzer{
	Name: "scanone",
	Doc:  "fmt.Sscanf of one value where the value's own parser takes the text",
	Run:  runScanOne,
}

func runScanOne(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			fn := calleeFunc(pass, c)
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" {
				return
			}
			var src, target ast.Expr
			switch fn.Name() {
			case "Sscanf":
				if len(c.Args) != 3 {
					return
				}
				tv, ok := pass.TypesInfo.Types[c.Args[1]]
				if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
					return
				}
				if f := constant.StringVal(tv.Value); strings.Count(f, "%") != 1 || strings.TrimSpace(f) != f || len(f) > 3 {
					return // more than one verb, or literal text to match
				}
				src, target = c.Args[0], c.Args[2]
			case "Sscan":
				if len(c.Args) != 2 {
					return
				}
				src, target = c.Args[0], c.Args[1]
			default:
				return
			}
			parse := directParse(pass, target, oneLine(types.ExprString(src)))
			if parse == "" {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category:       "scan-one",
				Pos:            c.Pos(),
				Message:        fmt.Sprintf("%s reads one value from a string through fmt's scanner: it reads the text a rune at a time through an interface, interprets the format on every call and stores through reflection", oneLine(types.ExprString(c))),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("parse it directly: %s takes the same text with no scanner (check that it accepts the same forms: signs, exponents, surrounding space)", parse)}},
			})
		})
	})
	return nil, nil
}

// directParse names the call that parses text into what target points to,
// or "".
func directParse(pass *analysis.Pass, target ast.Expr, src string) string {
	t := pass.TypesInfo.TypeOf(target)
	p, ok := t.(*types.Pointer)
	if !ok {
		return ""
	}
	x := oneLine(types.ExprString(target))
	if u, ok := ast.Unparen(target).(*ast.UnaryExpr); ok {
		x = oneLine(types.ExprString(u.X)) // &v: v
	}
	if n, ok := types.Unalias(p.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "math/big" {
		switch n.Obj().Name() {
		case "Rat", "Float", "Int":
			base := ""
			if n.Obj().Name() == "Int" {
				base = ", 10"
			}
			return fmt.Sprintf("%s.SetString(%s%s) ((*big.%s).SetString)", x, src, base, n.Obj().Name())
		}
	}
	b, ok := p.Elem().Underlying().(*types.Basic)
	if !ok {
		return ""
	}
	size, ok := sizeof(pass.TypesSizes, b)
	if !ok {
		return ""
	}
	switch {
	case b.Info()&types.IsFloat != 0:
		return fmt.Sprintf("strconv.ParseFloat(%s, %d)", src, 8*size)
	case b.Info()&types.IsUnsigned != 0:
		return fmt.Sprintf("strconv.ParseUint(%s, 10, %d)", src, 8*size)
	case b.Info()&types.IsInteger != 0:
		return fmt.Sprintf("strconv.ParseInt(%s, 10, %d)", src, 8*size)
	}
	return ""
}
