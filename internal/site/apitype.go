package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// APIType finds the types a package's API is built around: an exported
// struct type with at least apiMethodsMin exported methods and an
// exported function that returns it (ristretto's Cache: NewCache, Get,
// Set, Del, …). The shape lists them, by the names profiles give them, in
// its related lines: the report tells when no benchmark runs any of them.
var APIType = &analysis.Analyzer{
	Name: "apitype",
	Doc:  "an exported type with its constructor and exported methods: the API a benchmark of the package would run",
	Run:  runAPIType,
}

// apiMethodsMin is the fewest exported methods of an API type.
const apiMethodsMin = 3

func runAPIType(pass *analysis.Pass) (any, error) {
	ctors := map[*types.TypeName][]*types.Func{}
	var decls []*ast.TypeSpec
	for _, f := range pass.Files {
		if isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				fn, ok := pass.TypesInfo.Defs[d.Name].(*types.Func)
				if !ok || d.Recv != nil || !fn.Exported() {
					continue
				}
				res := fn.Type().(*types.Signature).Results()
				if res.Len() == 0 {
					continue
				}
				if n := namedOf(res.At(0).Type()); n != nil && n.Obj().Pkg() == pass.Pkg {
					ctors[n.Origin().Obj()] = append(ctors[n.Origin().Obj()], fn)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() {
						decls = append(decls, ts)
					}
				}
			}
		}
	}
	for _, ts := range decls {
		tn, ok := pass.TypesInfo.Defs[ts.Name].(*types.TypeName)
		if !ok || len(ctors[tn]) == 0 {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if _, ok := named.Underlying().(*types.Struct); !ok {
			continue
		}
		var exported []*types.Func
		for i := range named.NumMethods() {
			if m := named.Method(i); m.Exported() {
				exported = append(exported, m)
			}
		}
		if len(exported) < apiMethodsMin {
			continue
		}
		var related []analysis.RelatedInformation
		var names []string
		for _, fn := range append(slices.Clone(ctors[tn]), exported...) {
			related = append(related, analysis.RelatedInformation{Pos: fn.Pos(), Message: pass.Pkg.Path() + "." + profName(fn)})
			names = append(names, profName(fn))
		}
		pass.Report(analysis.Diagnostic{
			Category: "api-type",
			Pos:      ts.Name.Pos(),
			Related:  related,
			Message:  tn.Name() + "'s API: " + strings.Join(names, ", "),
		})
	}
	return nil, nil
}

// BenchAPI finds a benchmark that calls the exported API of the package
// it tests (in its own body or in a test helper it calls, in the same
// test package): evidence, beside the profiles, that the package's API is
// benchmarked, which a profile that keeps only the costly lines may not
// show (a thin exported wrapper over the interpreter it runs).
var BenchAPI = &analysis.Analyzer{
	Name: "benchapi",
	Doc:  "a benchmark that calls the exported API of the package it tests",
	Run:  runBenchAPI,
}

func runBenchAPI(pass *analysis.Pass) (any, error) {
	under := strings.TrimSuffix(pass.Pkg.Path(), "_test")
	bodies := map[*types.Func]*ast.BlockStmt{}
	var benches []*ast.FuncDecl
	for _, f := range pass.Files {
		if !isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
				bodies[fn] = fd.Body
			}
			if fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Benchmark") {
				benches = append(benches, fd)
			}
		}
	}
	for _, fd := range benches {
		seen := map[*types.Func]bool{}
		var api *types.Func
		var walk func(n ast.Node)
		walk = func(n ast.Node) {
			ast.Inspect(n, func(n ast.Node) bool {
				id, ok := n.(*ast.Ident)
				if !ok || api != nil {
					return api == nil
				}
				fn, ok := pass.TypesInfo.Uses[id].(*types.Func)
				if !ok || fn.Pkg() == nil || seen[fn] {
					return true
				}
				seen[fn] = true
				if fn.Pkg().Path() == under && exportedAPI(fn) {
					api = fn
					return false
				}
				if body := bodies[fn]; body != nil {
					walk(body) // a test helper of the package
				}
				return true
			})
		}
		walk(fd.Body)
		if api == nil {
			continue
		}
		pass.Report(analysis.Diagnostic{
			Category: "api-benchmarked",
			Pos:      fd.Name.Pos(),
			Message:  fmt.Sprintf("%s calls %s of the package it benchmarks", fd.Name.Name, profName(api)),
		})
	}
	return nil, nil
}
