package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

// gen returns one point per level with k samples each, drawn as
// level·(1 + commitSD·N(0,1))·(1 + sd·N(0,1)): a benchmark at that level
// with sd relative run-to-run noise and commitSD relative noise that
// changes per commit (build, layout, machine state).
func gen(seed uint64, levels []float64, k int, sd, commitSD float64) []Point {
	rng := rand.New(rand.NewPCG(seed, 42))
	pts := make([]Point, len(levels))
	for i, l := range levels {
		lvl := l * (1 + commitSD*rng.NormFloat64())
		v := make([]float64, k)
		for j := range v {
			v[j] = lvl * (1 + sd*rng.NormFloat64())
		}
		pts[i] = Point{Label: fmt.Sprintf("c%03d", i), Values: v}
	}
	return pts
}

// levels returns n levels starting at base, multiplied by factor[i] from
// each index i in factor on (cumulatively).
func levels(n int, base float64, factor map[int]float64) []float64 {
	l := make([]float64, n)
	for i := range l {
		if f, ok := factor[i]; ok {
			base *= f
		}
		l[i] = base
	}
	return l
}

func indexes(cs []Change) []int {
	out := []int{}
	for _, c := range cs {
		out = append(out, c.Index)
	}
	return out
}

func logChanges(t *testing.T, cs []Change) {
	t.Helper()
	for _, c := range cs {
		t.Logf("  at %d (%s): %.1f → %.1f (%+.1f%%), P=%.4f", c.Index, c.Label, c.Before, c.After, 100*c.Delta, c.P)
	}
}

// The must-show: go test -count 5 at five commits of a ~1000ns
// benchmark with 2% noise; the third commit doubles it.
var mustShow = []Point{
	{"c000", []float64{998.3, 1000.2, 998.1, 996.9, 983.1}},
	{"c001", []float64{1008.6, 980.5, 983.9, 996, 1007.8}},
	{"c002", []float64{1903.2, 1929.8, 2052.9, 2007.7, 1978.1}},
	{"c003", []float64{1999.7, 1985.5, 2111.8, 2029.3, 1991}},
	{"c004", []float64{1992.1, 2053.6, 2058.5, 1995.4, 1967.6}},
}

func checkOneStep(t *testing.T, pts []Point, at int, delta float64) {
	t.Helper()
	cs := Detect(pts, Options{})
	if len(cs) != 1 || cs[0].Index != at {
		t.Errorf("changes at %v, want exactly one at %d", indexes(cs), at)
		logChanges(t, cs)
		return
	}
	c := cs[0]
	if c.Label != pts[at].Label {
		t.Errorf("label %q, want %q", c.Label, pts[at].Label)
	}
	if math.Abs(c.Delta-delta) > 0.1*math.Abs(delta) {
		t.Errorf("Delta %.3f, want ≈ %.1f", c.Delta, delta)
	}
	if c.Confidence < 0.99 || c.P > 0.01 || math.Abs(c.P+c.Confidence-1) > 1e-12 {
		t.Errorf("P %.4f, Confidence %.4f; want P ≤ 0.01, Confidence = 1 − P ≥ 0.99", c.P, c.Confidence)
	}
}

// Requirement 1: five commits, five samples each, one doubling — at the
// third commit, and at the second and the last.
func TestMustShow(t *testing.T) {
	checkOneStep(t, mustShow, 2, 1)
	cs := Detect(mustShow, Options{})
	logChanges(t, cs)
	for _, at := range []int{1, 2, 3, 4} {
		for seed := uint64(1); seed <= 20; seed++ {
			t.Run(fmt.Sprintf("at=%d/seed=%d", at, seed), func(t *testing.T) {
				checkOneStep(t, gen(seed, levels(5, 1000, map[int]float64{at: 2}), 5, 0.02, 0), at, 1)
			})
		}
	}
	// A halving is found the same way.
	checkOneStep(t, gen(1, levels(5, 1000, map[int]float64{2: 0.5}), 5, 0.02, 0), 2, -0.5)
}

