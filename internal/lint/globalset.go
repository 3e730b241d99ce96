package lint

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// GlobalSet reports a benchmark that sets a package-level variable of
// the package it tests (`MaxLength = 256`) and never restores it, when a
// benchmark that runs after it in the same go test process reads that
// variable, directly or through the package's functions: run together
// (go test -bench .) the later one measures with the value the earlier
// one left (slug's BenchmarkIsSlugLong timing an early return at 0.4 ns
// where it scans 900 bytes in 330 ns alone). Restored means a deferred
// or b.Cleanup function assigns it, or it is assigned back from a local
// that saved it.
var GlobalSet = newAnalyzer("globalset", "report a benchmark that sets a package variable a later benchmark reads, and never restores it", func(pass *analysis.Pass, bn bench) {
	decls := funcDeclsOf(pass)
	type set struct {
		at   ast.Node
		text string // "MaxLength = 256", "EnableRandPool() sets poolEnabled = true"
	}
	sets := map[*types.Var]set{}
	var order []*types.Var
	ast.Inspect(bn.body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false // a closure's stores (a Cleanup, a b.Run body) are not this body's
		case *ast.AssignStmt:
			if x.Tok != token.ASSIGN {
				return true
			}
			for _, l := range x.Lhs {
				if v := packageVar(pass, l); v != nil && sets[v].at == nil {
					sets[v] = set{x, oneLine(types.ExprString(x.Lhs[0]) + " = " + types.ExprString(x.Rhs[0]))}
					order = append(order, v)
				}
			}
		case *ast.CallExpr:
			// A setter of the package (EnableRandPool() sets
			// poolEnabled = true).
			fn := callee(pass, x)
			if fn == nil || decls[fn] == nil || strings.HasSuffix(pass.Fset.Position(decls[fn].Pos()).Filename, "_test.go") {
				return true
			}
			for _, st := range decls[fn].Body.List {
				as, ok := st.(*ast.AssignStmt)
				if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
					continue
				}
				if v := packageVar(pass, as.Lhs[0]); v != nil && sets[v].at == nil {
					sets[v] = set{x, oneLine(types.ExprString(x) + " sets " + types.ExprString(as.Lhs[0]) + " = " + types.ExprString(as.Rhs[0]))}
					order = append(order, v)
				}
			}
		}
		return true
	})
	if len(order) == 0 {
		return
	}
	all := benchmarks(pass)
	for _, v := range order {
		if restored(pass, bn.body, v) {
			continue
		}
		readers := readersOf(pass, v, decls)
		var later, through []string
		after := false
		for _, o := range all {
			if o.body == bn.body {
				after = true
				continue
			}
			if !after || strings.Contains(o.name, "/") || assignsVar(pass, o.body, v) || setsThrough(pass, o.body, v, decls) {
				continue
			}
			if fn := readsThrough(pass, o.body, v, readers, decls); fn != "" {
				later = append(later, o.name)
				if fn != v.Name() && !slices.Contains(through, fn) {
					through = append(through, fn)
				}
			}
		}
		if len(later) == 0 {
			continue
		}
		how := ""
		if len(through) > 0 {
			how = " (through " + strings.Join(through, ", ") + ")"
		}
		st := sets[v]
		report(pass, st.at, bn, fmt.Sprintf("sets %s (%s) and never restores it", v.Name(), st.text),
			fmt.Sprintf("%s, which %s after it in one go test process, %s it%s: run together (go test -bench .) %s with the value this benchmark left, not the package's default; run alone %s not",
				strings.Join(later, ", "), plural(later, "run", "runs"), plural(later, "read", "reads"), how, plural(later, "they measure", "it measures"), plural(later, "they do", "it does")),
			fmt.Sprintf("save and restore it: old := %s at the start, then b.Cleanup(func() { %s = old })", v.Name(), v.Name()))
	}
})

// packageVar returns the package-level variable of a non-test file that
// e names, or nil.
func packageVar(pass *analysis.Pass, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			id = sel.Sel // pkg.Var from an external test package
		} else {
			return nil
		}
	}
	v, ok := pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() {
		return nil
	}
	if strings.HasSuffix(pass.Fset.Position(v.Pos()).Filename, "_test.go") {
		return nil // the benchmarks' own variable (a sink)
	}
	return v
}

