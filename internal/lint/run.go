package lint

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/site"
)

// Options say which build of the packages to analyze.
type Options struct {
	// Dir is where the go command runs ("" for the current directory).
	Dir  string
	Tags string
}

// Run loads the packages patterns match, with their tests, and runs
// analyzers (all of this package's when nil) on them. A package that does
// not load or type-check is left out and returned in broken, one error
// naming it each; err is for no package at all.
func Run(ctx context.Context, opts Options, analyzers []*analysis.Analyzer, patterns ...string) (diags []document.LintDiagnostic, broken []error, err error) {
	prog, err := site.Load(ctx, site.Config{Dir: opts.Dir, Tags: opts.Tags}, patterns...)
	if err != nil {
		if prog != nil {
			return nil, prog.Broken, err
		}
		return nil, nil, err
	}
	diags, err = RunProgram(ctx, prog, analyzers)
	return diags, prog.Broken, err
}

// RunProgram runs analyzers (all of this package's when nil) on a loaded
// program.
//
// Discard needs facts about the dependencies (which functions the
// compiler cannot inline, so cannot delete a call to), and they come only
// from the dependencies' syntax, which costs a load several times the
// module's own (site.Config.Facts). Facts only ever silence discard: a
// function it does not know to be opaque may be deleted. So the program
// is analyzed as loaded; only when discard reports something and the
// dependencies' syntax was not loaded is the program loaded again with
// it and analyzed again, which gives what one analysis with the facts
// gives.
func RunProgram(ctx context.Context, prog *site.Program, analyzers []*analysis.Analyzer) ([]document.LintDiagnostic, error) {
	if analyzers == nil {
		analyzers = Analyzers
	}
	diags, err := analyze(prog, analyzers)
	if err != nil || prog.Facts() || !slices.ContainsFunc(diags, func(d document.LintDiagnostic) bool { return usesFacts(analyzers, d.Analyzer) }) {
		return diags, err
	}
	full, err := prog.WithFacts(ctx)
	if err != nil {
		return nil, fmt.Errorf("load the dependencies for %s: %w", diags[0].Analyzer, err)
	}
	return analyze(full, analyzers)
}

// usesFacts reports whether the analyzer named name, among analyzers,
// reads facts about other packages.
func usesFacts(analyzers []*analysis.Analyzer, name string) bool {
	for _, a := range analyzers {
		if a.Name == name {
			return len(a.FactTypes) > 0
		}
	}
	return false
}

// analyze runs analyzers on prog's packages.
func analyze(prog *site.Program, analyzers []*analysis.Analyzer) ([]document.LintDiagnostic, error) {
	g, err := checker.Analyze(analyzers, prog.Packages, nil)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []document.LintDiagnostic
	for act := range g.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, fmt.Errorf("%s on %s: %w", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		fs, _ := act.Result.([]Finding)
		for _, f := range fs {
			pos := act.Package.Fset.Position(f.Pos)
			diag := document.LintDiagnostic{Analyzer: act.Analyzer.Name, Package: strings.TrimSuffix(act.Package.PkgPath, "_test"),
				File: prog.Rel(pos.Filename), Line: pos.Line, Col: pos.Column,
				Benchmark: f.Benchmark, Benchmarks: f.Benchmarks, Message: f.What, Why: f.Why, Fix: f.Fix, SuggestedFix: f.SuggestedFix}
			key := fmt.Sprintf("%s:%d:%d %s %s %s", diag.File, diag.Line, diag.Col, diag.Analyzer, diag.Benchmark, diag.Message)
			if !seen[key] {
				seen[key] = true
				out = append(out, diag)
			}
		}
	}
	slices.SortFunc(out, func(a, b document.LintDiagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Analyzer, b.Analyzer))
	})
	return out, nil
}
