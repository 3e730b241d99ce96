package lint

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
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
	if analyzers == nil {
		analyzers = Analyzers
	}
	if len(patterns) == 0 {
		patterns = []string{"./..."}
	}
	// The loader starts its go command even when ctx is done, and an
	// interrupted go command leaves its work directory: the command gets
	// a GOTMPDIR of its own, removed afterwards, and none starts after a
	// cancel.
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	tmp, removeTmp, err := gotest.GoTempDir()
	if err != nil {
		return nil, nil, err
	}
	defer removeTmp()
	cfg := &packages.Config{
		Context: ctx,
		Mode:    packages.LoadAllSyntax | packages.NeedModule,
		Dir:     opts.Dir,
		Env:     append(os.Environ(), "GOTMPDIR="+tmp),
		Tests:   true,
	}
	if opts.Tags != "" {
		cfg.BuildFlags = []string{"-tags", opts.Tags}
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("load %s: %w", strings.Join(patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, nil, fmt.Errorf("load %s: no packages", strings.Join(patterns, " "))
	}
	// A package that does not load or compile (or whose dependencies do
	// not) is left out and named; the others are analyzed.
	var ok []*packages.Package
	seenBroken := map[string]bool{}
	for _, p := range pkgs {
		var first error
		packages.Visit([]*packages.Package{p}, nil, func(q *packages.Package) {
			if len(q.Errors) > 0 && first == nil {
				first = q.Errors[0]
			}
		})
		if first == nil {
			ok = append(ok, p)
			continue
		}
		path := strings.TrimSuffix(strings.Fields(p.ID)[0], ".test")
		if !seenBroken[path] {
			seenBroken[path] = true
			broken = append(broken, fmt.Errorf("%s: %v", path, first))
		}
	}
	if len(ok) == 0 {
		return nil, broken, fmt.Errorf("no package of %s compiles: %w", strings.Join(patterns, " "), broken[0])
	}
	g, err := checker.Analyze(analyzers, ok, nil)
	if err != nil {
		return nil, broken, err
	}
	root := ""
	for _, p := range pkgs {
		if p.Module != nil && p.Module.Dir != "" {
			root = p.Module.Dir
			break
		}
	}
	seen := map[string]bool{}
	var out []document.LintDiagnostic
	for act := range g.All() {
		if !act.IsRoot {
			continue
		}
		if act.Err != nil {
			return nil, broken, fmt.Errorf("%s on %s: %w", act.Analyzer.Name, act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			pos := act.Package.Fset.Position(d.Pos)
			file := pos.Filename
			if r, err := filepath.Rel(root, file); root != "" && err == nil && !strings.HasPrefix(r, "..") {
				file = filepath.ToSlash(r)
			}
			diag := document.LintDiagnostic{Analyzer: act.Analyzer.Name, Package: strings.TrimSuffix(act.Package.PkgPath, "_test"),
				File: file, Line: pos.Line, Col: pos.Column}
			diag.Benchmark, diag.Message, diag.Why, diag.Fix = split(d.Message)
			if len(d.SuggestedFixes) > 0 {
				diag.SuggestedFix = d.SuggestedFixes[0].Message
			}
			key := fmt.Sprintf("%s:%d:%d %s %s", diag.File, diag.Line, diag.Col, diag.Analyzer, d.Message)
			if !seen[key] {
				seen[key] = true
				out = append(out, diag)
			}
		}
	}
	slices.SortFunc(out, func(a, b document.LintDiagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Analyzer, b.Analyzer))
	})
	return out, broken, nil
}

// split takes a message "BenchmarkX: what: why; fix" apart.
func split(msg string) (bench, what, why, fix string) {
	bench, rest, _ := strings.Cut(msg, ": ")
	if i := strings.LastIndex(rest, "; "); i >= 0 {
		rest, fix = rest[:i], rest[i+2:]
	}
	what, why, _ = strings.Cut(rest, ": ")
	return bench, what, why, fix
}
