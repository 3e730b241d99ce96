package check

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/stats"
)

// Options says what counts as a regression.
type Options struct {
	// Threshold is the relative change above which a worse time or size
	// counts (0.05 is 5%).
	Threshold float64
	// Noise is a calibration run's noise per row: the threshold of a row
	// is the larger of Threshold and its noise.
	Noise map[RowKey]float64
	// Budgets are checked on HEAD.
	Budgets []Budget
	// Settle is the A/B engine's futility bound: a row it stopped
	// measuring as settled has its 80% interval within ±Settle.
	Settle float64
}

// row is one compared row of an A/B result.
type row struct {
	pkg, name, unit string // name with the Benchmark prefix
	old, new        float64
	cell            *stats.Cell
	better          int
}

// RowKey names one row of an A/B result: a benchmark and a unit.
type RowKey struct {
	document.BenchKey
	Unit string
}

func (r row) key() RowKey { return rowKey(r.pkg, r.name, r.unit) }

func rowKey(pkg, name, unit string) RowKey {
	return RowKey{BenchKey: document.BenchKey{Package: pkg, Name: name}, Unit: unit}
}

// rows flattens an A/B result's tables.
func rows(res *abtest.Result) []row {
	var out []row
	for _, t := range res.Tables {
		pkg := ""
		for _, c := range t.Config {
			if v, ok := strings.CutPrefix(c, "pkg: "); ok {
				pkg = v
			}
		}
		for _, r := range t.Rows {
			if len(r.Cells) < 2 || r.Cells[0] == nil || r.Cells[1] == nil || !r.Cells[1].Compared {
				continue
			}
			out = append(out, row{pkg: pkg, name: "Benchmark" + r.Benchmark, unit: t.Unit,
				old: r.Cells[0].Summary.Median, new: r.Cells[1].Summary.Median, cell: r.Cells[1], better: t.Better})
		}
	}
	return out
}

// Decide turns an A/B result into the gate's verdict: regressions (without
// their causes: see Explain), improvements, inconclusive rows and budgets.
func Decide(res *abtest.Result, opts Options) *document.Check {
	c := &document.Check{Schema: document.CheckSchema, Base: res.Labels[0], Head: res.Labels[1],
		Regressions: []document.Regression{}, Budgets: []document.BudgetCheck{},
		Rounds: res.Rounds, WallSeconds: math.Round(res.Wall.Seconds()*1000) / 1000, Notes: res.Notes}
	for _, f := range res.Failures {
		c.Failures = append(c.Failures, [...]string{"BASE", "HEAD"}[f.Side]+": "+f.String())
	}
	rs := rows(res)
	for _, r := range rs {
		th := max(opts.Threshold, opts.Noise[r.key()])
		cell := r.cell
		switch {
		case regressed(r, th):
			c.Regressions = append(c.Regressions, document.Regression{Package: r.pkg, Benchmark: r.name, Unit: r.unit,
				Delta: delta(r), Old: r.old, New: r.new, Threshold: th, Causes: []document.Cause{}})
		case cell.Significant && r.better*sign(r.new-r.old) > 0:
			c.Improvements = append(c.Improvements, changeOf(r))
		case !cell.Significant && stats.IsTime(r.unit) && couldHide(r, th, opts.Settle):
			c.Inconclusive = append(c.Inconclusive, changeOf(r))
		default:
			c.Unchanged++
		}
	}
	sort.SliceStable(c.Regressions, func(i, j int) bool { return c.Regressions[i].Delta > c.Regressions[j].Delta })
	c.Budgets = append(c.Budgets, checkBudgets(opts.Budgets, rs)...)
	for k, v := range opts.Noise {
		if v > opts.Threshold {
			c.Thresholds = append(c.Thresholds, document.Threshold{Benchmark: k.Name, Unit: k.Unit, Value: v})
		}
	}
	sort.Slice(c.Thresholds, func(i, j int) bool { return c.Thresholds[i].Benchmark < c.Thresholds[j].Benchmark })
	c.Verdict = verdict(c)
	return c
}

