package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// LinearLookup finds a search of a slice for the element whose key equals
// one the function is given, element by element:
//
//	for _, kv := range o.kvs {
//		if kv.k == key {
//			return kv.v
//		}
//	}
//
// fastjson's Object.Get: n/2 comparisons per call on average, every call.
// For a few entries the scan beats any index; a collection searched many
// times with many entries pays it on each search, where an index of its
// keys built once answers in one probe. The advice names both.
var LinearLookup = &analysis.Analyzer{
	Name: "linearlookup",
	Doc:  "a search of a slice, element by element, for the key the function is given",
	Run:  runLinearLookup,
}

func runLinearLookup(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		params := map[types.Object]bool{}
		for _, fl := range fd.Type.Params.List {
			for _, n := range fl.Names {
				params[pass.TypesInfo.Defs[n]] = true
			}
		}
		var first *ast.BinaryExpr
		var over, elemKey, key string
		var more []token.Pos
		inspectBody(fd.Body, func(n ast.Node) {
			r, ok := n.(*ast.RangeStmt)
			if !ok || r.Value == nil || len(r.Body.List) == 0 {
				return
			}
			if _, ok := pass.TypesInfo.TypeOf(r.X).Underlying().(*types.Slice); !ok {
				return
			}
			elem, ok := r.Value.(*ast.Ident)
			if !ok {
				return
			}
			ifs, ok := r.Body.List[0].(*ast.IfStmt)
			if !ok || ifs.Init != nil || !leaves(ifs.Body.List) {
				return
			}
			be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr)
			if !ok || be.Op != token.EQL {
				return
			}
			x, y := be.X, be.Y
			if !rootedAt(pass, y, pass.TypesInfo.ObjectOf(elem)) {
				x, y = y, x
			}
			id, ok := ast.Unparen(x).(*ast.Ident)
			if !ok || !params[pass.TypesInfo.Uses[id]] || !rootedAt(pass, y, pass.TypesInfo.ObjectOf(elem)) {
				return
			}
			if first != nil {
				more = append(more, be.Pos())
				return
			}
			first, over, elemKey, key = be, text(pass, r.X), text(pass, y), id.Name
		})
		if first == nil {
			return
		}
		if t, ok := pass.TypesInfo.TypeOf(first.X).Underlying().(*types.Basic); ok && (t.Kind() == types.Uint8 || t.Kind() == types.Int8 || t.Kind() == types.Bool) {
			// A byte key (a router node's children by their first
			// byte): few distinct keys, and an index by them is a
			// 256-entry table for every collection.
			pass.Report(analysis.Diagnostic{
				Category: "linear-lookup" + ownWork,
				Pos:      first.Pos(),
				Message:  fmt.Sprintf("%s compares %s, a byte, with %s for each element of %s in turn until one is equal: a search among at most 256 distinct keys, usually a few", fd.Name.Name, key, elemKey, oneLine(over)),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"the scan of a few elements is the fastest there is: an index by a byte key is a 256-entry table for every %s, memory paid by each to save a few comparisons: keep the scan", oneLine(over))}},
			})
			return
		}
		d := analysis.Diagnostic{
			Category: "linear-lookup",
			Pos:      first.Pos(),
			Message:  fmt.Sprintf("%s compares %s with %s for each element of %s in turn until one is equal: a linear search, about n/2 comparisons per call over n elements", fd.Name.Name, key, elemKey, oneLine(over)),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
				"for a few elements the scan is the fastest there is; where one %s is searched many times and holds many elements, build an index of its keys once (a map from key to position, made on the first search past a size where it pays, and kept with it) and look %s up there: one probe instead of n/2 comparisons", oneLine(over), key)}},
		}
		for _, p := range more {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: p, Message: "the same search"})
		}
		pass.Report(d)
	})
	return nil, nil
}