// falseRate returns the share of n noise-only series (30 commits × 5
// samples) in which Detect reports a change.
func falseRate(n int, commitSD float64, opts Options) float64 {
	bad := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		if len(Detect(gen(seed, levels(30, 1000, nil), 5, 0.02, commitSD), opts)) > 0 {
			bad++
		}
	}
	return float64(bad) / float64(n)
}

// Requirement 2: pure noise has no change points; the share of series with
// a false one is at most what Alpha implies.
func TestNoChange(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		if cs := Detect(gen(seed, levels(30, 1000, nil), 5, 0.02, 0), Options{}); len(cs) > 0 {
			t.Errorf("seed %d: changes at %v in pure noise", seed, indexes(cs))
			logChanges(t, cs)
		}
	}
	// Alpha is the level of each split's test; a series has about one
	// (false) candidate split tested at Alpha, so its rate should be about
	// Alpha. The bound leaves room for the binomial spread of 200 series.
	const n, alpha = 200, DefaultAlpha
	rate := falseRate(n, 0, Options{})
	t.Logf("independent noise: %.1f%% of %d series (30 commits × 5 samples, 2%% noise) have a false change; Alpha = %g", 100*rate, n, alpha)
	if rate > 2*alpha {
		t.Errorf("false positive rate %.3f, want ≤ %.3f", rate, 2*alpha)
	}
	// Noise that changes per commit (the build, the code layout, the
	// machine's state) breaks the exchangeability of samples; the
	// overdispersion scaling and the test on commit medians keep the rate
	// near Alpha. Not exact: a guard against regressions.
	for _, csd := range []float64{0.01, 0.02} {
		rate := falseRate(n, csd, Options{})
		t.Logf("plus %.0f%% noise per commit: %.1f%% of %d series", 100*csd, 100*rate, n)
		if rate > 5*alpha {
			t.Errorf("with %.0f%% noise per commit: false positive rate %.3f, want ≤ %.3f", 100*csd, rate, 5*alpha)
		}
	}
}

// Requirement 3: one commit measured 30% high (a noisy CI machine) is not a
// shift, wherever it is in the series except at its ends; two commits are.
func TestOneNoisyCommitIsNotAShift(t *testing.T) {
	for _, b := range []int{1, 2, 10, 15, 27, 28} {
		for seed := uint64(1); seed <= 5; seed++ {
			l := levels(30, 1000, nil)
			l[b] *= 1.3
			if cs := Detect(gen(seed, l, 5, 0.02, 0), Options{}); len(cs) > 0 {
				t.Errorf("blip at %d, seed %d: changes at %v", b, seed, indexes(cs))
				logChanges(t, cs)
			}
		}
	}
}

func TestTwoCommitsAreAShift(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		// Two noisy commits in the middle: up, then back down.
		l := levels(30, 1000, nil)
		l[15] *= 1.3
		l[16] *= 1.3
		if got := indexes(Detect(gen(seed, l, 5, 0.02, 0), Options{})); !slices.Equal(got, []int{15, 17}) {
			t.Errorf("two high commits at 15, 16, seed %d: changes at %v, want [15 17]", seed, got)
		}
		// A shift in the last two commits.
		pts := gen(seed, levels(30, 1000, map[int]float64{28: 1.3}), 5, 0.02, 0)
		if got := indexes(Detect(pts, Options{})); !slices.Equal(got, []int{28}) {
			t.Errorf("shift at 28 of 30, seed %d: changes at %v, want [28]", seed, got)
		}
	}
}

