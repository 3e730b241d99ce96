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

// MapSwept finds a map field the package stores into (and deletes from)
// by key but never reads by key: it only ranges over it, in a sweep (an
// expirable cache's expiry buckets, read by the janitor that deletes
// what expired):
//
//	c.buckets[id].entries[e.Key] = e   // every Add
//	delete(c.buckets[e.Bucket].entries, e.Key)   // every update, every eviction
//	…
//	for _, e := range c.buckets[i].entries { … }   // the sweep
//
// Every store and delete hashes the key to keep an index no lookup uses.
// A walk needs a list, not a map: the entries linked through two
// pointers they carry (intrusive, unlinked in O(1) with no hashing). Only
// a map keyed by a field of the entry it stores (m[e.Key] = e) and
// deleted from by key: one with no deletes may be there to keep one
// value per key.
var MapSwept = &analysis.Analyzer{
	Name: "mapswept",
	Doc:  "a map field stored into by key but only ever read by ranging over it",
	Run:  runMapSwept,
}

type sweptMap struct {
	store   *ast.AssignStmt
	fn      string
	deletes []token.Pos
	ranged  token.Pos
	ranger  string
	read    bool // read by key (m[k] as a value, v, ok := m[k]): a real map
	uses    int  // every mention of the field
	known   int  // the mentions above, and len, clear, the field assigned
}

func runMapSwept(pass *analysis.Pass) (any, error) {
	byField := map[*types.Var]*sweptMap{}
	stores := map[*ast.IndexExpr]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			st, ok := n.(*ast.AssignStmt)
			if !ok || st.Tok != token.ASSIGN || len(st.Lhs) != 1 {
				return
			}
			ix, ok := st.Lhs[0].(*ast.IndexExpr)
			if !ok {
				return
			}
			f := mapField(pass, ix.X)
			if f == nil {
				return
			}
			stores[ix] = true
			if byField[f] == nil {
				byField[f] = &sweptMap{store: st, fn: fd.Name.Name}
			}
		})
	})
	if len(byField) == 0 {
		return nil, nil
	}
	clearing := map[*ast.CallExpr]bool{} // the delete of a loop that empties the map
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectAll(fd.Body, func(n ast.Node) {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if m := byField[mapField(pass, x)]; m != nil {
					m.uses++
				}
			case *ast.RangeStmt:
				if m := byField[mapField(pass, x.X)]; m != nil {
					m.known++
					if d := clearLoop(pass, x); d != nil {
						clearing[d] = true // clear(m): not a read
					} else if !m.ranged.IsValid() {
						m.ranged, m.ranger = x.Pos(), fd.Name.Name
					}
				}
			case *ast.IndexExpr:
				if m := byField[mapField(pass, x.X)]; m != nil {
					m.known++
					if !stores[x] {
						m.read = true
					}
				}
			case *ast.AssignStmt:
				for _, l := range x.Lhs {
					if m := byField[mapField(pass, l)]; m != nil {
						m.known++ // the field made or replaced
					}
				}
			case *ast.CallExpr:
				for _, b := range []string{"delete", "len", "clear"} {
					if !isBuiltin(pass, x.Fun, b) || len(x.Args) == 0 {
						continue
					}
					if m := byField[mapField(pass, x.Args[0])]; m != nil {
						m.known++
						if b == "delete" && !clearing[x] {
							m.deletes = append(m.deletes, x.Pos())
						}
					}
				}
			}
		})
	})
	fields := slices.SortedFunc(maps.Keys(byField), func(a, b *types.Var) int { return cmp.Compare(byField[a].store.Pos(), byField[b].store.Pos()) })
	for _, f := range fields {
		m := byField[f]
		if m.read || m.uses > m.known || !m.ranged.IsValid() {
			continue
		}
		mt := f.Type().Underlying().(*types.Map)
		name := text(pass, m.store.Lhs[0].(*ast.IndexExpr).X)
		var fix string
		switch node := pointedStruct(mt.Elem()); {
		case len(m.deletes) == 0:
			continue // a map with no deletes may be there to keep one value per key
		case node != nil && keyedByOwnField(pass, m.store):
			fix = fmt.Sprintf("link the entries into a list in place of %s: two pointers in %s (intrusive, as a list node carries its own links), an insert and an unlink in O(1) with no hashing, and walk the list where the map is ranged over", f.Name(), node.Obj().Name())
		default:
			continue // deleted by key, values not nodes: the map is the index
		}
		rel := []analysis.RelatedInformation{{Pos: m.ranged, Message: "where it is read: ranged over"}}
		for _, d := range m.deletes {
			rel = append(rel, analysis.RelatedInformation{Pos: d, Message: "a delete by key"})
		}
		what := "stores into"
		if len(m.deletes) > 0 {
			what = fmt.Sprintf("stores into and deletes from (line %d)", pass.Fset.Position(m.deletes[0]).Line)
		}
		pass.Report(analysis.Diagnostic{
			Category: "map-swept",
			Pos:      m.store.Pos(),
			Related:  rel,
			Message: fmt.Sprintf("%s %s %s by key, a map the package reads only by ranging over it (%s, line %d): every store and delete hashes the key to keep an index no lookup uses",
				m.fn, what, name, m.ranger, pass.Fset.Position(m.ranged).Line),
			SuggestedFixes: []analysis.SuggestedFix{{Message: fix}},
		})
	}
	return nil, nil
}

// pointedStruct returns the named struct type a pointer type points to
// (*Entry, *internal.Entry[K, V]), or nil.
func pointedStruct(t types.Type) *types.Named {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return nil
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	if !ok {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n
}

// clearLoop returns the delete of a range loop whose body only deletes
// the key it ranges over from the same map — clear(m) written out — or
// nil.
func clearLoop(pass *analysis.Pass, r *ast.RangeStmt) *ast.CallExpr {
	if len(r.Body.List) != 1 {
		return nil
	}
	es, ok := r.Body.List[0].(*ast.ExprStmt)
	if !ok {
		return nil
	}
	c, ok := es.X.(*ast.CallExpr)
	if !ok || !isBuiltin(pass, c.Fun, "delete") || len(c.Args) != 2 || text(pass, c.Args[0]) != text(pass, r.X) {
		return nil
	}
	return c
}

// keyedByOwnField reports whether a store keys the map by a field of the
// value it stores (m[e.Key] = e): the entry carries its own key, so it
// can be its own list node.
func keyedByOwnField(pass *analysis.Pass, st *ast.AssignStmt) bool {
	ix := st.Lhs[0].(*ast.IndexExpr)
	sel, ok := ast.Unparen(ix.Index).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	v, ok := ast.Unparen(st.Rhs[0]).(*ast.Ident)
	x, ok2 := ast.Unparen(sel.X).(*ast.Ident)
	return ok && ok2 && pass.TypesInfo.ObjectOf(v) != nil && pass.TypesInfo.ObjectOf(v) == pass.TypesInfo.ObjectOf(x)
}
