package loop

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/lint"
	"github.com/perfloop/perfloop/internal/site"
	"golang.org/x/tools/go/packages"
)

// loadSource loads the configured packages once, with their tests, for
// lint's analyzers and the site matchers; nil when they do not load (the
// benchmark run reports a package that does not compile).
func loadSource(ctx context.Context, cfg Config) *site.Program {
	prog, err := site.Load(ctx, site.Config{Dir: cfg.Dir, Tags: cfg.Tags}, cfg.PackagePatterns()...)
	if err != nil {
		return nil
	}
	return prog
}

// lintFindings runs perfloop lint's analyzers on the loaded packages for
// the report.
func lintFindings(ctx context.Context, prog *site.Program) []document.LintFinding {
	if prog == nil {
		return nil
	}
	diags, err := lint.RunProgram(ctx, prog, nil)
	if err != nil {
		return nil
	}
	var out []document.LintFinding
	for _, d := range diags {
		out = append(out, document.LintFinding{Analyzer: d.Analyzer, Package: d.Package, Benchmark: d.Benchmark, Benchmarks: d.Benchmarks,
			File: d.File, Line: d.Line, Message: d.Message, Why: d.Why, Fix: d.Fix})
	}
	return out
}

// shapesOf matches the shapes of code in the functions the document
// says are hot: those of its line costs, allocation sites, hotspots and
// lock sites (a closure's shapes are its function's).
//
// The hot functions of the module's packages that the benchmarks'
// packages import (an interpreter's vm under a root package's benchmarks)
// are loaded from source too, on their own: the program has their types
// only.
func shapesOf(ctx context.Context, cfg Config, prog *site.Program, doc *document.Report) []document.Shape {
	if prog == nil {
		return nil
	}
	doc.TestSupport = testSupport(prog, doc.Module)
	keep := hotShape(doc)
	shapes, err := prog.Shapes(nil, keep)
	if err != nil {
		return nil
	}
	if more := hotImports(prog, doc); len(more) > 0 {
		if deps, err := site.Load(ctx, site.Config{Dir: cfg.Dir, Tags: cfg.Tags}, more...); err == nil {
			if extra, err := deps.Shapes(nil, keep); err == nil {
				shapes = append(shapes, extra...)
				slices.SortStableFunc(shapes, func(a, b document.Shape) int {
					return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
				})
			}
		}
	}
	return shapes
}

// hotImports returns the module's packages, not among prog's, that hold
// a function doc says is hot, sorted.
func hotImports(prog *site.Program, doc *document.Report) []string {
	loaded := map[string]bool{}
	for _, p := range prog.Packages {
		loaded[p.PkgPath] = true
	}
	var out []string
	for _, fn := range hotFuncs(doc) {
		pkg := funcPackage(fn)
		if pkg == "" || loaded[pkg] || doc.Module == "" || pkg != doc.Module && !strings.HasPrefix(pkg, doc.Module+"/") {
			continue
		}
		loaded[pkg] = true
		out = append(out, pkg)
	}
	slices.Sort(out)
	return out
}

// funcPackage returns the import path of a function's package:
// "example.com/m/vm.(*VM).Run" → "example.com/m/vm".
func funcPackage(fn string) string {
	return document.FuncPackage(fn)
}

// hotShape reports whether a shape is in a function the document says is
// hot. Names are compared without type arguments: a profile names a
// generic method's instantiation ("items[go.shape.int].find"), the
// source its declaration ("items[...].find").
func hotShape(doc *document.Report) func(s document.Shape) bool {
	hot := map[string]bool{}
	for _, fn := range hotFuncs(doc) {
		hot[fn] = true
	}
	// A func literal of a package-level var has no function in the
	// source (the profile's "m.init.func1"): its shapes are kept at the
	// profile's lines.
	lines := map[string]bool{}
	for _, l := range doc.Lines {
		lines[fmt.Sprintf("%s:%d", l.File, l.Line)] = true
	}
	// A heap profile's site is kept whatever function holds it: a func
	// literal handed to another function (a pool's New, given to a
	// typed wrapper's constructor) is named by no hot function.
	sites := map[string]bool{}
	for _, a := range doc.Allocations {
		if a.File != "" {
			sites[fmt.Sprintf("%s:%d", a.File, a.Line)] = true
		}
	}
	// A benchmark's own function is where the shapes about its loop are
	// (result-kept, b-loop), whether or not its profile names it.
	benches := map[string]bool{}
	for _, b := range doc.Benchmarks {
		name, _, _ := strings.Cut(b.Name, "/")
		benches[b.Package+"."+name] = true
	}
	return func(s document.Shape) bool {
		fn := document.PlainFunc(s.Function)
		// An API type's shape is about what no profile may name.
		at := fmt.Sprintf("%s:%d", s.File, s.Line)
		// A generated file's mark is about every fix in the file.
		return hot[fn] || benches[fn] || s.Function == "" && lines[at] || sites[at] || s.Name == "api-type" || s.Name == "generated-file"
	}
}

