package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapIndirect finds a map whose value (or key) type is larger than the
// 128 bytes a Go map stores inline:
//
//	cells := make(map[int]tw.CellContext) // CellContext is 184 bytes
//	for j := 0; j < numCols; j++ { cells[j] = tw.CellContext{…} }
//
// The runtime keeps a pointer in the map instead, so every store of a new
// key allocates its value on the heap on its own, besides the map's own
// table; a size hint does not remove those. Keyed by small integers, a
// slice does the map's work with one allocation.
var MapIndirect = &analysis.Analyzer{
	Name: "mapindirect",
	Doc:  "a map whose value or key type is larger than the 128 bytes a map stores inline",
	Run:  runMapIndirect,
}

// mapInlineMax is the largest key or value a Go map stores inline (Go
// 1.24's maps; earlier ones had the same bound).
const mapInlineMax = 128

func runMapIndirect(pass *analysis.Pass) (any, error) {
	sizes := types.SizesFor("gc", "amd64")
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			id, ok := as.Lhs[0].(*ast.Ident)
			if !ok {
				return
			}
			rhs := ast.Unparen(as.Rhs[0])
			made := false
			switch x := rhs.(type) {
			case *ast.CallExpr:
				made = isBuiltin(pass, x.Fun, "make")
			case *ast.CompositeLit:
				made = len(x.Elts) == 0
			}
			if !made {
				return
			}
			m, ok := pass.TypesInfo.TypeOf(rhs).Underlying().(*types.Map)
			if !ok {
				return
			}
			vs, vok := sizeof(sizes, m.Elem())
			ks, kok := sizeof(sizes, m.Key())
			if !vok || !kok {
				return // a type parameter's size is the instance's
			}
			if vs <= mapInlineMax && ks <= mapInlineMax {
				return
			}
			obj := pass.TypesInfo.ObjectOf(id)
			// The stores into it: where the allocations are.
			var related []analysis.RelatedInformation
			inspectBody(fd.Body, func(n ast.Node) {
				st, ok := n.(*ast.AssignStmt)
				if !ok || len(st.Lhs) != 1 {
					return
				}
				ix, ok := st.Lhs[0].(*ast.IndexExpr)
				if !ok {
					return
				}
				if r, ok := ix.X.(*ast.Ident); ok && pass.TypesInfo.Uses[r] == obj {
					related = append(related, analysis.RelatedInformation{Pos: st.Pos(), Message: "a store"})
				}
			})
			if len(related) == 0 {
				return
			}
			what, size, typ := "values", vs, m.Elem()
			if vs <= mapInlineMax {
				what, size, typ = "keys", ks, m.Key()
			}
			tname := types.TypeString(typ, types.RelativeTo(pass.Pkg))
			alt := fmt.Sprintf("a slice indexed by the key ([]%s) when the keys are small integers, or map values that point into one slice of them; a %s type under %d bytes stays inline", tname, what[:len(what)-1], mapInlineMax)
			pass.Report(analysis.Diagnostic{
				Category: "map-value-indirect",
				Pos:      as.Pos(),
				Related:  related,
				Message: fmt.Sprintf("%s, a %s, holds %s of %d bytes: over the %d bytes a map stores inline, so each store of a new key allocates its %s on the heap on its own (line %d), besides the map's table",
					id.Name, types.TypeString(m, types.RelativeTo(pass.Pkg)), what, size, mapInlineMax, what[:len(what)-1], pass.Fset.Position(related[0].Pos).Line),
				// The advice names the type alone: one change for every
				// such map of it.
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("%s is %d bytes, stored out of line in any map: %s", tname, size, alt)}},
			})
		})
	})
	return nil, nil
}
