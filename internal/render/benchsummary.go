package render

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchunit"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// BenchSummary prints a table per package of a bench run's document: each
// benchmark's median ± 95% CI for every unit, and failures with their
// errors.
func BenchSummary(w io.Writer, doc *document.Report) error {
	noCI := false
	var pkgs []string
	byPkg := map[string][]document.Benchmark{}
	for _, b := range doc.Benchmarks {
		if _, ok := byPkg[b.Package]; !ok {
			pkgs = append(pkgs, b.Package)
		}
		byPkg[b.Package] = append(byPkg[b.Package], b)
	}
	for i, pkg := range pkgs {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "pkg: %s\n", pkg)
		units := map[string]bool{}
		for _, b := range byPkg[pkg] {
			for u := range b.Metrics {
				units[u] = true
			}
		}
		order := unitOrder(units)
		tw := NewTable(w)
		fmt.Fprintf(tw, "benchmark\t%s\tn\n", strings.Join(order, "\t"))
		for _, b := range byPkg[pkg] {
			name := strings.TrimPrefix(b.Name, "Benchmark")
			if b.Procs > 0 {
				name = fmt.Sprintf("%s-%d", name, b.Procs)
			}
			if len(b.Metrics) == 0 {
				if b.Status == "ok" {
					fmt.Fprintf(tw, "%s\tnot run\n", name)
				} else {
					fmt.Fprintf(tw, "%s\t%s: %s\n", name, b.Status, b.Error)
				}
				continue
			}
			cells := []string{name}
			n := 0
			for _, u := range order {
				m, ok := b.Metrics[u]
				if !ok {
					cells = append(cells, "-")
					continue
				}
				n = m.N
				cell := formatValue(m.Median, u)
				if m.Low != nil && m.High != nil {
					cell += " ± " + stats.Summary{Median: m.Median, Low: *m.Low, High: *m.High}.RangePercent()
				} else {
					noCI = true
				}
				cells = append(cells, cell)
			}
			cells = append(cells, fmt.Sprint(n))
			if b.Status != "ok" {
				cells = append(cells, fmt.Sprintf("(%s: %s)", b.Status, b.Error))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	for _, p := range doc.Packages {
		fmt.Fprintf(w, "\npkg: %s\n%s\n", p.Package, p.Error)
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

// unitOrder puts the testing package's units first, then the rest
// alphabetically.
func unitOrder(units map[string]bool) []string {
	rank := map[string]int{"sec/op": 0, "B/s": 1, "B/op": 2, "allocs/op": 3}
	var us []string
	for u := range units {
		us = append(us, u)
	}
	sort.Slice(us, func(i, j int) bool {
		ri, oki := rank[us[i]]
		rj, okj := rank[us[j]]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return us[i] < us[j]
	})
	return us
}
