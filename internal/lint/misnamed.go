package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Misnamed reports a benchmark named for one of its package's exported
// functions that never calls it, directly or through the functions it
// calls (a method of the package of the same name counts: lz4's
// BenchmarkCompressBlock times Compressor.CompressBlock through the
// function values a helper makes): BenchmarkBigCommaf timing Commaf. Its numbers stand for another
// function than the one its name promises, which is how a cost of 19
// allocations reads as 4.
var Misnamed = newAnalyzer("misnamed", "report a benchmark named for a function of its package that it never calls", func(pass *analysis.Pass, bn bench) {
	if len(bn.callers) > 0 || strings.Contains(bn.name, "/") {
		return // a helper's or a sub-benchmark's name says nothing
	}
	name, _, _ := strings.Cut(strings.TrimPrefix(bn.name, "Benchmark"), "_")
	pkg := testedPackage(pass)
	target, ok := pkg.Scope().Lookup(name).(*types.Func)
	if !ok || !target.Exported() {
		return
	}
	decls := funcDeclsOf(pass)
	if reaches(pass, bn.body, target, decls, 2) {
		return
	}
	// What it calls instead: the package's exported functions.
	var called []string
	ast.Inspect(bn.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if fn := callee(pass, c); fn != nil && fn.Pkg() == pkg && fn.Exported() && fn != target && !slices.Contains(called, fn.Name()) {
			called = append(called, fn.Name())
		}
		return true
	})
	if len(called) == 0 {
		return // it measures something else entirely: not a name slip
	}
	// The named function and what it times sharing their
	// implementation (Throttle and ThrottleBacklog both wrapping
	// ThrottleWithOpts) are one feature under two entry points.
	shared := reachable(pass, target, decls, 2)
	for _, c := range called {
		if fn, ok := pkg.Scope().Lookup(c).(*types.Func); ok {
			for f := range reachable(pass, fn, decls, 2) {
				if shared[f] {
					return
				}
			}
		}
	}
	report(pass, bn.body, bn, fmt.Sprintf("named for %s, which it never calls: it times %s", name, strings.Join(called, ", ")),
		fmt.Sprintf("its numbers are %s's, read as %s's", strings.Join(called, ", "), name),
		fmt.Sprintf("call %s in the loop, or rename the benchmark for what it times", name))
})

// testedPackage is the package a test package's benchmarks test: the
// package itself, or for an external test package (p_test) the package p
// it imports.
func testedPackage(pass *analysis.Pass) *types.Package {
	if path, ok := strings.CutSuffix(pass.Pkg.Path(), "_test"); ok {
		for _, imp := range pass.Pkg.Imports() {
			if imp.Path() == path {
				return imp
			}
		}
	}
	return pass.Pkg
}

// funcDeclsOf indexes the package's function declarations by object.
func funcDeclsOf(pass *analysis.Pass) map[*types.Func]*ast.FuncDecl {
	out := map[*types.Func]*ast.FuncDecl{}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					out[fn] = fd
				}
			}
		}
	}
	return out
}

// reaches reports whether n mentions target, or calls a function of the
// package that does, within depth calls.
func reaches(pass *analysis.Pass, n ast.Node, target *types.Func, decls map[*types.Func]*ast.FuncDecl, depth int) bool {
	found := false
	var next []*ast.FuncDecl
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
		if !ok {
			return true
		}
		if fn.Origin() == target || sameNameMethod(fn, target) {
			found = true
		} else if fd := decls[fn.Origin()]; fd != nil {
			next = append(next, fd)
		}
		return true
	})
	if found || depth == 0 {
		return found
	}
	for _, fd := range next {
		if reaches(pass, fd.Body, target, decls, depth-1) {
			return true
		}
	}
	return false
}

// sameNameMethod reports whether fn is a method of a type of target's
// package with target's name (Compressor.CompressBlock for the function
// CompressBlock): the operation the name promises, on a value the caller
// keeps.
func sameNameMethod(fn, target *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil && fn.Name() == target.Name() && fn.Pkg() == target.Pkg()
}

// reachable returns the package's functions fn is or calls, within depth
// calls.
func reachable(pass *analysis.Pass, fn *types.Func, decls map[*types.Func]*ast.FuncDecl, depth int) map[*types.Func]bool {
	out := map[*types.Func]bool{fn.Origin(): true}
	frontier := []*types.Func{fn.Origin()}
	for ; depth > 0 && len(frontier) > 0; depth-- {
		var next []*types.Func
		for _, f := range frontier {
			fd := decls[f]
			if fd == nil {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					if g, ok := pass.TypesInfo.Uses[id].(*types.Func); ok && decls[g.Origin()] != nil && !out[g.Origin()] {
						out[g.Origin()] = true
						next = append(next, g.Origin())
					}
				}
				return true
			})
		}
		frontier = next
	}
	return out
}
