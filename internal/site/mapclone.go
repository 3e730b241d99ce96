package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// MapCloneByHand finds a map made to be a copy of another of the same
// type and filled entry by entry:
//
//	clonedSet := newThreadUnsafeSetWithSize[T](s.Cardinality())
//	for elem := range *s {
//		clonedSet.add(elem)
//	}
//
// Each entry is hashed and inserted again, where maps.Clone (Go 1.21)
// copies the table as it is, with no key hashed: about a third of the
// time for a small map, the same memory. A loop that filters or changes
// the entries is work, not a copy, and is left alone.
var MapCloneByHand = &analysis.Analyzer{
	Name: "mapclonebyhand",
	Doc:  "a map of one type filled entry by entry from another of the same type, with nothing changed: maps.Clone",
	Run:  runMapCloneByHand,
}

func runMapCloneByHand(pass *analysis.Pass) (any, error) {
	needs := ""
	if v := moduleGo(pass); v != "" && versionLess(v, "1.21") {
		// No maps package at the module's language version.
		needs = fmt.Sprintf(" (the module says go %s: raise it to 1.21, or keep the loop in a file built for older releases and the clone in one with a //go:build go1.21 constraint)", v)
	}
	// Methods whose whole body stores their one parameter as a key of
	// their receiver's map: a set's add.
	adders := map[*types.Func]bool{}
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		if fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 || len(fd.Body.List) != 1 || fd.Type.Params.NumFields() != 1 {
			return
		}
		recv := pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
		as, ok := fd.Body.List[0].(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
			return
		}
		ix, ok := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
		if !ok || exprRoot(ix.X) == nil || pass.TypesInfo.Uses[exprRoot(ix.X)] != recv {
			return
		}
		if _, isMap := typeUnder(pass, ix.X).(*types.Map); !isMap {
			return
		}
		if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			adders[fn] = true
		}
	})
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			rs, ok := n.(*ast.RangeStmt)
			if !ok || rs.Key == nil || len(rs.Body.List) != 1 {
				return
			}
			src, isMap := typeUnder(pass, rs.X).(*types.Map)
			if !isMap {
				return
			}
			st, ok := rs.Body.List[0].(*ast.ExprStmt)
			var dst ast.Expr
			switch {
			case ok:
				call, isCall := st.X.(*ast.CallExpr)
				if !isCall || len(call.Args) != 1 || !sameIdent(pass, call.Args[0], rs.Key) {
					return
				}
				sel, isSel := call.Fun.(*ast.SelectorExpr)
				if !isSel {
					return
				}
				fn, isFn := pass.TypesInfo.Uses[sel.Sel].(*types.Func)
				if !isFn || !adders[fn.Origin()] || rs.Value != nil && !isBlank(rs.Value) {
					return
				}
				dst = sel.X
			default:
				as, isAssign := rs.Body.List[0].(*ast.AssignStmt)
				if !isAssign || as.Tok != token.ASSIGN || len(as.Lhs) != 1 {
					return
				}
				ix, isIndex := ast.Unparen(as.Lhs[0]).(*ast.IndexExpr)
				if !isIndex || !sameIdent(pass, ix.Index, rs.Key) {
					return
				}
				if rs.Value != nil && !isBlank(rs.Value) && !sameIdent(pass, as.Rhs[0], rs.Value) {
					return
				}
				if rs.Value == nil || isBlank(rs.Value) {
					if _, isLit := ast.Unparen(as.Rhs[0]).(*ast.CompositeLit); !isLit {
						return // a value computed per key: not a copy
					}
				}
				dst = ix.X
			}
			dt := typeUnder(pass, dst)
			if p, ok := dt.(*types.Pointer); ok {
				dt = p.Elem().Underlying() // a *set whose add stores into *s
			}
			d, isMap := dt.(*types.Map)
			if !isMap || !types.Identical(d, src) {
				return
			}
			v := exprRoot(dst)
			if v == nil || pass.TypesInfo.Uses[v] == nil || pass.TypesInfo.Uses[v].Pos() < fd.Body.Pos() {
				return // a map it was given, not one it makes
			}
			if filledElsewhere(pass, fd.Body, rs, pass.TypesInfo.Uses[v], adders) {
				return // a union of several maps: no one map's copy
			}
			pass.Report(analysis.Diagnostic{
				Category: "map-clone-by-hand",
				Pos:      rs.Pos(),
				Message: fmt.Sprintf("%s fills %s with every entry of %s, one insert per entry (line %d): each key is hashed and inserted again to make an exact copy",
					fd.Name.Name, oneLine(text(pass, dst)), oneLine(text(pass, rs.X)), pass.Fset.Position(rs.Body.List[0].Pos()).Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf(
					"copy the table as it is: maps.Clone(%s) (Go 1.21) hashes no key; the loop and the sized make it fills go%s", oneLine(text(pass, rs.X)), needs)}},
			})
		})
	})
	return nil, nil
}

// filledElsewhere reports whether body, outside the loop rs, stores into
// the map v is (an index store, delete aside) or calls one of its adders.
func filledElsewhere(pass *analysis.Pass, body *ast.BlockStmt, rs *ast.RangeStmt, v types.Object, adders map[*types.Func]bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if n == rs || found {
			return false
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && exprRoot(ix.X) != nil && pass.TypesInfo.Uses[exprRoot(ix.X)] == v {
					found = true
				}
			}
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				if fn, ok := pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && adders[fn.Origin()] && exprRoot(sel.X) != nil && pass.TypesInfo.Uses[exprRoot(sel.X)] == v {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isBlank reports whether e is the blank identifier.
func isBlank(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && id.Name == "_"
}