// A shift at either end of the series has one commit on one side: it is
// reported only when that commit's samples separate cleanly, each beyond
// the median of every commit on the other side. A noisy last commit is
// indistinguishable from a shift there, and is reported.
func TestEnds(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		l := levels(30, 1000, nil)
		l[29] *= 1.3
		if got := indexes(Detect(gen(seed, l, 5, 0.02, 0), Options{})); !slices.Equal(got, []int{29}) {
			t.Errorf("last commit 30%% high, seed %d: changes at %v, want [29]", seed, got)
		}
		l = levels(30, 1000, nil)
		l[0] *= 1.3
		if got := indexes(Detect(gen(seed, l, 5, 0.02, 0), Options{})); !slices.Equal(got, []int{1}) {
			t.Errorf("first commit 30%% high, seed %d: changes at %v, want [1]", seed, got)
		}
	}
	// 8% higher at the last commit: found when all its samples clear the
	// other commits' medians, not when one of them falls among them.
	base := gen(7, levels(29, 1000, nil), 5, 0.01, 0)
	top := math.Inf(-1)
	for _, p := range base {
		top = max(top, median(slices.Clone(p.Values)))
	}
	clean := Point{"last", []float64{1080, 1075, 1085, 1078, 1082}}
	if got := indexes(Detect(append(slices.Clone(base), clean), Options{})); !slices.Equal(got, []int{29}) {
		t.Errorf("last commit 8%% higher, cleanly: changes at %v, want [29]", got)
	}
	overlap := Point{"last", []float64{1080, 1075, 1085, 1078, top - 1}}
	if got := indexes(Detect(append(slices.Clone(base), overlap), Options{})); len(got) > 0 {
		t.Errorf("last commit 8%% higher but one sample (%.1f) below the top commit median %.1f: changes at %v, want none", top-1, top, got)
	}
}

// Requirement 4: up at 10, down at 20 of 30.
func TestTwoShifts(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		cs := Detect(gen(seed, levels(30, 1000, map[int]float64{10: 1.1, 20: 1 / 1.1}), 5, 0.02, 0), Options{})
		if got := indexes(cs); !slices.Equal(got, []int{10, 20}) {
			t.Errorf("seed %d: changes at %v, want [10 20]", seed, got)
			logChanges(t, cs)
			continue
		}
		if math.Abs(cs[0].Delta-0.1) > 0.03 || math.Abs(cs[1].Delta+0.09) > 0.03 {
			t.Errorf("seed %d: Delta %.3f, %.3f, want ≈ +0.10, −0.09", seed, cs[0].Delta, cs[1].Delta)
		}
	}
}

// Requirement 5: a drift of 0.5% a commit over 30 commits (15% in all,
// against 2% noise) comes out as a staircase: a few upward changes of a
// few percent, where the accumulated drift outgrows the noise. A larger
// MinDelta leaves fewer, larger steps.
func TestDrift(t *testing.T) {
	l := make([]float64, 30)
	for i := range l {
		l[i] = 1000 * math.Pow(1.005, float64(i))
	}
	for seed := uint64(1); seed <= 5; seed++ {
		for _, md := range []float64{0, 0.05} {
			cs := Detect(gen(seed, l, 5, 0.02, 0), Options{MinDelta: md})
			t.Logf("seed %d, MinDelta %.2f: changes at %v", seed, md, indexes(cs))
			logChanges(t, cs)
			if len(cs) == 0 || len(cs) > 5 {
				t.Errorf("seed %d, MinDelta %.2f: %d changes, want 1 to 5", seed, md, len(cs))
			}
			for _, c := range cs {
				if c.Delta <= 0 || c.Delta > 0.12 {
					t.Errorf("seed %d: change at %d of %+.3f, want a step up of a few percent", seed, c.Index, c.Delta)
				}
			}
		}
	}
}

// Requirement 6: the output depends only on the input and the seed, and on
// clear data not on the seed.
func TestDeterminism(t *testing.T) {
	pts := gen(3, levels(40, 1000, map[int]float64{10: 1.1, 20: 0.95, 33: 1.2}), 5, 0.02, 0.005)
	want := Detect(pts, Options{Seed: 1})
	for range 3 {
		if got := Detect(pts, Options{Seed: 1}); !reflect.DeepEqual(got, want) {
			t.Fatalf("same seed, different output:\n%+v\n%+v", got, want)
		}
	}
	for seed := uint64(0); seed < 10; seed++ {
		if got := indexes(Detect(pts, Options{Seed: seed})); !slices.Equal(got, []int{10, 20, 33}) {
			t.Errorf("seed %d: changes at %v, want [10 20 33]", seed, got)
		}
	}
}

