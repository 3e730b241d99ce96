package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Mutated reports a b.N loop that hands the same slice, made before the
// loop, to a function of the package that writes into it in place (an
// element stored, a copy into it, an append into its backing array such
// as a splice that shifts its tail), and never makes it again: from the
// second iteration on the function works on what the first left, not on
// the input the benchmark built. go-diff's BenchmarkDiffCleanupSemantic
// times a cleanup of an already cleaned, shorter list: about a third of
// the cost on the real input.
var Mutated = newAnalyzer("mutated", "report a b.N loop that hands a function the same slice it changes in place", func(pass *analysis.Pass, bn bench) {
	decls := funcDeclsOf(pass)
	var writes map[*types.Func]map[int]bool
	if v, ok := passWriters.Load(pass); ok {
		writes = v.(map[*types.Func]map[int]bool)
	} else {
		writes = writers(pass, decls)
		passWriters.Store(pass, writes)
	}
	ls, kinds := loops(pass, bn.body, bn)
	for i, l := range ls {
		if kinds[i] == notBenchLoop {
			continue
		}
		body := loopBody(l)
		ast.Inspect(body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			fn := callee(pass, call)
			if fn == nil || writes[fn] == nil {
				return true
			}
			for j, a := range call.Args {
				id, ok := ast.Unparen(a).(*ast.Ident)
				if !ok || !writes[fn][j] || !readsParam(pass, decls[fn], j) {
					continue // an output buffer the function only fills is reused rightly
				}
				v, ok := pass.TypesInfo.ObjectOf(id).(*types.Var)
				if !ok || v.Pos() > l.Pos() && v.Pos() < l.End() || assignedWithin(pass, body, v) {
					continue // made in the loop, or made again there
				}
				if _, isSlice := v.Type().Underlying().(*types.Slice); !isSlice {
					continue
				}
				report(pass, call, bn,
					fmt.Sprintf("%s changes %s in place, and the loop hands it the same %s every iteration", oneLine(types.ExprString(call)), id.Name, id.Name),
					"from the second iteration on it works on what the first left, not on the input the benchmark built: the number is another input's",
					fmt.Sprintf("give each iteration a fresh copy (copy %s into a slice made before the loop, with the timer stopped if the copy is not part of the work) or rebuild it", id.Name))
			}
			return true
		})
	}
})

// passWriters caches writers per pass: every benchmark of a package asks.
var passWriters sync.Map // *analysis.Pass → map[*types.Func]map[int]bool

// writers returns, for the package's functions, the parameters (by index)
// of slice type each writes into in place: an element stored (p[i] = …),
// a copy into it (copy(p[…], …)), an append into its backing array
// (append(p[:i], …), which overwrites what follows i), or the parameter
// handed to a function that does — followed through the package's calls.
func writers(pass *analysis.Pass, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]map[int]bool {
	out := map[*types.Func]map[int]bool{}
	mark := func(fn *types.Func, i int) bool {
		if out[fn] == nil {
			out[fn] = map[int]bool{}
		}
		if out[fn][i] {
			return false
		}
		out[fn][i] = true
		return true
	}
	for changed := true; changed; {
		changed = false
		for fn, fd := range decls {
			if fd.Body == nil {
				continue
			}
			params := map[*types.Var]int{}
			i := 0
			for _, fl := range fd.Type.Params.List {
				for _, n := range fl.Names {
					if v, ok := pass.TypesInfo.Defs[n].(*types.Var); ok {
						if _, isSlice := v.Type().Underlying().(*types.Slice); isSlice {
							params[v] = i
						}
					}
					i++
				}
				if len(fl.Names) == 0 {
					i++
				}
			}
			if len(params) == 0 {
				continue
			}
			param := func(e ast.Expr) (int, bool) {
				for {
					switch x := ast.Unparen(e).(type) {
					case *ast.SliceExpr:
						e = x.X
						continue
					case *ast.Ident:
						if v, ok := pass.TypesInfo.ObjectOf(x).(*types.Var); ok {
							k, ok := params[v]
							return k, ok && !reassigned(pass, fd.Body, v)
						}
					}
					return 0, false
				}
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.AssignStmt:
					for _, l := range x.Lhs {
						if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
							if k, ok := param(ix.X); ok && mark(fn, k) {
								changed = true
							}
						}
					}
				case *ast.CallExpr:
					if b, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && len(x.Args) > 0 {
						if _, builtin := pass.TypesInfo.Uses[b].(*types.Builtin); builtin {
							switch {
							case b.Name == "copy":
								if k, ok := param(x.Args[0]); ok && mark(fn, k) {
									changed = true
								}
							case b.Name == "append":
								if s, ok := ast.Unparen(x.Args[0]).(*ast.SliceExpr); ok && s.High != nil {
									if k, ok := param(s.X); ok && mark(fn, k) {
										changed = true
									}
								}
							}
							return true
						}
					}
					g := callee(pass, x)
					if g == nil || out[g] == nil {
						return true
					}
					for j, a := range x.Args {
						if !out[g][j] {
							continue
						}
						if k, ok := param(a); ok && mark(fn, k) {
							changed = true
						}
					}
				}
				return true
			})
		}
	}
	return out
}

// reassigned reports whether v is assigned with = in body before any use
// that writes it: a parameter made anew (p = make(…)) is no longer the
// caller's.
func reassigned(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return !found
		}
		for i, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok || pass.TypesInfo.ObjectOf(id) != v {
				continue
			}
			if call, ok := ast.Unparen(as.Rhs[i]).(*ast.CallExpr); ok {
				if b, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && b.Name == "make" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// assignedWithin reports whether v is assigned in body.
func assignedWithin(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	return assigns(pass, body, v, false)
}

// assigns reports whether an assignment in body has v on its left: v
// itself, or an element of it (v[i] = …) when indexed.
func assigns(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, indexed bool) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok {
			return !found
		}
		for _, l := range as.Lhs {
			l = ast.Unparen(l)
			if ix, ok := l.(*ast.IndexExpr); ok && indexed {
				l = ast.Unparen(ix.X)
			} else if indexed {
				continue
			}
			if id, ok := l.(*ast.Ident); ok && pass.TypesInfo.ObjectOf(id) == v {
				found = true
			}
		}
		return !found
	})
	return found
}

// readsParam reports whether fd reads the elements of its j-th parameter:
// ranges over it or reads an element (not only stores one): an input,
// not an output buffer it fills.
func readsParam(pass *analysis.Pass, fd *ast.FuncDecl, j int) bool {
	if fd == nil || fd.Body == nil {
		return false
	}
	var v *types.Var
	i := 0
	for _, fl := range fd.Type.Params.List {
		for _, n := range fl.Names {
			if i == j {
				v, _ = pass.TypesInfo.Defs[n].(*types.Var)
			}
			i++
		}
		if len(fl.Names) == 0 {
			i++
		}
	}
	if v == nil {
		return false
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && pass.TypesInfo.ObjectOf(id) == v
	}
	stored := map[ast.Expr]bool{}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				stored[ast.Unparen(l)] = true
			}
		case *ast.RangeStmt:
			found = found || is(x.X) && (x.Value != nil || x.Key != nil)
		case *ast.IndexExpr:
			found = found || is(x.X) && !stored[x]
		case *ast.SelectorExpr:
			if ix, ok := ast.Unparen(x.X).(*ast.IndexExpr); ok && is(ix.X) && !stored[x] {
				found = true // diffs[i].Type
			}
		}
		return !found
	})
	return found
}
