package site

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"

	"golang.org/x/tools/go/analysis"
)

// FirstWriteLog finds a map field that records the first value stored
// per key — `if _, ok := m[k]; !ok { m[k] = v }` — and that the package
// otherwise only ranges over (a transaction's rollback records, read
// when it rolls back):
//
//	if _, ok := tx.wc.rollbackItems[key]; !ok { tx.wc.rollbackItems[key] = prev }
//	…
//	for key, item := range tx.wc.rollbackItems { … }   // rollback
//
// Every store hashes the key twice and grows a map for a record read
// only by iteration; an append-only log replayed in reverse applies the
// earliest entry per key last, as the map's first write wins, with one
// append per store.
var FirstWriteLog = &analysis.Analyzer{
	Name: "firstwritelog",
	Doc:  "a map field that keeps the first value per key and is otherwise only ranged over",
	Run:  runFirstWriteLog,
}

type firstWrite struct {
	store  *ast.AssignStmt
	check  token.Pos
	fn     string
	ranged []token.Pos
	other  bool // read in any other way
}

func runFirstWriteLog(pass *analysis.Pass) (any, error) {
	byField := map[*types.Var]*firstWrite{}
	checks := map[*ast.IndexExpr]bool{} // the m[k] of the pattern: not other reads
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			ifs, ok := n.(*ast.IfStmt)
			if !ok || ifs.Else != nil || len(ifs.Body.List) != 1 {
				return
			}
			init, ok := ifs.Init.(*ast.AssignStmt)
			if !ok || len(init.Lhs) != 2 || len(init.Rhs) != 1 {
				return
			}
			ix, ok := ast.Unparen(init.Rhs[0]).(*ast.IndexExpr)
			if !ok {
				return
			}
			f := mapField(pass, ix.X)
			cond, ok := ast.Unparen(ifs.Cond).(*ast.UnaryExpr)
			if f == nil || !ok || cond.Op != token.NOT {
				return
			}
			st, ok := ifs.Body.List[0].(*ast.AssignStmt)
			if !ok || len(st.Lhs) != 1 || st.Tok != token.ASSIGN {
				return
			}
			six, ok := st.Lhs[0].(*ast.IndexExpr)
			if !ok || mapField(pass, six.X) != f || text(pass, six.Index) != text(pass, ix.Index) {
				return
			}
			checks[ix], checks[six] = true, true
			if byField[f] == nil {
				byField[f] = &firstWrite{store: st, check: ix.Pos(), fn: fd.Name.Name}
			}
		})
	})
	if len(byField) == 0 {
		return nil, nil
	}
	// Every other use of the fields.
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.RangeStmt:
				if fw := byField[mapField(pass, x.X)]; fw != nil {
					fw.ranged = append(fw.ranged, x.Pos())
				}
			case *ast.IndexExpr:
				if fw := byField[mapField(pass, x.X)]; fw != nil && !checks[x] {
					fw.other = true
				}
			case *ast.CallExpr:
				// len(m), delete(m, k), clear(m): no lookups by key
				// that a log could not answer… except delete.
				if isBuiltin(pass, x.Fun, "delete") && len(x.Args) > 0 {
					if fw := byField[mapField(pass, x.Args[0])]; fw != nil {
						fw.other = true
					}
				}
			}
		})
	})
	fields := slices.SortedFunc(maps.Keys(byField), func(a, b *types.Var) int { return cmp.Compare(byField[a].store.Pos(), byField[b].store.Pos()) })
	for _, f := range fields {
		fw := byField[f]
		if fw.other || len(fw.ranged) == 0 {
			continue
		}
		m := text(pass, fw.store.Lhs[0].(*ast.IndexExpr).X)
		pass.Report(analysis.Diagnostic{
			Category: "map-first-write",
			Pos:      fw.store.Pos(),
			Related:  []analysis.RelatedInformation{{Pos: fw.check, Message: "the check"}, {Pos: fw.ranged[0], Message: "where it is read: ranged over"}},
			Message: fmt.Sprintf("%s keeps the first value stored per key in %s (the check at line %d, the store here), a map the package otherwise only ranges over (line %d): every store hashes the key twice and grows a map for a record read only by iteration",
				fw.fn, m, pass.Fset.Position(fw.check).Line, pass.Fset.Position(fw.ranged[0]).Line),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("keep an append-only log instead (a []struct{ key; value } in place of %s) and replay it in reverse where it is ranged over: the earliest entry per key is applied last, as the map's first write wins; one append per store, no hashing (a key stored twice takes two entries)", f.Name())}},
		})
	}
	return nil, nil
}

// mapField returns the struct field of map type an expression reads
// (x.f, x.y.f), or nil; a generic type's field is its origin's.
func mapField(pass *analysis.Pass, e ast.Expr) *types.Var {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	v, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Var)
	if !ok || !v.IsField() {
		return nil
	}
	if _, isMap := v.Type().Underlying().(*types.Map); !isMap {
		return nil
	}
	return v.Origin() // one field for every instance of a generic type
}
