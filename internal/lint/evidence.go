package lint

import (
	"fmt"
	"math"
	"slices"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
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
	byName := map[string][]point{}
	var order []string
	fast := map[string]float64{}
	for _, r := range results {
		base, _ := stats.SplitProcs(r.Name)
		name := "Benchmark" + base
		if _, ok := byName[name]; !ok {
			order = append(order, name)
			byName[name] = nil
		}
		if ns, ok := r.Value("sec/op"); ok && ns < 1e-9 {
			fast[name] = max(fast[name], ns)
		}
		if b, ok := r.Value("B/op"); ok && r.Iters > 0 {
			byName[name] = append(byName[name], point{float64(r.Iters), b})
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
		if d, ok := drift(byName[name]); ok {
			out = append(out, document.LintDiagnostic{Analyzer: "runtime", Benchmark: name,
				Message: d,
				Why:     "bytes per op that fall as b.N grows are a fixed allocation divided among the iterations: setup, not the operation",
				Fix:     "move the allocation before b.ResetTimer (or out of a for b.Loop() body), or report it apart"})
		}
	}
	return out
}

// drift reports B/op that falls steadily with the iteration count: the
// runs' B/op times iterations nearly constant (a fixed amount spread over
// b.N) rather than B/op constant. It needs runs at iteration counts at
// least four times apart.
// point is one run's iteration count and bytes per op.
type point struct{ iters, bytes float64 }

func drift(ps []point) (string, bool) {
	if len(ps) < 2 {
		return "", false
	}
	slices.SortFunc(ps, func(a, b point) int {
		switch {
		case a.iters < b.iters:
			return -1
		case a.iters > b.iters:
			return 1
		}
		return 0
	})
	lo, hi := ps[0], ps[len(ps)-1]
	if hi.iters < 4*lo.iters || lo.bytes <= 0 || hi.bytes >= lo.bytes {
		return "", false
	}
	// Fixed total: bytes ∝ 1/iters, slope −1 on a log-log scale; a real
	// per-op cost: slope 0. Call it drift past halfway.
	slope := math.Log(math.Max(hi.bytes, 1)/lo.bytes) / math.Log(hi.iters/lo.iters)
	if slope > -0.5 {
		return "", false
	}
	return fmt.Sprintf("B/op falls from %.0f at %.0f iterations to %.0f at %.0f", lo.bytes, lo.iters, hi.bytes, hi.iters), true
}
