package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/types"
	"regexp"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// FormatVaries finds fmt.Sprintf whose format is a variable that only
// sets a float's precision: built by another Sprintf (f :=
// fmt.Sprintf("%%.%df %%s", digits)) or chosen between constants ("%.0f
// %s" or "%.1f %s"). fmt parses the format on every call (and the first
// Sprintf builds it), where strconv.AppendFloat takes the precision as an
// argument:
//
//	f := fmt.Sprintf("%%.%df %%s", digits)
//	return fmt.Sprintf(f, val, suffix)
var FormatVaries = &analysis.Analyzer{
	Name: "formatvaries",
	Doc:  "fmt.Sprintf with a format built or chosen only to set a float's precision",
	Run:  runFormatVaries,
}

// precisionFormat matches a format of one float with a precision and a
// string after it: "%.1f %s", and its built form "%%.%df %%s".
var precisionFormat = regexp.MustCompile(`^%\.(\d+|%d)f( ?)%s$`)

func runFormatVaries(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// The values each local takes: constants, or a Sprintf of a
		// constant format.
		type origin struct {
			consts []string
			built  *ast.CallExpr
			other  bool
		}
		origins := map[types.Object]*origin{}
		inspectAll(fd.Body, func(n ast.Node) {
			var lhs []ast.Expr
			var rhs []ast.Expr
			switch x := n.(type) {
			case *ast.AssignStmt:
				lhs, rhs = x.Lhs, x.Rhs
			case *ast.ValueSpec:
				for _, id := range x.Names {
					lhs = append(lhs, id)
				}
				rhs = x.Values
			default:
				return
			}
			if len(lhs) != len(rhs) {
				return
			}
			for i, l := range lhs {
				id := identOf(l)
				if id == nil {
					continue
				}
				obj := pass.TypesInfo.ObjectOf(id)
				if obj == nil {
					continue
				}
				o := origins[obj]
				if o == nil {
					o = &origin{}
					origins[obj] = o
				}
				if s, ok := constString(pass, rhs[i]); ok {
					o.consts = append(o.consts, s)
				} else if c, ok := ast.Unparen(rhs[i]).(*ast.CallExpr); ok && isFunc(pass, c, "fmt", "", "Sprintf") && len(c.Args) > 0 {
					if s, ok := constString(pass, c.Args[0]); ok {
						o.built = c
						o.consts = append(o.consts, strings.ReplaceAll(s, "%%", "%"))
					} else if fs := identOf(c.Args[0]); fs != nil && origins[pass.TypesInfo.ObjectOf(fs)] != nil {
						// f := fmt.Sprintf(ff, digits), ff a local
						// constant: its value.
						src := origins[pass.TypesInfo.ObjectOf(fs)]
						if len(src.consts) == 1 && src.built == nil {
							o.built = c
							o.consts = append(o.consts, strings.ReplaceAll(src.consts[0], "%%", "%"))
						} else {
							o.other = true
						}
					} else {
						o.other = true
					}
				} else {
					o.other = true
				}
			}
		})
		inspectBody(fd.Body, func(n ast.Node) {
			c, ok := n.(*ast.CallExpr)
			if !ok || !isFunc(pass, c, "fmt", "", "Sprintf") || len(c.Args) != 3 {
				return
			}
			id := identOf(c.Args[0])
			if id == nil {
				return
			}
			o := origins[pass.TypesInfo.ObjectOf(id)]
			if o == nil || o.other || len(o.consts) == 0 || o.built == nil && len(o.consts) < 2 {
				return
			}
			var precs []string
			for _, f := range o.consts {
				m := precisionFormat.FindStringSubmatch(f)
				if m == nil {
					return
				}
				precs = append(precs, m[1])
			}
			val, suffix := oneLine(types.ExprString(c.Args[1])), oneLine(types.ExprString(c.Args[2]))
			how := fmt.Sprintf("chosen between %d constant formats", len(o.consts))
			prec := "the precision it chooses"
			if o.built != nil {
				how = fmt.Sprintf("built by %s at line %d", oneLine(types.ExprString(o.built)), pass.Fset.Position(o.built.Pos()).Line)
				prec = oneLine(types.ExprString(o.built.Args[len(o.built.Args)-1]))
			}
			sep := ""
			if strings.Contains(o.consts[0], " %s") {
				sep = ` ' ',`
			}
			pass.Report(analysis.Diagnostic{
				Category: "format-varies",
				Pos:      c.Pos(),
				Message: fmt.Sprintf("%s formats %s with %s, a format %s only to set the float's precision: fmt parses the format on every call and boxes %s and %s into interfaces",
					fd.Name.Name, val, id.Name, how, val, suffix),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("append the number with its precision as an argument: b := strconv.AppendFloat(buf[:0], %s, 'f', %s, 64); b = append(b,%s %s...); return string(b) — one allocation, no format to build or parse (fmt's %%.*f also takes the precision as an argument, in one Sprintf)", val, prec, sep, suffix)}},
			})
		})
	})
	return nil, nil
}

// constString returns the value of a constant string expression.
func constString(pass *analysis.Pass, e ast.Expr) (string, bool) {
	tv, ok := pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(tv.Value), true
}
