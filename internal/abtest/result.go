package abtest

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// Result is an interleaved run's outcome.
type Result struct {
	// Labels name the sides: A (BASE) first.
	Labels [2]string
	// Tables are benchstat's tables of both sides' results (the
	// unpaired columns agree with benchstat), with every compared cell's
	// Delta, P, Q, MDE and verdict replaced by the paired run's.
	Tables []*stats.Table
	// Rounds is how many rounds ran; Wall how long the run took.
	Rounds int
	Wall   time.Duration
	// Alpha is the false discovery rate the verdicts hold at.
	Alpha float64
	// Failures are the builds and benchmarks that failed on a side.
	Failures []Failure
	// OnlyBase and OnlyHead list the benchmarks present on one side only:
	// not compared.
	OnlyBase, OnlyHead []document.BenchKey
	// Noisy lists the rows that stayed too noisy to see a 5% change.
	Noisy []string
	// Notes say how the run adapted to a benchmark ("the first iteration
	// takes 57ms, 30× a later one: runs of 270 iterations").
	Notes []string
	// Inconclusive counts the rows the run could neither show changed
	// nor show unchanged before its rounds or time ran out.
	Inconclusive int
	// Profiles holds each benchmark's CPU profiles from the rounds, per
	// side, by package and name ("BenchmarkX/size=10"), when
	// Options.CPUProfileDir is set. A run that failed leaves none.
	Profiles map[document.BenchKey]*[2]Profiled

	// profiled counts the profiles written, to name them.
	profiled int
	settle   float64
	// lastLevel is the significance level spent at the last look.
	lastLevel float64
	pairs     map[rowKey]*pairs
	results   [2][]*benchfmt.Result
}

// Failure is a package that did not build or a benchmark that failed on
// one side.
type Failure struct {
	Side      int // 0 for A (BASE), 1 for B (HEAD)
	Package   string
	Benchmark string // "" for a build failure
	Err       string
}

func (f Failure) String() string {
	if f.Benchmark == "" {
		return fmt.Sprintf("%s: %s", f.Package, f.Err)
	}
	return fmt.Sprintf("%s %s: %s", f.Package, f.Benchmark, f.Err)
}

// rowKey names one compared row: a benchmark's full name in a package, and
// a unit.
type rowKey struct{ pkg, name, unit string }

// pairs holds a row's paired observations and its decision so far.
type pairs struct {
	a, b        []float64
	significant bool // decided changed at some look
	settled     bool // decided unchanged at some look
	last        stats.Paired
	q           float64
}

// look analyzes every row at significance level level and reports whether
// every row is decided. A row decided changed stays changed; a row whose
// 80% interval lies within ±Settle is decided unchanged for now.
func (r *Result) look(level float64) bool {
	byUnit := map[string][]*pairs{}
	for k, pr := range r.pairs {
		pr.last = stats.ComparePaired(pr.a, pr.b, r.Alpha)
		byUnit[k.unit] = append(byUnit[k.unit], pr)
	}
	all := true
	for _, rows := range byUnit {
		ps := make([]float64, len(rows))
		for i, pr := range rows {
			ps[i] = pr.last.P
		}
		qs := stats.BenjaminiHochberg(ps)
		for i, pr := range rows {
			pr.q = qs[i]
			if !pr.significant && qs[i] <= level && pr.last.Delta != 0 {
				pr.significant = true
			}
			lo, hi := pr.last.SettleLow, pr.last.SettleHigh
			if pr.last.Ratio {
				pr.settled = !pr.significant && lo > -r.settle && hi < r.settle
			} else {
				pr.settled = !pr.significant && lo == 0 && hi == 0
			}
			if !pr.significant && !pr.settled {
				all = false
			}
		}
	}
	return all
}

