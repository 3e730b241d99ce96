package lint

import (
	"fmt"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/stats"
)

// Evidence checks benchmark results for what a distorted benchmark looks
// like at run time, which no reading of the code shows for sure: a time
// per op below a nanosecond (a loop that does nothing: the operation was
// deleted or hoisted), and bytes per op that fall as the iteration count
// grows (a fixed allocation, outside the loop, divided among the
// iterations). Its diagnostics have analyzer "runtime", no file, and the
// benchmark's full name.
func Evidence(results []*benchfmt.Result) []document.LintDiagnostic {
	t := &findings.DefaultThresholds
	byName := map[string][]document.IterSample{}
	var order []string
	fast := map[string]float64{}
	for _, r := range results {
		base, _ := stats.SplitProcs(r.Name)
		name := "Benchmark" + base
		if _, ok := byName[name]; !ok {
			order = append(order, name)
			byName[name] = nil
		}
		if ns, ok := r.Value("sec/op"); ok && t.SubNanosecond(ns) {
			fast[name] = max(fast[name], ns)
		}
		if b, ok := r.Value("B/op"); ok && r.Iters > 0 {
			byName[name] = append(byName[name], document.IterSample{Iters: float64(r.Iters), Value: b})
		}
	}
	var out []document.LintDiagnostic
	for _, name := range order {
		if ns, ok := fast[name]; ok {
			out = append(out, document.LintDiagnostic{Analyzer: "runtime", Benchmark: name,
				Message: fmt.Sprintf("%.2f ns/op", ns*1e9),
				Why:     "below a nanosecond a loop iteration does almost nothing: the compiler deleted or hoisted the operation, or b.N is used as a size",
				Fix:     "keep the result alive (assign it to a package-level variable, or loop with for b.Loop()) and give each iteration real work"})
		}
		if factor, ok := t.BytesDrift(byName[name]); ok && factor < 1 {
			lo, hi := extremes(byName[name])
			out = append(out, document.LintDiagnostic{Analyzer: "runtime", Benchmark: name,
				Message: fmt.Sprintf("B/op falls from %.0f at %.0f iterations to %.0f at %.0f", lo.Value, lo.Iters, hi.Value, hi.Iters),
				Why:     "bytes per op that fall as b.N grows are a fixed allocation divided among the iterations: setup, not the operation",
				Fix:     "move the allocation before b.ResetTimer (or out of a for b.Loop() body), or report it apart"})
		}
	}
	return out
}

// extremes are the runs with the fewest and the most iterations.
func extremes(runs []document.IterSample) (lo, hi document.IterSample) {
	lo, hi = runs[0], runs[0]
	for _, r := range runs {
		if r.Iters < lo.Iters {
			lo = r
		}
		if r.Iters > hi.Iters {
			hi = r
		}
	}
	return lo, hi
}
