package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// SortSelect finds a slice sorted whole only to read one or two elements
// of it afterwards — a median (s[n/2]), a minimum or maximum (s[0],
// s[len(s)-1]) — and nothing else of it: an O(n log n) sort for an order
// statistic that a selection finds in O(n) (quickselect), or one pass for
// an extreme.
var SortSelect = &analysis.Analyzer{
	Name: "sortselect",
	Doc:  "a slice sorted whole to read one order statistic",
	Run:  runSortSelect,
}

// sortFuncs are the calls that sort their first argument in place.
var sortFuncs = map[string][]string{
	"sort":   {"Float64s", "Ints", "Strings", "Slice", "SliceStable"},
	"slices": {"Sort", "SortFunc", "SortStableFunc"},
}

func runSortSelect(pass *analysis.Pass) (any, error) {
	eachFunc(pass, func(body *ast.BlockStmt) {
		ast.Inspect(body, func(n ast.Node) bool {
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			c, ok := n.(*ast.CallExpr)
			if !ok || len(c.Args) == 0 {
				return true
			}
			fn := calledFunc(pass, c)
			if fn == nil || fn.Pkg() == nil || !slices.Contains(sortFuncs[fn.Pkg().Path()], fn.Name()) {
				return true
			}
			v, _ := objOf(pass, c.Args[0]).(*types.Var)
			if v == nil {
				return true
			}
			reads, ok := readsAfter(pass, body, v, c.End())
			var texts []string
			for _, r := range reads {
				if t := text(pass, r); !slices.Contains(texts, t) {
					texts = append(texts, t)
				}
			}
			if !ok || len(texts) == 0 || len(texts) > 2 {
				return true
			}
			what := "an element"
			switch {
			case allMiddle(pass, reads):
				what = "its middle (a median)"
			case allEnds(pass, reads, v):
				what = "an end (a minimum or maximum)"
			default:
				return true
			}
			d := analysis.Diagnostic{
				Category: "sort-to-select",
				Pos:      c.Pos(),
				Message: fmt.Sprintf("%s sorts all of %s to read %s: %s, an O(n log n) sort for one order statistic",
					oneLine(types.ExprString(c)), v.Name(), what, list(texts, 2)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "select it instead of sorting: quickselect (partition around a pivot, keep the side that holds the index: O(n) on average) finds the middle; one pass finds a minimum or maximum"}},
			}
			for _, r := range reads {
				d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.Pos(), Message: "the read"})
			}
			pass.Report(d)
			return true
		})
	})
	return nil, nil
}

// readsAfter returns the index expressions of v after pos in body, in
// source order; ok is
// false when v is used after pos in any other way (ranged over, passed
// on, sliced, returned whole, assigned).
func readsAfter(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, pos token.Pos) (reads []*ast.IndexExpr, ok bool) {
	ok = true
	indexed := map[*ast.Ident]bool{}
	var loops []ast.Node // after the sort: a read in one reads many elements
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if x.Pos() > pos {
				loops = append(loops, x)
			}
		case *ast.IndexExpr:
			if x.Pos() > pos && objOf(pass, x.X) == v {
				reads = append(reads, x)
				indexed[ast.Unparen(x.X).(*ast.Ident)] = true
				for _, l := range loops {
					ok = ok && !(x.Pos() >= l.Pos() && x.End() <= l.End())
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID || id.Pos() <= pos || pass.TypesInfo.Uses[id] != v || indexed[id] {
			return true
		}
		// len(v) is a read of its length, no element.
		ok = ok && lenArg(pass, body, id)
		return true
	})
	return reads, ok
}

// lenArg reports whether id is the argument of a call of len.
func lenArg(pass *analysis.Pass, body *ast.BlockStmt, id *ast.Ident) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if ok && len(c.Args) == 1 && c.Args[0] == ast.Expr(id) && isBuiltin(pass, c.Fun, "len") {
			found = true
		}
		return !found
	})
	return found
}

// allMiddle reports whether every index divides by two (s[n/2],
// s[n/2-1], s[len(s)/2]).
func allMiddle(pass *analysis.Pass, reads []*ast.IndexExpr) bool {
	for _, r := range reads {
		half := false
		ast.Inspect(r.Index, func(n ast.Node) bool {
			if b, ok := n.(*ast.BinaryExpr); ok && (b.Op == token.QUO || b.Op == token.SHR) {
				if tv, ok := pass.TypesInfo.Types[b.Y]; ok && tv.Value != nil && (b.Op == token.QUO && tv.Value.String() == "2" || b.Op == token.SHR && tv.Value.String() == "1") {
					half = true
				}
			}
			return true
		})
		if !half {
			return false
		}
	}
	return true
}

// allEnds reports whether every index is 0 or len(v)-1.
func allEnds(pass *analysis.Pass, reads []*ast.IndexExpr, v *types.Var) bool {
	for _, r := range reads {
		if tv, ok := pass.TypesInfo.Types[r.Index]; ok && tv.Value != nil && tv.Value.String() == "0" {
			continue
		}
		b, ok := ast.Unparen(r.Index).(*ast.BinaryExpr)
		if !ok || b.Op != token.SUB {
			return false
		}
		c, ok := ast.Unparen(b.X).(*ast.CallExpr)
		if !ok || !isBuiltin(pass, c.Fun, "len") || len(c.Args) != 1 || objOf(pass, c.Args[0]) != v {
			return false
		}
		if tv, ok := pass.TypesInfo.Types[b.Y]; !ok || tv.Value == nil || tv.Value.String() != "1" {
			return false
		}
	}
	return true
}
