package site

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// GrowGuessed finds a builder or buffer reserved at a guessed size per
// element — b.Grow(len(k) * 25), make([]byte, 0, len(parts)*16) — that a
// loop over the same elements then writes in full:
//
//	b.Grow(len(k) * 25)
//	for i, kk := range k { …; b.WriteString(kk) }
//
// The guess allocates (and clears) more than short elements need, and
// grows again for long ones; the exact size is one pass over the
// elements' lengths away.
var GrowGuessed = &analysis.Analyzer{
	Name: "growguessed",
	Doc:  "a builder or buffer reserved at a constant guess per element, then written each element of the same slice",
	Run:  runGrowGuessed,
}

// growGuessMin is the smallest guess per element, in bytes, worth a shape.
const growGuessMin = 8

func runGrowGuessed(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		inspectBody(body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			var size ast.Expr
			switch {
			case isBuiltin(pass, call.Fun, "make") && len(call.Args) == 3:
				size = call.Args[2]
			case calleeName(call) == "Grow" && len(call.Args) == 1:
				if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || !isNamed(pass.TypesInfo.TypeOf(sel.X), "strings", "Builder") && !isNamed(pass.TypesInfo.TypeOf(sel.X), "bytes", "Buffer") {
					return
				}
				size = call.Args[0]
			default:
				return
			}
			elems, per, ok := perElement(pass, size)
			if !ok || per < growGuessMin {
				return
			}
			loop := writesEach(pass, body, elems)
			if loop == nil {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "grow-guessed",
				Pos:      call.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: loop.Pos(), Message: "the loop that writes each element"}},
				Message: fmt.Sprintf("%s reserves %d bytes per element of %s, whatever their length, and the loop at line %d writes each element: the guess allocates and clears more than short elements need, and grows again for long ones",
					text(pass, call), per, elems, pass.Fset.Position(loop.Pos()).Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("size it exactly from the elements: n := len(%[1]s) - 1 (the separators, if any); for _, e := range %[1]s { n += len(e) }, plus what the loop adds (quotes, escapes) where it adds it; where one element is the whole result, return it as is without building", elems)}},
			})
		})
	})
	return nil, nil
}

// perElement matches len(x) * C or C * len(x), C a constant: x's text and
// C.
func perElement(pass *analysis.Pass, e ast.Expr) (string, int64, bool) {
	b, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || b.Op != token.MUL {
		return "", 0, false
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		l, ok := ast.Unparen(pair[0]).(*ast.CallExpr)
		if !ok || !isBuiltin(pass, l.Fun, "len") || len(l.Args) != 1 {
			continue
		}
		tv, ok := pass.TypesInfo.Types[pair[1]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int {
			continue
		}
		c, exact := constant.Int64Val(tv.Value)
		if !exact {
			continue
		}
		sl, isSlice := pass.TypesInfo.TypeOf(l.Args[0]).Underlying().(*types.Slice)
		if !isSlice {
			continue
		}
		// Elements of any length: strings or slices. A fixed-size
		// element makes the product exact.
		switch et := sl.Elem().Underlying().(type) {
		case *types.Slice:
		case *types.Basic:
			if et.Info()&types.IsString == 0 {
				continue
			}
		default:
			continue
		}
		return text(pass, l.Args[0]), c, true
	}
	return "", 0, false
}

// writesEach returns the loop in body that ranges over elems and writes
// its element (WriteString(e), Write(e), append(buf, e...)), or nil.
func writesEach(pass *analysis.Pass, body *ast.BlockStmt, elems string) *ast.RangeStmt {
	var found *ast.RangeStmt
	inspectBody(body, func(n ast.Node) {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || found != nil || text(pass, rs.X) != elems {
			return
		}
		v, ok := rs.Value.(*ast.Ident)
		if !ok {
			return
		}
		obj := pass.TypesInfo.Defs[v]
		ast.Inspect(rs.Body, func(m ast.Node) bool {
			c, ok := m.(*ast.CallExpr)
			if !ok || found != nil {
				return found == nil
			}
			name := calleeName(c)
			if name != "WriteString" && name != "Write" && name != "append" {
				return true
			}
			for _, a := range c.Args {
				if id, ok := ast.Unparen(a).(*ast.Ident); ok && obj != nil && pass.TypesInfo.Uses[id] == obj {
					found = rs
					return false
				}
			}
			return true
		})
	})
	return found
}