// finish builds the tables: benchstat's statistics on all results, cells
// overwritten with the paired verdicts.
func (r *Result) finish(units []*unit, wall time.Duration) {
	r.Wall = wall
	if len(r.results[0]) == 0 || len(r.results[1]) == 0 {
		return
	}
	// A first: stats.Compare makes the first column seen the baseline.
	all := append(append([]*benchfmt.Result(nil), r.results[0]...), r.results[1]...)
	tables, err := stats.Compare(all, nil, stats.Options{Alpha: r.Alpha})
	if err != nil {
		return
	}
	var noisy []string
	for _, t := range tables {
		pkg := ""
		for _, c := range t.Config {
			if v, ok := strings.CutPrefix(c, "pkg: "); ok {
				pkg = v
			}
		}
		t.Method = fmt.Sprintf("paired: exact Wilcoxon signed-rank on per-round HEAD/BASE ratios (delta = their median), "+
			"sequential with alpha spending, Benjamini–Hochberg across %s rows; %d rounds", t.Unit, r.Rounds)
		for _, row := range t.Rows {
			if len(row.Cells) < 2 || row.Cells[1] == nil || !row.Cells[1].Compared {
				continue
			}
			pr := r.pairs[rowKey{pkg, row.FullName, t.Unit}]
			if pr == nil {
				continue
			}
			c := row.Cells[1]
			c.Delta, c.P, c.Q, c.MDE = pr.last.Delta, pr.last.P, pr.q, math.NaN()
			if !pr.last.Ratio {
				// A difference, not a ratio: report the ratio of medians.
				c.Delta = ratioDelta(row.Cells[0].Summary.Median, c.Summary.Median)
			}
			c.Decide(t, pr.significant)
			if !pr.significant && pr.last.Ratio {
				// What this run could have seen, at the level its last
				// look spent, among this unit's rows.
				c.MDE = pr.last.MDEAt(r.lastLevel, r.rowsIn(t.Unit))
				if !pr.settled {
					c.Verdict = stats.Inconclusive
					c.Low, c.High = pr.last.Low, pr.last.High
					r.Inconclusive++
				}
				if c.MDE > 0.05 {
					noisy = append(noisy, fmt.Sprintf("%s %s (could detect only ±%.0f%%)", row.FullName, t.Unit, 100*c.MDE))
				}
			}
		}
	}
	sort.Strings(noisy)
	r.Tables, r.Noisy = tables, noisy
}

// Slower counts the time rows significantly slower on side B by more than
// threshold (a fraction).
func (r *Result) Slower(threshold float64) int {
	n := 0
	for _, t := range r.Tables {
		for _, row := range t.Rows {
			if len(row.Cells) < 2 || row.Cells[1] == nil {
				continue
			}
			c := row.Cells[1]
			if c.Significant && stats.IsTime(t.Unit) && t.Better*int(math.Copysign(1, c.Delta)) < 0 && math.Abs(c.Delta) > threshold {
				n++
			}
		}
	}
	return n
}

func ratioDelta(old, new float64) float64 {
	if old == new {
		return 0
	}
	if old == 0 {
		return math.NaN()
	}
	return new/old - 1
}

// rowsIn is how many rows of unit the run compares.
func (r *Result) rowsIn(unit string) int {
	n := 0
	for k := range r.pairs {
		if k.unit == unit {
			n++
		}
	}
	return n
}

// Interval returns the paired comparison of one row: its per-round
// median change and the 95% interval around it (relative changes), and
// whether the row was decided changed. name is the row's full name as the
// tables show it ("Encode/size=10-8"), pkg its package. ok is false for a
// row the run did not compare or whose values are not all positive.
func (r *Result) Interval(pkg, name, unit string) (delta, low, high float64, significant, ok bool) {
	pr := r.pairs[rowKey{pkg, name, unit}]
	if pr == nil || !pr.last.Ratio {
		return 0, 0, 0, false, false
	}
	return pr.last.Delta, pr.last.Low, pr.last.High, pr.significant, true
}