// hotFuncs returns the functions doc says are hot, without their
// closures' suffixes, in the order it names them.
func hotFuncs(doc *document.Report) []string {
	var out []string
	seen := map[string]bool{}
	add := func(fn string) {
		if fn == "" {
			return
		}
		if f := outerFunc(document.PlainFunc(document.SourceFunc(fn))); !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, l := range doc.Lines {
		add(l.Function)
	}
	for _, a := range doc.Allocations {
		add(a.Function)
		add(a.Parent)
	}
	for _, h := range doc.Hotspots {
		add(h.Function)
	}
	for _, s := range doc.Scaling {
		for _, l := range s.Locks {
			add(l.Function)
		}
	}
	return out
}

// outerFunc drops a closure's suffixes: "m.find.func1.2" → "m.find".
func outerFunc(fn string) string {
	for {
		i := strings.LastIndex(fn, ".func")
		if i < 0 {
			return fn
		}
		rest := fn[i+len(".func"):]
		if rest == "" || strings.Trim(rest, "0123456789.") != "" {
			return fn
		}
		fn = fn[:i]
	}
}

// AdviseSites writes the advice for each allocation site into its escape
// verdict (findings.SiteAdvice), so that explain prints what the report's
// finding says for the same site.
func AdviseSites(doc *document.Report) {
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		if a.Escape == nil {
			continue
		}
		a.Escape.Fix, _ = findings.SiteAdvice(doc, a)
	}
}

// FromSource loads the configured packages once and sets what a report
// derives from the module's source: its shapes of code (see Shapes) and
// perfloop lint's findings on its benchmarks. It leaves doc as it was
// when the packages do not load.
func FromSource(ctx context.Context, cfg Config, doc *document.Report) {
	prog, err := site.Load(ctx, site.Config{Dir: cfg.Dir, Tags: cfg.Tags}, cfg.PackagePatterns()...)
	if err != nil {
		return
	}
	doc.Shapes = shapesOf(ctx, cfg, prog, doc)
	doc.Lint = lintFindings(ctx, prog)
}

// Shapes loads the configured packages and matches the shapes of code in
// the functions doc says are hot (see shapesOf); nil when they do not load.
func Shapes(ctx context.Context, cfg Config, doc *document.Report) []document.Shape {
	prog, err := site.Load(ctx, site.Config{Dir: cfg.Dir, Tags: cfg.Tags}, cfg.PackagePatterns()...)
	if err != nil {
		return nil
	}
	return shapesOf(ctx, cfg, prog, doc)
}

// testSupport returns the module's packages that no package of its
// library imports, directly or through others: only its tests and main
// programs do (xmltokenizer's internal/gpx, the GPX decoder its
// benchmarks run). The library is the module's packages outside any
// internal directory that are not main, and what they import; none when
// the module has no such package (a program).
func testSupport(prog *site.Program, module string) []string {
	if module == "" {
		return nil
	}
	inModule := func(path string) bool { return path == module || strings.HasPrefix(path, module+"/") }
	pkgs := map[string]*packages.Package{}
	for _, p := range prog.Packages {
		if p.ID == p.PkgPath && inModule(p.PkgPath) {
			pkgs[p.PkgPath] = p
		}
	}
	reached := map[string]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if reached[p.PkgPath] {
			return
		}
		reached[p.PkgPath] = true
		for path, imp := range p.Imports {
			if inModule(path) {
				visit(imp)
			}
		}
	}
	roots := 0
	for path, p := range pkgs {
		rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		if p.Name == "main" || rel == "internal" || strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/") || strings.HasSuffix(rel, "/internal") {
			continue
		}
		roots++
		visit(p)
	}
	if roots == 0 {
		return nil
	}
	var out []string
	for path, p := range pkgs {
		if !reached[path] && p.Name != "main" {
			out = append(out, path)
		}
	}
	slices.Sort(out)
	return out
}