// long is requirement 7's series: 500 commits × 10 samples, with a shift
// of ±5% every 50 commits.
func long() ([]Point, []int) {
	f := map[int]float64{}
	var want []int
	for i := 50; i < 500; i += 50 {
		f[i] = 1.05
		if i/50%2 == 0 {
			f[i] = 1 / 1.05
		}
		want = append(want, i)
	}
	return gen(1, levels(500, 1000, f), 10, 0.02, 0), want
}

func TestLongSeries(t *testing.T) {
	pts, want := long()
	start := time.Now()
	cs := Detect(pts, Options{})
	t.Logf("500 commits × 10 samples: %v", time.Since(start))
	if got := indexes(cs); !slices.Equal(got, want) {
		t.Errorf("changes at %v, want %v", got, want)
		logChanges(t, cs)
	}
}

// Requirement 7: go test -run XXX -bench . ./internal/changepoint
func BenchmarkDetect(b *testing.B) {
	pts, _ := long()
	for b.Loop() {
		Detect(pts, Options{})
	}
}

func BenchmarkDetectFlat(b *testing.B) {
	pts := gen(1, levels(500, 1000, nil), 10, 0.02, 0)
	for b.Loop() {
		Detect(pts, Options{})
	}
}

func TestInputs(t *testing.T) {
	if cs := Detect(nil, Options{}); cs != nil {
		t.Errorf("nil input: %v", cs)
	}
	if cs := Detect(mustShow[:1], Options{}); cs != nil {
		t.Errorf("one point: %v", cs)
	}
	// Points without finite samples are skipped; indexes stay the caller's.
	pts := slices.Clone(mustShow)
	pts = slices.Insert(pts, 2, Point{"empty", nil}, Point{"nan", []float64{math.NaN(), math.Inf(1)}})
	pts[0].Values = append(slices.Clone(pts[0].Values), math.NaN())
	cs := Detect(pts, Options{})
	if len(cs) != 1 || cs[0].Index != 4 || cs[0].Label != "c002" {
		t.Errorf("with empty points before the step: %+v, want one change at 4 (c002)", cs)
	}
	// Two commits: with 10 samples each, a doubling is found.
	if got := indexes(Detect(gen(1, levels(2, 1000, map[int]float64{1: 2}), 10, 0.02, 0), Options{})); !slices.Equal(got, []int{1}) {
		t.Errorf("two commits: changes at %v, want [1]", got)
	}
	// Exact counts (allocs/op): runs agree, a step of one is found, also
	// at the last commit; one flaky commit is not a step.
	for _, at := range []int{15, 29} {
		cs := Detect(gen(1, levels(30, 10, map[int]float64{at: 1.1}), 5, 0, 0), Options{})
		if len(cs) != 1 || cs[0].Index != at || cs[0].Before != 10 || cs[0].After != 11 {
			t.Errorf("allocs 10 → 11 at %d: %+v", at, cs)
		}
	}
	l := levels(30, 10, nil)
	l[12] = 11
	if cs := Detect(gen(1, l, 5, 0, 0), Options{}); len(cs) > 0 {
		t.Errorf("one commit with 11 allocs among 10s: %v", indexes(cs))
	}
	// Constant input.
	if cs := Detect(gen(1, levels(20, 5, nil), 3, 0, 0), Options{}); len(cs) > 0 {
		t.Errorf("constant input: %v", indexes(cs))
	}
	// A zero level: Delta is absolute.
	zero := []Point{{"a", []float64{0, 0, 0}}, {"b", []float64{0, 0, 0}}, {"c", []float64{3, 3, 3}}, {"d", []float64{3, 3, 3}}, {"e", []float64{3, 3, 3}}}
	if cs := Detect(zero, Options{}); len(cs) != 1 || cs[0].Index != 2 || cs[0].Delta != 3 {
		t.Errorf("0 → 3: %+v, want one change at 2 with Delta 3", cs)
	}
}

