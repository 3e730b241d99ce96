package cli

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/perfloop/perfloop/internal/report"
	"github.com/perfloop/perfloop/internal/results"
)

// writeBenchSummary prints a table per package: each benchmark's median ±
// 95% CI for every unit, and failures with their errors.
func writeBenchSummary(w io.Writer, run *benchRun) error {
	rows := run.summarize()
	noCI := false
	var pkgs []string
	byPkg := map[string][]*metricRow{}
	for _, r := range rows {
		if _, ok := byPkg[r.pkg]; !ok {
			pkgs = append(pkgs, r.pkg)
		}
		byPkg[r.pkg] = append(byPkg[r.pkg], r)
	}
	for i, pkg := range pkgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "pkg: %s\n", pkg)
		units := map[string]bool{}
		for _, r := range byPkg[pkg] {
			for _, u := range r.units {
				units[u] = true
			}
		}
		order := unitOrder(units)
		tw := report.NewTable(w)
		fmt.Fprintf(tw, "benchmark\t%s\tn\n", strings.Join(order, "\t"))
		for _, r := range byPkg[pkg] {
			name := strings.TrimPrefix(r.name, "Benchmark")
			if r.procs > 0 {
				name = fmt.Sprintf("%s-%d", name, r.procs)
			}
			if len(r.metrics) == 0 {
				if r.bench.Status == results.StatusOK {
					fmt.Fprintf(tw, "%s\tnot run\n", name)
				} else {
					fmt.Fprintf(tw, "%s\t%s: %s\n", name, r.bench.Status, r.bench.Error)
				}
				continue
			}
			cells := []string{name}
			n := 0
			for _, u := range order {
				s, ok := r.metrics[u]
				if !ok {
					cells = append(cells, "-")
					continue
				}
				n = s.N
				cell := formatValue(s.Median, u)
				if s.Finite() {
					cell += " ± " + s.RangePercent()
				} else {
					noCI = true
				}
				cells = append(cells, cell)
			}
			cells = append(cells, fmt.Sprint(n))
			if st := r.bench.Status; st != results.StatusOK {
				cells = append(cells, fmt.Sprintf("(%s: %s)", st, r.bench.Error))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, pe := range run.buildErrors {
		fmt.Fprintf(w, "\npkg: %s\n%v\n", pe.Package, pe.Err)
	}
	if noCI {
		fmt.Fprintln(w, "\nno confidence intervals: they need at least 6 runs (-count 6 or more)")
	}
	return nil
}

// formatValue formats a median for a summary cell: counts per op as plain
// integers while they are small, everything else scaled as benchstat does.
func formatValue(v float64, unit string) string {
	if (unit == "B/op" || unit == "allocs/op") && v == math.Trunc(v) && v < 10000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return benchunit.Scale(v, benchunit.ClassOf(unit))
}
