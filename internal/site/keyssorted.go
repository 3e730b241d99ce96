package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// KeysSorted finds a map's keys gathered into a slice and sorted before
// the function walks them: a map's order is random, so the sort is what
// makes the output the same from run to run.
//
//	kve.keySortBuffer = kve.keySortBuffer[:0]
//	for k := range properties {
//		kve.keySortBuffer = append(kve.keySortBuffer, k)
//	}
//	sort.Strings(kve.keySortBuffer)
//
// paulmach/orb's vector-tile encoder (both hand analyses: the sort keeps
// the output deterministic, leave it). The order is part of what the
// function produces: "sort fewer elements, or skip the sort" is not a
// change to make at its line.
var KeysSorted = &analysis.Analyzer{
	Name: "keyssorted",
	Doc:  "a map's keys gathered and sorted for a deterministic order",
	Run:  runKeysSorted,
}

func runKeysSorted(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// The slices a range over a map's keys appends its key to, by
		// their text (kve.keySortBuffer), with the map's.
		gathered := map[string]string{}
		inspectBody(fd.Body, func(n ast.Node) {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || rs.Key == nil {
				return
			}
			if _, ok := pass.TypesInfo.TypeOf(rs.X).Underlying().(*types.Map); !ok {
				return
			}
			key := identVar(pass, rs.Key)
			if key == nil {
				if id, ok := rs.Key.(*ast.Ident); ok {
					key, _ = pass.TypesInfo.Defs[id].(*types.Var)
				}
			}
			if key == nil {
				return
			}
			for _, st := range rs.Body.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					continue
				}
				call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
				if !ok || !isBuiltin(pass, call.Fun, "append") || len(call.Args) != 2 || identVar(pass, call.Args[1]) != key {
					continue
				}
				if types.ExprString(call.Args[0]) == types.ExprString(as.Lhs[0]) {
					gathered[types.ExprString(as.Lhs[0])] = text(pass, rs.X)
				}
			}
		})
		if len(gathered) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return
			}
			fn := calledFunc(pass, call)
			if fn == nil || fn.Pkg() == nil || !sortsSlice(fn) {
				return
			}
			m, ok := gathered[types.ExprString(call.Args[0])]
			if !ok {
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "keys-sorted" + ownWork,
				Pos:      call.Pos(),
				Message: fmt.Sprintf("%s sorts the keys of %s, gathered from the map into %s, before it walks them: a map's order is random, so the sort is what makes the output the same from run to run",
					fd.Name.Name, m, text(pass, call.Args[0])),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "the order is part of what the function produces and the sort its price, not a change to make here; where the same map is walked again unchanged, keep its sorted keys; where no reader needs an order, a flag to skip it"}},
			})
		})
	})
	return nil, nil
}

// sortsSlice reports whether fn sorts the slice it is given first:
// sort.Strings, sort.Ints, sort.Slice, slices.Sort, slices.SortFunc.
func sortsSlice(fn *types.Func) bool {
	switch fn.Pkg().Path() {
	case "sort":
		switch fn.Name() {
		case "Strings", "Ints", "Float64s", "Slice", "SliceStable":
			return true
		}
	case "slices":
		switch fn.Name() {
		case "Sort", "SortFunc", "SortStableFunc":
			return true
		}
	}
	return false
}
