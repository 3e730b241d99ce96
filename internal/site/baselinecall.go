package site

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// BaselineCall finds a test helper that runs another library and nothing
// of the module (unmarshalWithStdlibXML: xml.NewDecoder, then Token to
// EOF), returning at most an error: the sub-benchmarks that call it
// measure that library, a comparison beside the module's, not a fixture
// the module's benchmark builds. muktihari/xmltokenizer's BenchmarkToken
// runs encoding/xml and the module on each test file: one profile for
// both, 99.9% of its bytes allocated by encoding/xml's Token under the
// helper's line, which a fixture rule calls "build it once".
var BaselineCall = &analysis.Analyzer{
	Name: "baselinecall",
	Doc:  "a test helper that runs another library and nothing of the module: a comparison's code, not a fixture",
	Run:  runBaselineCall,
}

// harnessPkgs are packages a helper calls around the work it measures,
// which name no library it compares.
var harnessPkgs = map[string]bool{"testing": true, "fmt": true, "errors": true, "io": true, "bytes": true, "strings": true, "os": true}

func runBaselineCall(pass *analysis.Pass) (any, error) {
	for _, f := range pass.Files {
		if !isTest(pass, f) {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || fd.Recv != nil || testEntry(fd.Name.Name) || !returnsAtMostError(pass, fd) || fillsParam(pass, fd) {
				continue
			}
			libs, calls, ok := librariesCalled(pass, fd)
			if !ok || len(libs) == 0 {
				continue
			}
			pass.Report(analysis.Diagnostic{
				Category: "baseline-call",
				Pos:      fd.Name.Pos(),
				Message: fmt.Sprintf("%s calls nothing of the module: it runs %s (%s), so what its benchmarks measure is %s's cost, a comparison beside the module's",
					fd.Name.Name, strings.Join(libs, ", "), strings.Join(calls, ", "), strings.Join(libs, ", ")),
				SuggestedFixes: []analysis.SuggestedFix{{Message: "leave it as it is: the comparison's cost is the other library's, not a fixture to hoist; a benchmark function of its own for it keeps its samples out of the module's profile"}},
			})
		}
	}
	return nil, nil
}

// testEntry reports whether name is one the testing package runs.
func testEntry(name string) bool {
	for _, p := range []string{"Benchmark", "Test", "Fuzz", "Example"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// returnsAtMostError reports whether fd returns nothing or only an error:
// nothing it makes is handed to the code the benchmark measures.
func returnsAtMostError(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if fn == nil {
		return false
	}
	res := fn.Type().(*types.Signature).Results()
	return res.Len() == 0 || res.Len() == 1 && isError(res.At(0).Type())
}

// fillsParam reports whether fd takes something it could fill for its
// caller (a pointer other than the testing package's, a map, a slice
// other than bytes): a fixture builder, whatever it returns.
func fillsParam(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	fn, _ := pass.TypesInfo.Defs[fd.Name].(*types.Func)
	params := fn.Type().(*types.Signature).Params()
	for i := range params.Len() {
		t := params.At(i).Type()
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			if n, ok := u.Elem().(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" {
				continue
			}
			return true
		case *types.Map, *types.Chan:
			return true
		case *types.Slice:
			if b, ok := u.Elem().Underlying().(*types.Basic); !ok || b.Kind() != types.Byte {
				return true
			}
		}
	}
	return false
}

// librariesCalled returns the packages other than the harness's whose
// functions fd calls, and the calls (pkg.Func, Type.Method); ok is false
// when fd calls the module or a function value it cannot name.
func librariesCalled(pass *analysis.Pass, fd *ast.FuncDecl) (libs, calls []string, ok bool) {
	root := moduleRoot(pass.Pkg.Path())
	ok = true
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, isCall := n.(*ast.CallExpr)
		if !ok || !isCall {
			return ok
		}
		if tv, found := pass.TypesInfo.Types[call.Fun]; found && (tv.IsType() || tv.IsBuiltin()) {
			return true // a conversion or a builtin
		}
		fn := calledFunc(pass, call)
		if fn == nil || fn.Pkg() == nil {
			ok = false // a function value: it may be the module's
			return false
		}
		path := fn.Pkg().Path()
		if moduleRoot(path) == root {
			ok = false
			return false
		}
		if harnessPkgs[path] {
			return true
		}
		if !slices.Contains(libs, path) {
			libs = append(libs, path)
		}
		name := fn.Pkg().Name() + "." + fn.Name()
		if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
			t := recv.Type()
			if p, isPtr := t.(*types.Pointer); isPtr {
				t = p.Elem()
			}
			if n, isNamed := t.(*types.Named); isNamed {
				name = n.Obj().Name() + "." + fn.Name()
			}
		}
		if !slices.Contains(calls, name) {
			calls = append(calls, name)
		}
		return true
	})
	return libs, calls, ok
}

// moduleRoot returns the part of an import path that names its module,
// as far as the path tells: an external test package's path without
// "_test", then a host's first three elements (two for gopkg.in), or
// the first element of a path without a host.
func moduleRoot(path string) string {
	path = strings.TrimSuffix(path, "_test")
	parts := strings.Split(path, "/")
	n := 1
	if strings.Contains(parts[0], ".") {
		n = 3
		if parts[0] == "gopkg.in" {
			n = 2
		}
	}
	return strings.Join(parts[:min(n, len(parts))], "/")
}
