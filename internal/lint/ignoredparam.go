package lint

import (
	"fmt"
	"go/ast"
	"go/types"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
)

// IgnoredParam reports a benchmark helper (a function of a _test.go file
// taking a *testing.B, called by benchmarks) that never reads one of its
// parameters, which its callers set to different values: golang-jwt's
// benchmarkParsing(b, parser, token, claims) parses into jwt.MapClaims{}
// whatever claims it is given, so its "registered_claims" sub-benchmarks
// measure the map claims their neighbours do. The cases named for each
// value are one measurement.
var IgnoredParam = &analysis.Analyzer{
	Name:       "ignoredparam",
	Doc:        "report a benchmark helper that ignores a parameter its callers vary",
	URL:        "https://github.com/perfloop/perfloop/blob/main/docs/lint.md#ignoredparam",
	Requires:   []*analysis.Analyzer{inspect.Analyzer},
	ResultType: reflect.TypeFor[[]Finding](),
	Run: func(pass *analysis.Pass) (any, error) {
		return collect(pass, func() { ignoredParams(pass) }), nil
	},
}

func ignoredParams(pass *analysis.Pass) {
	var decls []*ast.FuncDecl
	for _, f := range pass.Files {
		if !strings.HasSuffix(pass.Fset.File(f.Pos()).Name(), "_test.go") {
			continue
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
			}
		}
	}
	for _, fd := range decls {
		if fd.Recv != nil || strings.HasPrefix(fd.Name.Name, "Benchmark") || !takesB(pass, fd) {
			continue
		}
		fn := pass.TypesInfo.Defs[fd.Name]
		// The calls of the helper from benchmarks, with the benchmark
		// each is in.
		type site struct {
			call  *ast.CallExpr
			bench string
		}
		var sites []site
		for _, caller := range decls {
			if !strings.HasPrefix(caller.Name.Name, "Benchmark") {
				continue
			}
			ast.Inspect(caller.Body, func(n ast.Node) bool {
				if call, ok := n.(*ast.CallExpr); ok {
					if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok && pass.TypesInfo.Uses[id] == fn {
						sites = append(sites, site{call, caller.Name.Name})
					}
				}
				return true
			})
		}
		if len(sites) < 2 {
			continue
		}
		i := 0
		for _, field := range fd.Type.Params.List {
			for _, id := range field.Names {
				at := i
				i++
				p := pass.TypesInfo.Defs[id]
				if p == nil || id.Name == "_" || isNamedPointer(p.Type(), "testing", "B") || reads(pass, fd.Body, p) {
					continue
				}
				var values, callers []string
				for _, s := range sites {
					if at >= len(s.call.Args) || s.call.Ellipsis.IsValid() {
						continue
					}
					v := types.ExprString(s.call.Args[at])
					if !slices.Contains(values, v) {
						values = append(values, v)
					}
					if !slices.Contains(callers, s.bench) {
						callers = append(callers, s.bench)
					}
				}
				if len(values) < 2 {
					continue
				}
				shown := values
				if len(shown) > 3 {
					shown = append(shown[:3:3], "…")
				}
				bn := bench{name: strings.Join(callers, ", "), callers: callers}
				report(pass, id, bn,
					fmt.Sprintf("%s never reads its parameter %s, which its callers set to %s", fd.Name.Name, id.Name, strings.Join(shown, ", ")),
					"the cases that differ only by it measure the same thing, whatever their names say",
					fmt.Sprintf("use %s where %s's body has a value of its own for it (or drop the parameter and the cases that differ only by it)", id.Name, fd.Name.Name))
			}
		}
	}
}

// takesB reports whether fd has a *testing.B parameter.
func takesB(pass *analysis.Pass, fd *ast.FuncDecl) bool {
	for _, field := range fd.Type.Params.List {
		for _, id := range field.Names {
			if obj := pass.TypesInfo.Defs[id]; obj != nil && isNamedPointer(obj.Type(), "testing", "B") {
				return true
			}
		}
	}
	return false
}

// reads reports whether body uses obj anywhere (func literals included).
func reads(pass *analysis.Pass, body *ast.BlockStmt, obj types.Object) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && pass.TypesInfo.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}