// restored reports whether a body restores v: a deferred call or a
// Cleanup function that assigns it, or an assignment from a local that
// was set from v.
func restored(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var) bool {
	saved := map[types.Object]bool{}
	found := false
	decls := funcDeclsOf(pass)
	setters := 0 // calls of the package's functions that assign v
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.DeferStmt:
			found = found || assignsVar(pass, x.Call, v) || setsThrough(pass, x.Call, v, decls)
		case *ast.CallExpr:
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Cleanup" && len(x.Args) == 1 {
				found = found || assignsVar(pass, x.Args[0], v) || setsThrough(pass, x.Args[0], v, decls)
			}
			if setsThrough(pass, x, v, decls) {
				setters++
				found = found || setters > 1 // EnableRandPool() … DisableRandPool()
			}
		case *ast.AssignStmt:
			for i, r := range x.Rhs {
				if id, ok := ast.Unparen(x.Lhs[min(i, len(x.Lhs)-1)]).(*ast.Ident); ok && i < len(x.Lhs) && packageVar(pass, r) == v {
					if o := pass.TypesInfo.ObjectOf(id); o != nil {
						saved[o] = true // old := V
					}
				}
				if i < len(x.Lhs) && packageVar(pass, x.Lhs[i]) == v {
					if id, ok := ast.Unparen(r).(*ast.Ident); ok && saved[pass.TypesInfo.Uses[id]] {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// setsThrough reports whether n calls a function of the package whose
// body assigns v (DisableRandPool's poolEnabled = false).
func setsThrough(pass *analysis.Pass, n ast.Node, v *types.Var, decls map[*types.Func]*ast.FuncDecl) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if c, ok := m.(*ast.CallExpr); ok {
			if fn := callee(pass, c); fn != nil && decls[fn] != nil && assignsVar(pass, decls[fn].Body, v) {
				found = true
			}
		}
		return !found
	})
	return found
}

// assignsVar reports whether n assigns v anywhere.
func assignsVar(pass *analysis.Pass, n ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		if as, ok := m.(*ast.AssignStmt); ok {
			for _, l := range as.Lhs {
				found = found || packageVar(pass, l) == v
			}
		}
		return !found
	})
	return found
}

// readersOf returns the package's functions (in non-test files) that
// read v.
func readersOf(pass *analysis.Pass, v *types.Var, decls map[*types.Func]*ast.FuncDecl) map[*types.Func]bool {
	out := map[*types.Func]bool{}
	for fn, fd := range decls {
		if fd.Body == nil || strings.HasSuffix(pass.Fset.Position(fd.Pos()).Filename, "_test.go") {
			continue
		}
		stored := map[*ast.Ident]bool{} // v = …: a store, not a read
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && as.Tok == token.ASSIGN {
				for _, l := range as.Lhs {
					if id, ok := ast.Unparen(l).(*ast.Ident); ok {
						stored[id] = true
					}
				}
			}
			if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == v && !stored[id] {
				out[fn] = true
			}
			return !out[fn]
		})
	}
	return out
}

// readsThrough names how a benchmark body reads v: v itself, or the
// first function it calls (to a depth of three) that reads it; "" when
// it does not.
func readsThrough(pass *analysis.Pass, body *ast.BlockStmt, v *types.Var, readers map[*types.Func]bool, decls map[*types.Func]*ast.FuncDecl) string {
	out := ""
	ast.Inspect(body, func(n ast.Node) bool {
		if out != "" {
			return false
		}
		switch x := n.(type) {
		case *ast.Ident:
			if pass.TypesInfo.Uses[x] == v {
				out = v.Name()
			}
		case *ast.CallExpr:
			fn := callee(pass, x)
			if fn == nil {
				return true
			}
			for f := range reachable(pass, fn, decls, 2) {
				if readers[f] {
					out = fn.Name()
					break
				}
			}
		}
		return true
	})
	return out
}

// oneLine joins a source text's lines.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// plural picks the words for one or more benchmarks.
func plural(names []string, many, one string) string {
	if len(names) > 1 {
		return many
	}
	return one
}
