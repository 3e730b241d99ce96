package site

import (
	"fmt"
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// BoundPerItem finds a loop over a sorted slice that compares every
// element with a bound the loop does not change, to find where to stop,
// when the function already binary-searches that slice with the same
// comparator (a B-tree node's range iteration):
//
//	index, _ = n.items.find(start.item, n.cow.less)   // sorted: searched
//	for i := index; i < len(n.items); i++ {
//		…
//		if stop.valid && !n.cow.less(n.items[i], stop.item) {   // every item
//			return hit, false
//		}
//		…
//	}
//
// The comparator runs once per element visited; the same search finds
// the stop position in log n comparisons, and the loop then compares
// indexes.
var BoundPerItem = &analysis.Analyzer{
	Name: "boundperitem",
	Doc:  "a loop over a sorted slice comparing every element with a fixed bound the function could binary-search for",
	Run:  runBoundPerItem,
}

func runBoundPerItem(pass *analysis.Pass) (any, error) {
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		// The searches of the function: slice text → comparator texts
		// and the line of the search.
		type search struct {
			cmp  string
			line int
		}
		searched := map[string][]search{}
		inspectBody(fd.Body, func(n ast.Node) {
			c, ok := n.(*ast.CallExpr)
			if !ok {
				return
			}
			sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
			if !ok || !isSearch(sel.Sel.Name) {
				return
			}
			// s.find(x, less) — a method of the slice — or
			// slices.BinarySearchFunc(s, x, cmp).
			recv, args := sel.X, c.Args
			if _, isPkg := pass.TypesInfo.Uses[identOf(sel.X)].(*types.PkgName); isPkg && len(args) > 0 {
				recv, args = args[0], args[1:]
			}
			for _, a := range args {
				if isFuncValue(pass, a) {
					searched[text(pass, recv)] = append(searched[text(pass, recv)], search{text(pass, a), pass.Fset.Position(c.Pos()).Line})
				}
			}
		})
		if len(searched) == 0 {
			return
		}
		inspectBody(fd.Body, func(n ast.Node) {
			loop, ok := n.(*ast.ForStmt)
			if !ok {
				return
			}
			iv := loopIndex(pass, loop)
			if iv == nil {
				return
			}
			for _, st := range loop.Body.List {
				is, ok := st.(*ast.IfStmt)
				if !ok || !leaves(is.Body.List) {
					continue
				}
				ast.Inspect(is.Cond, func(n ast.Node) bool {
					c, ok := n.(*ast.CallExpr)
					if !ok || len(c.Args) != 2 {
						return true
					}
					cmp := text(pass, c.Fun)
					for j, a := range c.Args {
						ix, ok := ast.Unparen(a).(*ast.IndexExpr)
						if !ok || !isObj(pass, ix.Index, iv) {
							continue
						}
						bound := c.Args[1-j]
						if usesObj(pass, bound, iv) || boundAssigned(pass, loop.Body, bound) {
							continue
						}
						s := text(pass, ix.X)
						for _, se := range searched[s] {
							if se.cmp != cmp {
								continue
							}
							b := oneLine(types.ExprString(bound))
							// The loop's lines: the comparison is a
							// cost of every iteration.
							var rel []analysis.RelatedInformation
							tf := pass.Fset.File(loop.Pos())
							for l := tf.Line(loop.Pos()); l <= tf.Line(loop.End()); l++ {
								if l != tf.Line(is.Pos()) {
									rel = append(rel, analysis.RelatedInformation{Pos: tf.LineStart(l), Message: "the loop"})
								}
							}
							pass.Report(analysis.Diagnostic{
								Category: "bound-per-item",
								Pos:      is.Pos(),
								Related:  rel,
								Message: fmt.Sprintf("%s compares every element of %s with %s through %s (line %d) to find where the loop stops, though it binary-searches %s with the same comparator (line %d)",
									fd.Name.Name, s, b, cmp, pass.Fset.Position(is.Pos()).Line, s, se.line),
								SuggestedFixes: []analysis.SuggestedFix{{Message: fmt.Sprintf("find the stop position once, with the same binary search for %s in %s, before the loop, and run the loop to that index comparing indexes: about log n comparisons per call (once per node) instead of one per element", b, s)}},
							})
							return false
						}
					}
					return true
				})
			}
		})
	})
	return nil, nil
}

// isSearch reports whether a function name is a binary search's.
func isSearch(name string) bool {
	switch name {
	case "find", "search", "Search", "BinarySearch", "BinarySearchFunc", "SearchFunc", "lowerBound", "upperBound":
		return true
	}
	return false
}

// isFuncValue reports whether an expression is a function value (a
// comparator passed to a search).
func isFuncValue(pass *analysis.Pass, e ast.Expr) bool {
	_, ok := typeUnder(pass, e).(*types.Signature)
	return ok
}

// loopIndex returns the variable a three-clause loop steps by one (i++
// or i--), or nil.
func loopIndex(pass *analysis.Pass, loop *ast.ForStmt) types.Object {
	inc, ok := loop.Post.(*ast.IncDecStmt)
	if !ok {
		return nil
	}
	id, ok := inc.X.(*ast.Ident)
	if !ok {
		return nil
	}
	return pass.TypesInfo.ObjectOf(id)
}

// boundAssigned reports whether a block assigns a variable an expression
// reads.
func boundAssigned(pass *analysis.Pass, body *ast.BlockStmt, e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := pass.TypesInfo.Uses[id].(*types.Var); ok && assignedIn(pass, body, v) {
				found = true
			}
		}
		return !found
	})
	return found
}
