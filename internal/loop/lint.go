package loop

import (
	"context"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/lint"
	"github.com/perfloop/perfloop/internal/site"
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
func shapesOf(prog *site.Program, doc *document.Report) []document.Shape {
	if prog == nil {
		return nil
	}
	shapes, err := prog.Shapes(nil, hotShape(doc))
	if err != nil {
		return nil
	}
	return shapes
}

// hotShape reports whether a shape is in a function the document says is
// hot. Names are compared without type arguments: a profile names a
// generic method's instantiation ("items[go.shape.int].find"), the
// source its declaration ("items[...].find").
func hotShape(doc *document.Report) func(s document.Shape) bool {
	hot := map[string]bool{}
	add := func(fn string) {
		if fn != "" {
			hot[outerFunc(document.PlainFunc(fn))] = true
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
	return func(s document.Shape) bool { return hot[document.PlainFunc(s.Function)] }
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

// Shapes loads the configured packages and matches the shapes of code in
// the functions doc says are hot (see shapesOf); nil when they do not load.
func Shapes(ctx context.Context, cfg Config, doc *document.Report) []document.Shape {
	prog, err := site.Load(ctx, site.Config{Dir: cfg.Dir, Tags: cfg.Tags}, cfg.PackagePatterns()...)
	if err != nil {
		return nil
	}
	return shapesOf(prog, doc)
}