// Interrupt marks c as the verdict of an interrupted check: whatever its
// rows say, the verdict is interrupted (never pass: the rows not decided
// might have regressed), and note, which says where the check stopped,
// is its first note. A budget no measured benchmark matched is left out:
// its benchmark may not have run yet.
func Interrupt(c *document.Check, note string) {
	c.Verdict = document.CheckInterrupted
	c.Notes = append([]string{note}, c.Notes...)
	c.Budgets = slices.DeleteFunc(c.Budgets, func(b document.BudgetCheck) bool { return b.Benchmark == "" })
}

// cuts are the thresholds check decides with beside -threshold: the
// judgement's, kept with the report's in internal/findings.
var cuts = findings.DefaultCheck

// regressed reports whether a row got worse beyond threshold th.
func regressed(r row, th float64) bool {
	worse := r.better*sign(r.new-r.old) < 0
	if !worse {
		return false
	}
	switch {
	case r.unit == "allocs/op":
		// Counts are exact: half an allocation more per op is real.
		return r.new-r.old >= cuts.AllocsPerOp
	case r.unit == "B/op":
		return r.new-r.old >= cuts.BytesPerOp && (r.old == 0 || r.new/r.old-1 > th)
	}
	return r.cell.Significant && math.Abs(r.cell.Delta) > th
}

// couldHide reports whether a row that is not significant cannot rule out
// a regression beyond th: the worse end of its interval is beyond it; or,
// for a row the engine settled (its 80% interval within ±settle) when
// settle is above th, or decided some other way, the smallest change it
// could detect is.
func couldHide(r row, th, settle float64) bool {
	c := r.cell
	worst := c.High // times: higher is worse
	if r.better > 0 {
		worst = -c.Low
	}
	if c.Verdict == stats.Inconclusive {
		if !math.IsNaN(worst) {
			return worst > th
		}
	} else if settle > 0 && settle <= th {
		return false
	}
	return !math.IsNaN(c.MDE) && c.MDE > th
}

// verdict is fail on a regression, a broken budget or a failed side;
// inconclusive when a row could hide a regression; pass otherwise.
func verdict(c *document.Check) string {
	if len(c.Regressions) > 0 || len(c.Failures) > 0 {
		return document.CheckFail
	}
	for _, b := range c.Budgets {
		if !b.OK {
			return document.CheckFail
		}
	}
	if len(c.Inconclusive) > 0 {
		return document.CheckInconclusive
	}
	return document.CheckPass
}

// change is a row's relative change, or its difference when BASE is 0.
func change(r row) float64 {
	if r.old == 0 {
		return r.new - r.old
	}
	return r.new/r.old - 1
}

// delta is a row's change as the comparison table shows it: the paired
// delta (the median of the per-round ratios) where there is one, the
// change of the medians otherwise.
func delta(r row) float64 {
	if math.IsNaN(r.cell.Delta) || math.IsInf(r.cell.Delta, 0) {
		return change(r)
	}
	return r.cell.Delta
}

func changeOf(r row) document.Change {
	ch := document.Change{Package: r.pkg, Benchmark: r.name, Unit: r.unit, Delta: delta(r)}
	fin := func(v float64) *float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return &v
	}
	ch.Low, ch.High, ch.MDE = fin(r.cell.Low), fin(r.cell.High), fin(r.cell.MDE)
	return ch
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// Noise measures each row's noise in an A/A result (BASE against itself):
// the largest of the change it could detect and the bound of its
// interval, so a threshold above it is not crossed by noise alone.
func Noise(aa *abtest.Result) map[RowKey]float64 {
	m := map[RowKey]float64{}
	for _, r := range rows(aa) {
		if !stats.IsTime(r.unit) {
			continue
		}
		n := 0.0
		for _, v := range []float64{r.cell.MDE, r.cell.Low, r.cell.High, r.cell.Delta} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				n = max(n, math.Abs(v))
			}
		}
		m[r.key()] = n
	}
	return m
}
