package check

import (
	"math"
	"testing"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// cell is a compared HEAD cell: medians old and new, paired verdict
// significant or not, with the interval [low, high] and the smallest
// detectable change mde (NaN when unset).
type cellSpec struct {
	name         string
	old, new     float64
	significant  bool
	low, high    float64
	mde          float64
	inconclusive bool
}

func table(unit string, better int, cells ...cellSpec) *stats.Table {
	t := &stats.Table{Config: []string{"pkg: example.com/m"}, Unit: unit, Better: better, Columns: []string{"BASE", "HEAD"}}
	for _, c := range cells {
		head := &stats.Cell{Summary: stats.Summary{Median: c.new}, Compared: true, Delta: c.new/c.old - 1,
			Significant: c.significant, Low: c.low, High: c.high, MDE: c.mde, Verdict: stats.NoChange}
		if c.inconclusive {
			head.Verdict = stats.Inconclusive
		}
		t.Rows = append(t.Rows, &stats.Row{Benchmark: c.name, Cells: []*stats.Cell{{Summary: stats.Summary{Median: c.old}}, head}})
	}
	return t
}

var nan = math.NaN()

func TestDecide(t *testing.T) {
	res := &abtest.Result{Labels: [2]string{"main", "work tree"}, Tables: []*stats.Table{
		table("sec/op", -1,
			cellSpec{name: "Slower", old: 100e-9, new: 120e-9, significant: true, low: nan, high: nan, mde: 0.01},
			cellSpec{name: "SlightlySlower", old: 100e-9, new: 103e-9, significant: true, low: nan, high: nan, mde: 0.01},
			cellSpec{name: "Faster", old: 100e-9, new: 80e-9, significant: true, low: nan, high: nan, mde: 0.01},
			cellSpec{name: "Noisy", old: 100e-9, new: 101e-9, low: -0.04, high: 0.12, mde: nan, inconclusive: true},
			cellSpec{name: "Quiet", old: 100e-9, new: 101e-9, low: -0.02, high: 0.03, mde: nan, inconclusive: true},
			cellSpec{name: "Settled", old: 100e-9, new: 100e-9, low: nan, high: nan, mde: math.Inf(1)},
			cellSpec{name: "Calibrated", old: 100e-9, new: 110e-9, significant: true, low: nan, high: nan, mde: 0.01},
		),
		table("allocs/op", -1,
			cellSpec{name: "Slower", old: 0, new: 1, low: nan, high: nan, mde: nan},
			cellSpec{name: "Faster", old: 2, new: 2, low: nan, high: nan, mde: nan},
		),
		table("B/op", -1,
			cellSpec{name: "Slower", old: 0, new: 4, low: nan, high: nan, mde: nan},
			cellSpec{name: "Faster", old: 100, new: 250, low: nan, high: nan, mde: nan},
		),
	}}
	noise := map[RowKey]float64{rowKey("example.com/m", "BenchmarkCalibrated", "sec/op"): 0.15}
	budgets := []Budget{mustBudget(t, "BenchmarkFaster allocs/op == 0"), mustBudget(t, "BenchmarkSlower sec/op <= +50%"), mustBudget(t, "BenchmarkGone allocs/op == 0")}
	c := Decide(res, Options{Threshold: 0.05, Noise: noise, Budgets: budgets, Settle: 0.03})

	var got []string
	for _, r := range c.Regressions {
		got = append(got, r.Benchmark+" "+r.Unit)
	}
	// Sorted by change: B/op +150%, allocs 0→1 (+1), sec/op +20%.
	want := []string{"BenchmarkFaster B/op", "BenchmarkSlower allocs/op", "BenchmarkSlower sec/op"}
	if !equal(got, want) {
		t.Errorf("regressions = %q, want %q (B/op +4 bytes is under 8; +3%% is under the threshold; Calibrated's +10%% is under its noise)", got, want)
	}
	if len(c.Improvements) != 1 || c.Improvements[0].Benchmark != "BenchmarkFaster" {
		t.Errorf("improvements = %+v, want BenchmarkFaster sec/op", c.Improvements)
	}
	if len(c.Inconclusive) != 1 || c.Inconclusive[0].Benchmark != "BenchmarkNoisy" || c.Inconclusive[0].High == nil || *c.Inconclusive[0].High != 0.12 {
		t.Errorf("inconclusive = %+v, want BenchmarkNoisy (up to +12%%), not BenchmarkQuiet (up to +3%%)", c.Inconclusive)
	}
	// A row the engine settled within ±3% rules out +5%; within ±20% it
	// does not, and a row that could detect no change at all is
	// inconclusive.
	loose := Decide(res, Options{Threshold: 0.05, Noise: noise, Settle: 0.2})
	if len(loose.Inconclusive) != 2 || loose.Inconclusive[1].Benchmark != "BenchmarkSettled" {
		t.Errorf("settled within ±20%%: inconclusive = %+v, want BenchmarkNoisy and BenchmarkSettled", loose.Inconclusive)
	}
	var broken []string
	for _, b := range c.Budgets {
		if !b.OK {
			broken = append(broken, b.Budget+" "+b.Benchmark)
		}
	}
	wantBroken := []string{"BenchmarkFaster allocs/op == 0 BenchmarkFaster", "BenchmarkGone allocs/op == 0 "}
	if !equal(broken, wantBroken) {
		t.Errorf("broken budgets = %q, want %q (a budget matching nothing is broken)", broken, wantBroken)
	}
	if len(c.Thresholds) != 1 || c.Thresholds[0].Benchmark != "BenchmarkCalibrated" {
		t.Errorf("thresholds = %+v, want the calibrated one", c.Thresholds)
	}
	if c.Verdict != document.CheckFail {
		t.Errorf("verdict = %s, want fail", c.Verdict)
	}
}

func TestVerdict(t *testing.T) {
	for _, tt := range []struct {
		name string
		c    document.Check
		want string
	}{
		{"nothing", document.Check{}, document.CheckPass},
		{"noisy", document.Check{Inconclusive: []document.Change{{}}}, document.CheckInconclusive},
		{"regression", document.Check{Regressions: []document.Regression{{}}, Inconclusive: []document.Change{{}}}, document.CheckFail},
		{"failed side", document.Check{Failures: []string{"HEAD: build failed"}}, document.CheckFail},
		{"budget", document.Check{Budgets: []document.BudgetCheck{{OK: true}, {OK: false}}}, document.CheckFail},
		{"budgets kept", document.Check{Budgets: []document.BudgetCheck{{OK: true}}}, document.CheckPass},
	} {
		if got := verdict(&tt.c); got != tt.want {
			t.Errorf("%s: verdict = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// Noise takes the largest of what an A/A row could detect and its
// interval's bounds.
func TestNoise(t *testing.T) {
	aa := &abtest.Result{Tables: []*stats.Table{
		table("sec/op", -1,
			cellSpec{name: "A", old: 100, new: 101, low: -0.07, high: 0.03, mde: nan, inconclusive: true},
			cellSpec{name: "B", old: 100, new: 100, low: nan, high: nan, mde: 0.02}),
		table("allocs/op", -1, cellSpec{name: "A", old: 1, new: 1, low: nan, high: nan, mde: nan}),
	}}
	n := Noise(aa)
	if got := n[rowKey("example.com/m", "BenchmarkA", "sec/op")]; got != 0.07 {
		t.Errorf("noise of A = %v, want 0.07", got)
	}
	if got := n[rowKey("example.com/m", "BenchmarkB", "sec/op")]; got != 0.02 {
		t.Errorf("noise of B = %v, want 0.02", got)
	}
	if _, ok := n[rowKey("example.com/m", "BenchmarkA", "allocs/op")]; ok {
		t.Error("counts have no noise")
	}
}

func mustBudget(t *testing.T, s string) Budget {
	t.Helper()
	b, err := ParseBudget(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestInterrupt: an interrupted check's verdict is interrupted whatever
// its rows say (a pass, a fail), its first note says where it stopped,
// and a budget that no measured benchmark matched is left out (its
// benchmark may not have run yet).
func TestInterrupt(t *testing.T) {
	quiet := &abtest.Result{Labels: [2]string{"main", "work tree"}, Tables: []*stats.Table{
		table("sec/op", -1, cellSpec{name: "Same", old: 100e-9, new: 100e-9, low: nan, high: nan, mde: 0.01}),
	}}
	slower := &abtest.Result{Labels: [2]string{"main", "work tree"}, Tables: []*stats.Table{
		table("sec/op", -1, cellSpec{name: "Same", old: 100e-9, new: 150e-9, significant: true, low: nan, high: nan, mde: 0.01}),
	}}
	budgets := []Budget{mustBudget(t, "BenchmarkSame sec/op <= +60%"), mustBudget(t, "BenchmarkLater allocs/op == 0")}
	for _, tc := range []struct {
		name  string
		res   *abtest.Result
		regrs int
	}{
		{"no row changed", quiet, 0},
		{"a row regressed", slower, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Decide(tc.res, Options{Threshold: 0.05, Budgets: budgets, Settle: 0.03})
			c.Notes = append(c.Notes, "an earlier note")
			Interrupt(c, "interrupted during the rounds")
			if c.Verdict != document.CheckInterrupted {
				t.Errorf("verdict = %q, want %q", c.Verdict, document.CheckInterrupted)
			}
			if len(c.Notes) != 2 || c.Notes[0] != "interrupted during the rounds" {
				t.Errorf("notes = %q, want the interruption first", c.Notes)
			}
			if len(c.Regressions) != tc.regrs {
				t.Errorf("%d regressions, want the %d decided", len(c.Regressions), tc.regrs)
			}
			if len(c.Budgets) != 1 || c.Budgets[0].Benchmark != "BenchmarkSame" {
				t.Errorf("budgets = %+v, want only BenchmarkSame's", c.Budgets)
			}
		})
	}
}
