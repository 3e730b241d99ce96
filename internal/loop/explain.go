package loop

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/escape"
	"github.com/perfloop/perfloop/internal/gotest"
)

// Escapes runs the compiler's escape analysis on the suite's packages and
// the module's packages they import (go list -export -test, with -m=2 for
// the module's packages). It can run while the benchmarks are built: the
// go command caches each compile.
func Escapes(ctx context.Context, cfg Config) (*escape.Index, error) {
	return escape.Run(ctx, escape.Options{Dir: cfg.Dir, Tests: true, Tags: cfg.Tags, Deps: true}, cfg.PackagePatterns()...)
}

// Explain gives every allocation site of doc in the module its escape
// verdict and cause, from ix. dir is the directory the go command ran in
// ("" for the current one).
func Explain(ctx context.Context, dir string, doc *document.Report, ix *escape.Index) error {
	root, err := moduleRoot(ctx, dir)
	if err != nil {
		return err
	}
	ex := escape.NewExplainer(ix, os.DirFS(root))
	params := newParamCache()
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		if a.File == "" || filepath.IsAbs(a.File) || strings.Contains(a.File, "runtime/") {
			continue
		}
		site := escape.Site{File: a.File, Line: int(a.Line), CallerFile: a.CallerFile, CallerLine: int(a.CallerLine)}
		if a.Objects > 0 {
			site.ObjectBytes = a.Bytes / a.Objects
		}
		switch {
		case a.Via != "":
			site.Callees = []string{a.Via}
		case a.Alloc != "":
			// The runtime function that allocated says what kind of
			// allocation it was (growslice, a map's table, convT).
			site.Callees = []string{a.Alloc}
		}
		x := ex.Explain(site)
		verdict := x.Verdict
		if verdict == "" {
			verdict = x.Reason
		}
		a.Escape = &document.Escape{Verdict: verdict, Flow: x.Flow, Cause: document.EscapeCause(x.Cause), Reason: x.Reason, Name: x.Name, Sink: string(x.Sink), Into: x.Into,
			Param: x.Name != "" && params.of(root, a.File, a.Line)[x.Name]}
	}
	return nil
}

// moduleRoot returns the directory of the main module's go.mod, for the
// go command run in dir.
func moduleRoot(ctx context.Context, dir string) (string, error) {
	cmd, done, err := gotest.GoCommand(ctx, dir, nil, "env", "GOMOD")
	if err != nil {
		return "", err
	}
	defer done()
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not in a module (no go.mod)")
	}
	return filepath.Dir(mod), nil
}

// NotInlined returns the module's functions among doc's hotspots (flat at
// least 2% somewhere) that the compiler did not inline for their cost.
func NotInlined(doc *document.Report, ix *escape.Index) []document.NotInlined {
	if ix == nil {
		return nil
	}
	byName := map[string]escape.Diagnostic{}
	for _, d := range ix.Diagnostics() {
		// Too complex: a cost over the budget (not a loop, a recover,
		// a go:noinline).
		if d.Kind == escape.KindCannotInline && d.Into == "" && d.Budget > 0 {
			byName[d.File+" "+d.Name] = d
		}
	}
	seen := map[string]bool{}
	var out []document.NotInlined
	for _, h := range doc.Hotspots {
		if h.Flat < 0.02 || seen[h.Function] || strings.HasSuffix(h.File, "_test.go") {
			continue
		}
		v, ok := byName[h.File+" "+compilerName(h.Function)]
		if !ok {
			continue
		}
		seen[h.Function] = true
		out = append(out, document.NotInlined{Function: h.Function, File: v.File, Line: int64(v.Line), Cost: v.Cost, Budget: v.Budget})
	}
	return out
}

// DepNotInlined returns the functions of other modules (the standard
// library's left out: its code is not the module's to rewrite) among doc's
// hotspots that a line of the module calls and that the compiler did not
// inline for their cost: bitset.(*BitSet).Set at cost 83 over the budget
// of 80, called once per probe of a filter. It compiles those packages
// alone with -m=2 (a few hundred milliseconds each, cached after the
// first) in dir with build tags tags; nothing is compiled when no such
// function is hot.
func DepNotInlined(ctx context.Context, dir, tags string, doc *document.Report) ([]document.NotInlined, error) {
	called := map[string]bool{}
	for _, l := range doc.Lines {
		called[l.Callee] = true
	}
	hot := map[string]document.Hotspot{} // function → its first hot entry
	var pkgs []string
	for _, h := range doc.Hotspots {
		pkg, rest := document.SplitFunc(h.Function)
		if h.Flat < 0.02 || !called[h.Function] || rest == "" || stdPackage(pkg) || inModule(pkg, doc.Module) {
			continue
		}
		if _, ok := hot[h.Function]; ok {
			continue
		}
		hot[h.Function] = h
		if !slices.Contains(pkgs, pkg) {
			pkgs = append(pkgs, pkg)
		}
	}
	if len(pkgs) == 0 {
		return nil, nil
	}
	slices.Sort(pkgs)
	ix, err := escape.Run(ctx, escape.Options{Dir: dir, Tags: tags}, pkgs...)
	if err != nil {
		return nil, fmt.Errorf("inlining of %s: %w", strings.Join(pkgs, ", "), err)
	}
	byName := map[string]escape.Diagnostic{}
	for _, d := range ix.Diagnostics() {
		if d.Kind == escape.KindCannotInline && d.Into == "" && d.Budget > 0 {
			byName[d.Package+"."+d.Name] = d
		}
	}
	var out []document.NotInlined
	for _, h := range doc.Hotspots {
		pkg, rest := document.SplitFunc(h.Function)
		v, ok := byName[pkg+"."+rest]
		if _, isHot := hot[h.Function]; !ok || !isHot {
			continue
		}
		delete(hot, h.Function)
		out = append(out, document.NotInlined{Function: h.Function, File: h.File, Line: int64(v.Line), Cost: v.Cost, Budget: v.Budget, Dependency: true})
	}
	return out, nil
}

// stdPackage reports whether an import path is the standard library's:
// its first element has no dot.
func stdPackage(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// inModule reports whether package path is module mod's.
func inModule(path, mod string) bool {
	return mod != "" && (path == mod || strings.HasPrefix(path, mod+"/"))
}

// compilerName is a function's name as the compiler's diagnostics write
// it: "example.com/m.(*T).Add" → "(*T).Add", type arguments as "[...]".
func compilerName(fn string) string {
	if _, rest := document.SplitFunc(fn); rest != "" {
		return rest
	}
	return fn
}

// paramCache finds the parameters of the function enclosing a line, each
// file parsed once.
type paramCache struct {
	fset  *token.FileSet
	files map[string]*ast.File
}

func newParamCache() *paramCache {
	return &paramCache{fset: token.NewFileSet(), files: map[string]*ast.File{}}
}

// of returns the parameter names of the function declared around file:line
// (relative to root).
func (pc *paramCache) of(root, file string, line int64) map[string]bool {
	f, ok := pc.files[file]
	if !ok {
		f, _ = parser.ParseFile(pc.fset, filepath.Join(root, filepath.FromSlash(file)), nil, parser.SkipObjectResolution)
		pc.files[file] = f
	}
	if f == nil {
		return nil
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		if l := int64(line); l < int64(pc.fset.Position(fd.Pos()).Line) || l > int64(pc.fset.Position(fd.End()).Line) {
			continue
		}
		for _, fl := range fd.Type.Params.List {
			for _, n := range fl.Names {
				out[n.Name] = true
			}
		}
	}
	return out
}
