package site

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
)

// SetSizedByInput finds a map sized by the count of a function's input
// (make(map[K]V, len(nodes))) that holds something else: keys derived
// from each element (set[n.Parent]) or the results of a callback, stored
// here or by a function of the package it is handed to. A set that
// deduplicates results holds the distinct results, which can be far fewer
// than the inputs (siblings share one parent: a table allocated and
// cleared for nothing) or far more (each input yields many: the table
// grows and rehashes as it fills). goquery's getParentNodes sizes its set
// for 373 nodes to hold 55 parents (10 KiB per call; −79% B/op, −65% time
// with a set built from the results, measured by hand); mapNodes sizes
// its set for 54 nodes to hold 293 siblings.
var SetSizedByInput = &analysis.Analyzer{
	Name: "setsized",
	Doc:  "a map sized by the input's count that holds keys derived from it",
	Run:  runSetSizedByInput,
}

func runSetSizedByInput(pass *analysis.Pass) (any, error) {
	storesParam := paramStores(pass)
	eachFuncDecl(pass, func(fd *ast.FuncDecl) {
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
				return
			}
			mk, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, mk.Fun, "make") || len(mk.Args) != 2 {
				return
			}
			if _, isMap := typeUnder(pass, mk.Args[0]).(*types.Map); !isMap {
				return
			}
			hint, ok := ast.Unparen(mk.Args[1]).(*ast.CallExpr)
			if !ok || !isBuiltin(pass, hint.Fun, "len") || len(hint.Args) != 1 {
				return
			}
			input := objOf(pass, hint.Args[0])
			m := objOf(pass, as.Lhs[0])
			if input == nil || m == nil {
				return
			}
			// The elements of the input, as the loops over it name them.
			elems := map[types.Object]bool{}
			var derived ast.Node
			var what string
			inspectBody(fd.Body, func(x ast.Node) {
				switch s := x.(type) {
				case *ast.RangeStmt:
					if objOf(pass, s.X) != input {
						return
					}
					elem := s.Value
					if _, isMap := typeUnder(pass, s.X).(*types.Map); isMap {
						elem = s.Key // a map's keys are its elements
					}
					if elem != nil {
						if o := objOf(pass, elem); o != nil {
							elems[o] = true
						}
					}
				}
			})
			inspectBody(fd.Body, func(x ast.Node) {
				if derived != nil {
					return
				}
				switch s := x.(type) {
				case *ast.AssignStmt:
					for _, l := range s.Lhs {
						ix, ok := ast.Unparen(l).(*ast.IndexExpr)
						if !ok || objOf(pass, ix.X) != m {
							continue
						}
						if k := objOf(pass, ix.Index); k != nil && elems[k] {
							continue // the input's own elements: sized right
						}
						derived, what = s, fmt.Sprintf("%s[%s]", m.Name(), oneLine(types.ExprString(ix.Index)))
					}
				case *ast.CallExpr:
					fn := calledFunc(pass, s)
					if fn == nil {
						return
					}
					for i, a := range s.Args {
						if objOf(pass, a) == m && storesParam[fn][i] {
							derived, what = s, fmt.Sprintf("%s stores into it", fn.Name())
						}
					}
				}
			})
			if derived == nil {
				return
			}
			if _, isCall := derived.(*ast.CallExpr); !isCall && !skipsSeen(pass, fd.Body, m) {
				// Stores of derived keys that never skip one already
				// there (an index of each element by its name): one
				// per element, sized right. A set that dedupes skips
				// what it holds: its count is the results'.
				return
			}
			pass.Report(analysis.Diagnostic{
				Category: "set-sized-by-input",
				Pos:      mk.Pos(),
				Related:  []analysis.RelatedInformation{{Pos: derived.Pos(), Message: "what it holds"}},
				Message: fmt.Sprintf("%s sizes %s by len(%s), the count of its input, but it holds what the function derives from the input (%s, line %d), not its elements: the distinct results, which can be far fewer than the inputs (a table allocated and cleared for nothing) or far more (it grows and rehashes as it fills)",
					fd.Name.Name, m.Name(), input.Name(), what, pass.Fset.Position(derived.Pos()).Line),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "size it from what it holds, not from the input: no hint (it grows with the distinct results), or a count of the results where one is at hand; for a few results, a linear scan of the result slice, or a test against the last one added when duplicates arrive together, dedupes without a map"}},
			})
		})
	})
	return nil, nil
}

// paramStores returns, for each function of the package, which of its
// map parameters it stores into (targetSet[n] = true).
func paramStores(pass *analysis.Pass) map[*types.Func]map[int]bool {
	out := map[*types.Func]map[int]bool{}
	for fd := range funcDecls(pass) {
		fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if fn == nil {
			continue
		}
		params := fn.Type().(*types.Signature).Params()
		index := map[types.Object]int{}
		for i := 0; i < params.Len(); i++ {
			if _, ok := params.At(i).Type().Underlying().(*types.Map); ok {
				index[params.At(i)] = i
			}
		}
		if len(index) == 0 {
			continue
		}
		inspectBody(fd.Body, func(n ast.Node) {
			as, ok := n.(*ast.AssignStmt)
			if !ok {
				return
			}
			for _, l := range as.Lhs {
				ix, ok := ast.Unparen(l).(*ast.IndexExpr)
				if !ok {
					continue
				}
				if i, ok := index[objOf(pass, ix.X)]; ok {
					if out[fn] == nil {
						out[fn] = map[int]bool{}
					}
					out[fn][i] = true
				}
			}
		})
	}
	return out
}

// skipsSeen reports whether body skips an element when m holds its key: an
// if whose condition reads m and whose body is continue (if set[p] {
// continue }).
func skipsSeen(pass *analysis.Pass, body *ast.BlockStmt, m types.Object) bool {
	found := false
	inspectBody(body, func(n ast.Node) {
		is, ok := n.(*ast.IfStmt)
		if !ok || found || len(is.Body.List) != 1 {
			return
		}
		br, ok := is.Body.List[0].(*ast.BranchStmt)
		if !ok || br.Tok != token.CONTINUE {
			return
		}
		ast.Inspect(is.Cond, func(x ast.Node) bool {
			if ix, ok := x.(*ast.IndexExpr); ok && objOf(pass, ix.X) == m {
				found = true
			}
			return !found
		})
	})
	return found
}
