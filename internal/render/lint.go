package render

import (
	"fmt"
	"io"

	"github.com/perfloop/perfloop/internal/document"
)

// LintText writes perfloop lint's findings, one block each: where, what,
// why it distorts the number, and the fix.
func LintText(w io.Writer, diags []document.LintDiagnostic) error {
	bw := &errWriter{w: w}
	if len(diags) == 0 {
		fmt.Fprintln(bw, "no benchmark mistakes found")
		return bw.err
	}
	for _, d := range diags {
		where := d.Benchmark
		if d.File != "" {
			where = fmt.Sprintf("%s:%d: %s", d.File, d.Line, d.Benchmark)
		}
		fmt.Fprintf(bw, "%s: %s [%s]\n    why: %s\n    fix: %s\n", where, d.Message, d.Analyzer, d.Why, d.Fix)
		if d.SuggestedFix != "" {
			fmt.Fprintf(bw, "    suggested fix: %s\n", d.SuggestedFix)
		}
	}
	return bw.err
}