func TestMinDelta(t *testing.T) {
	pts := gen(1, levels(30, 1000, map[int]float64{15: 1.03}), 10, 0.01, 0)
	if got := indexes(Detect(pts, Options{})); !slices.Equal(got, []int{15}) {
		t.Fatalf("3%% step: changes at %v, want [15]", got)
	}
	if got := indexes(Detect(pts, Options{MinDelta: 0.05})); len(got) > 0 {
		t.Errorf("3%% step with MinDelta 5%%: changes at %v, want none", got)
	}
}

func TestWithDefaults(t *testing.T) {
	o := Options{}.WithDefaults()
	if o.Alpha != DefaultAlpha || o.Permutations != DefaultPermutations || o.MinSize != DefaultMinSize || o.Window != DefaultWindow || o.MinDelta != 0 {
		t.Errorf("defaults: %+v", o)
	}
	// A small Alpha gets enough permutations to reach it.
	if o := (Options{Alpha: 0.001}).WithDefaults(); o.Permutations < 1999 {
		t.Errorf("Alpha 0.001: %d permutations", o.Permutations)
	}
	if o := (Options{Alpha: math.NaN(), MinDelta: math.NaN()}).WithDefaults(); o.Alpha != DefaultAlpha || o.MinDelta != 0 {
		t.Errorf("NaN options: %+v", o)
	}
}

// The engine's statistic equals Matteson and James's Q̂ computed from its
// definition.
func TestStatisticMatchesDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var commits [][]float64
	var all []float64
	for range 12 {
		v := make([]float64, 1+rng.IntN(6))
		for j := range v {
			v[j] = math.Round(100 * rng.ExpFloat64()) // ties included
		}
		commits = append(commits, v)
		all = append(all, v...)
	}
	e := newEngine()
	offs := e.load(commits, nil)
	var cuts []int
	for _, o := range offs {
		if o >= 2 && len(all)-o >= 2 {
			cuts = append(cuts, o)
		}
	}
	qs := make([]float64, len(cuts))
	e.observed(cuts, qs)
	for k, m := range cuts {
		x, y := all[:m], all[m:]
		var cross, wx, wy float64
		for _, a := range x {
			for _, b := range y {
				cross += math.Abs(a - b)
			}
		}
		for i := range x {
			for j := i + 1; j < len(x); j++ {
				wx += math.Abs(x[i] - x[j])
			}
		}
		for i := range y {
			for j := i + 1; j < len(y); j++ {
				wy += math.Abs(y[i] - y[j])
			}
		}
		fm, fn := float64(len(x)), float64(len(y))
		e := 2*cross/(fm*fn) - wx/(fm*(fm-1)/2) - wy/(fn*(fn-1)/2)
		want := fm * fn / (fm + fn) * e
		if math.Abs(qs[k]-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("cut %d: Q = %g, want %g", m, qs[k], want)
		}
	}
}

func TestTTwoSided(t *testing.T) {
	for _, c := range []struct{ t, df, p float64 }{
		{63.657, 1, 0.01},
		{2.776445, 4, 0.05},
		{5.840909, 3, 0.01},
		{2.228139, 10, 0.05},
		{2.0, 10, 0.07338803},
		{1.959964, 1e6, 0.05},
		{0, 5, 1},
		{0.5, 2.5, 0.6576979}, // by numerical integration of the density
	} {
		if got := tTwoSided(c.t, c.df); math.Abs(got-c.p) > 2e-4*c.p {
			t.Errorf("tTwoSided(%g, %g) = %.7g, want %.7g", c.t, c.df, got, c.p)
		}
	}
}
