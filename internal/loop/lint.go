package loop

import (
	"context"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/lint"
)

// lintFindings runs perfloop lint's analyzers on the configured packages
// for the report. A package that does not compile is the benchmark run's
// to report, so lint's errors are dropped here.
func lintFindings(ctx context.Context, cfg Config) []document.LintFinding {
	diags, _, err := lint.Run(ctx, lint.Options{Dir: cfg.Dir, Tags: cfg.Tags}, nil, cfg.PackagePatterns()...)
	if err != nil {
		return nil
	}
	var out []document.LintFinding
	for _, d := range diags {
		out = append(out, document.LintFinding{Analyzer: d.Analyzer, Package: d.Package, Benchmark: d.Benchmark,
			File: d.File, Line: d.Line, Message: d.Message, Why: d.Why, Fix: d.Fix})
	}
	return out
}
