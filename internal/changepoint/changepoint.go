package changepoint

import (
	"math"
	"slices"
)

// Point is one commit's measurements of one benchmark and unit: the
// samples of its runs (go test -count values), in git order in the series
// (oldest first).
type Point struct {
	Label  string    // commit hash or other label
	Values []float64 // raw samples, ≥ 1; NaN and ±Inf are ignored
}

// Change is a shift in the series between Points[Index-1] and
// Points[Index].
type Change struct {
	Index int    // first point after the shift
	Label string // Points[Index].Label
	// Before and After are the medians of the samples of the segments
	// either side, each bounded by the neighbouring change points (or the
	// ends of the series).
	Before, After float64
	// Delta is After/Before − 1 (relative), or After − Before when Before
	// is 0.
	Delta float64
	// P is the p-value of this split against its neighbours: the
	// e-divisive permutation test on the samples, so at most
	// Options.Alpha. The split also passed the checks that no single
	// commit makes it (see the package documentation). A permutation
	// p-value is never below 1/(Permutations+1): 0.005 by default.
	P          float64
	Confidence float64 // 1 − P
}

// Defaults of Options' zero fields.
const (
	DefaultAlpha        = 0.01
	DefaultPermutations = 199
	DefaultMinSize      = 2
	DefaultWindow       = 50
)

// Options tune the detection; the zero value is usable (Defaults applied).
type Options struct {
	// Alpha is the significance level of each split (default 0.01).
	Alpha float64
	// Permutations is the number of shuffles of each permutation test
	// (default 199, or ⌈2/Alpha⌉−1 when that is more, so that a p-value
	// at or below Alpha is reachable: the smallest is 1/(Permutations+1)).
	Permutations int
	// MinSize is the minimum number of points (commits) of a segment
	// between two change points (default 2: a single commit that differs
	// from both neighbours is a blip, not a shift). Segments at either end
	// of the series may be shorter, down to one point; see the package
	// documentation for the stricter rule they must then meet.
	MinSize int
	// MinDelta drops shifts whose |Delta| is smaller (default 0; a caller
	// typically sets 0.02).
	MinDelta float64
	// Seed seeds the permutations; results are deterministic for a given
	// input and seed.
	Seed uint64
	// Window is the number of points of each window of the first, splitting
	// pass (default 50); windows overlap by half. Smaller windows find short
	// shifts in long series more easily and cost less.
	Window int
	// Cache, if not nil, answers the permutation tests an earlier call
	// ran on the same samples and keeps this call's (see Cache). The
	// result is the same with a cache or without one.
	Cache *Cache
}

// WithDefaults returns o with its zero (or invalid) fields set to the
// defaults Detect uses.
func (o Options) WithDefaults() Options {
	if !(o.Alpha > 0 && o.Alpha < 1) {
		o.Alpha = DefaultAlpha
	}
	if o.Permutations <= 0 {
		o.Permutations = max(DefaultPermutations, int(math.Ceil(2/o.Alpha))-1)
	}
	if o.MinSize <= 0 {
		o.MinSize = DefaultMinSize
	}
	if !(o.MinDelta > 0) {
		o.MinDelta = 0
	}
	if o.Window <= 0 {
		o.Window = DefaultWindow
	}
	o.Window = max(o.Window, 2*o.MinSize+2)
	return o
}

// series is the input without points that have no usable sample.
type series struct {
	vals  [][]float64 // samples of each commit
	med   []float64   // median of each commit's samples
	mean  []float64   // mean of each commit's samples
	ss    []float64   // sum of squared deviations from the mean
	index []int       // index of each commit in the caller's points
}

func newSeries(points []Point) *series {
	s := &series{}
	for i, p := range points {
		var v []float64
		for _, x := range p.Values {
			if !math.IsNaN(x) && !math.IsInf(x, 0) {
				v = append(v, x)
			}
		}
		if len(v) == 0 {
			continue
		}
		s.vals = append(s.vals, v)
		s.med = append(s.med, median(slices.Clone(v)))
		var sum, ss float64
		for _, x := range v {
			sum += x
		}
		mean := sum / float64(len(v))
		for _, x := range v {
			ss += (x - mean) * (x - mean)
		}
		s.mean = append(s.mean, mean)
		s.ss = append(s.ss, ss)
		s.index = append(s.index, i)
	}
	return s
}

func (s *series) len() int { return len(s.vals) }

// samples returns how many samples commits [a, c) hold.
func (s *series) samples(a, c int) int {
	n := 0
	for _, v := range s.vals[a:c] {
		n += len(v)
	}
	return n
}

// pooledMedian is the median of all samples of commits [a, c).
func (s *series) pooledMedian(a, c int) float64 {
	var all []float64
	for _, v := range s.vals[a:c] {
		all = append(all, v...)
	}
	return median(all)
}

// median sorts xs and returns its median.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Detect returns the change points of the series, sorted by Index (none
// for fewer than two points).
//
// Points without a finite sample are ignored: a change reported at Index
// lies between Index and the nearest earlier point that has samples.
// Detect may be called concurrently.
func Detect(points []Point, opts Options) []Change {
	d := &detector{s: newSeries(points), opt: opts.WithDefaults(), eng: newEngine(), memo: map[[3]int]evaluation{}}
	if c := d.opt.Cache; c != nil {
		c.begin()
		defer c.end()
	}
	if d.s.len() < 2 {
		return nil
	}
	cands := d.split()
	kept, evals := d.merge(cands)
	out := make([]Change, len(kept))
	for i, tau := range kept {
		idx := d.s.index[tau]
		ev := evals[i]
		out[i] = Change{
			Index:      idx,
			Label:      points[idx].Label,
			Before:     ev.before,
			After:      ev.after,
			Delta:      ev.delta,
			P:          ev.p,
			Confidence: 1 - ev.p,
		}
	}
	return out
}

type detector struct {
	s       *series
	opt     Options
	eng     *engine
	memo    map[[3]int]evaluation
	commits [][]float64 // the commits to load into eng
	scaled  []float64   // backing store of scaled samples
	offs    []int
	cuts    []int
	taus    []int
	qs      []float64
}

// Kinds of test, mixed into each test's seed.
const (
	testSplit = iota + 1
	testMerge
	testLeaveOut
)

// admissible reports whether τ may split commits [a, c) of the series:
// each side needs MinSize commits, except a side at an end of the whole
// series, which needs one; and each side needs two samples for the
// statistic to be defined.
func (d *detector) admissible(a, tau, c int) bool {
	left, right := tau-a, c-tau
	if left < 1 || right < 1 {
		return false
	}
	if left < d.opt.MinSize && a != 0 {
		return false
	}
	if right < d.opt.MinSize && c != d.s.len() {
		return false
	}
	return d.s.samples(a, tau) >= 2 && d.s.samples(tau, c) >= 2
}

// gather sets d.commits to the samples of commits [a, c), with commit
// skip (−1 for none) left empty. For a split at tau (> 0), each commit's
// samples are first scaled about their mean by the overdispersion factor
// of the split (see dispersion).
func (d *detector) gather(a, tau, c, skip int) {
	d.commits, d.scaled = d.commits[:0], d.scaled[:0]
	lambda := 1.0
	if tau > 0 {
		lambda = d.dispersion(a, tau, c, skip)
	}
	for k := a; k < c; k++ {
		v, mean := d.s.vals[k], d.s.mean[k]
		switch {
		case k == skip:
			v = nil
		case math.IsInf(lambda, 1):
			// Runs agree exactly but commits do not: the commit is
			// the unit, one value each.
			d.scaled = append(d.scaled, mean)
			v = d.scaled[len(d.scaled)-1:]
		case lambda != 1:
			start := len(d.scaled)
			for _, x := range v {
				d.scaled = append(d.scaled, mean+lambda*(x-mean))
			}
			v = d.scaled[start:]
		}
		d.commits = append(d.commits, v)
	}
}

// dispersion returns the factor λ = √max(1, F) by which the samples of
// commits [a, c) (without skip) are spread about their commit's mean for
// testing the split at tau. F is the one-way ANOVA ratio of the scatter of
// commit means about their side's mean to the scatter the runs within
// commits predict for it. When commits scatter more than their runs say
// (F > 1: something that changes per commit, such as the build, the code
// layout or the machine's state, adds noise), scaling by λ makes a commit's
// samples as spread as commits are, so that shuffling samples mimics
// shuffling commits. It is +Inf when runs agree exactly but commits differ.
func (d *detector) dispersion(a, tau, c, skip int) float64 {
	s := d.s
	var ssb, ssw, inv float64
	var dfb, dfw, n int
	for _, side := range [2][2]int{{a, tau}, {tau, c}} {
		var sum float64
		cnt := 0
		for k := side[0]; k < side[1]; k++ {
			if k != skip {
				sum += s.mean[k]
				cnt++
			}
		}
		if cnt == 0 {
			continue
		}
		m := sum / float64(cnt)
		for k := side[0]; k < side[1]; k++ {
			if k != skip {
				ssb += (s.mean[k] - m) * (s.mean[k] - m)
				ssw += s.ss[k]
				dfw += len(s.vals[k]) - 1
				inv += 1 / float64(len(s.vals[k]))
				n++
			}
		}
		dfb += cnt - 1
	}
	switch {
	case dfb == 0 || ssb == 0 || dfw == 0:
		return 1
	case ssw == 0:
		return math.Inf(1)
	}
	f := (ssb / float64(dfb)) / (ssw / float64(dfw) * inv / float64(n))
	return math.Sqrt(max(1, f))
}

// loadCuts loads commits [a, c) into the engine (scaled for the split at
// tau, raw when tau is 0) and sets d.cuts and d.taus to the sample offsets
// and commit indexes of the admissible splits.
func (d *detector) loadCuts(a, tau, c int) {
	d.gather(a, tau, c, -1)
	d.offs = d.eng.load(d.commits, d.offs)
	d.cuts, d.taus = d.cuts[:0], d.taus[:0]
	for t := a + 1; t < c; t++ {
		if d.admissible(a, t, c) && d.offs[t-a] >= 2 && d.offs[c-a]-d.offs[t-a] >= 2 {
			d.cuts = append(d.cuts, d.offs[t-a])
			d.taus = append(d.taus, t)
		}
	}
}

// split is the first pass: e-divisive on overlapping windows at a relaxed
// level, as hunter does, returning the candidate change points (sorted
// commit indexes). A window's candidates are refined by the merge pass.
func (d *detector) split() []int {
	n := d.s.len()
	level := max(d.opt.Alpha, min(10*d.opt.Alpha, 0.1))
	found := map[int]bool{}
	w := d.opt.Window
	for a := 0; ; a += w / 2 {
		c := min(a+w, n)
		d.divide(a, c, level, found)
		if c == n {
			break
		}
	}
	cands := make([]int, 0, len(found))
	for tau := range found {
		cands = append(cands, tau)
	}
	slices.Sort(cands)
	return cands
}

// divide splits commits [a, c) at their best split if that split is
// significant at level, then each side in turn (binary segmentation).
func (d *detector) divide(a, c int, level float64, found map[int]bool) {
	if c-a < 2 {
		return
	}
	d.loadCuts(a, 0, c)
	if len(d.cuts) == 0 {
		return
	}
	d.qs = grow(d.qs, len(d.cuts))
	d.eng.observed(d.cuts, d.qs)
	best := 0
	for k, q := range d.qs {
		if q > d.qs[best] {
			best = k
		}
	}
	tau, q := d.taus[best], d.qs[best]
	if !(q > 0) {
		return // the best split shows no difference at all
	}
	p := d.pvalue(d.cuts, q, level, mix(testSplit, a, tau, c))
	if p > level {
		return
	}
	found[tau] = true
	d.divide(a, tau, level, found)
	d.divide(tau, c, level, found)
}

// evaluation is a candidate tested against its neighbours.
type evaluation struct {
	before, after, delta float64
	p                    float64 // 1 when the split is not admissible or not robust
}

// weaker reports whether x should be dropped before y.
func weaker(x, y evaluation) bool {
	if x.p != y.p {
		return x.p > y.p
	}
	return math.Abs(x.delta) < math.Abs(y.delta)
}

// merge is the second pass (hunter's): each candidate is re-tested
// against the segments bounded by its neighbours, and the weakest failing
// one is dropped and its neighbours re-tested, until all pass. Dropping
// greedily can lose a real change that failed only beside a spurious
// neighbour, so each dropped candidate is then offered again against the
// kept ones, and kept if it passes; this repeats (a few rounds at most)
// until nothing is added. It returns the kept candidates and their
// evaluations.
func (d *detector) merge(cands []int) ([]int, []evaluation) {
	kept, evals := d.prune(cands)
	for range 4 {
		added := false
		for _, tau := range cands {
			i, found := slices.BinarySearch(kept, tau)
			if found {
				continue
			}
			prev, next := 0, d.s.len()
			if i > 0 {
				prev = kept[i-1]
			}
			if i < len(kept) {
				next = kept[i]
			}
			if d.passes(d.evaluate(prev, tau, next)) {
				kept = slices.Insert(kept, i, tau)
				added = true
			}
		}
		if !added {
			break
		}
		kept, evals = d.prune(kept)
	}
	return kept, evals
}

func (d *detector) passes(ev evaluation) bool {
	return ev.p <= d.opt.Alpha && math.Abs(ev.delta) >= d.opt.MinDelta
}

// prune drops the weakest failing candidate and re-tests its neighbours
// until all candidates pass: first those whose p-value is above Alpha,
// then those whose shift is below MinDelta.
func (d *detector) prune(cands []int) ([]int, []evaluation) {
	cps := slices.Clone(cands)
	evals := make([]evaluation, len(cps))
	eval := func(i int) {
		prev, next := 0, d.s.len()
		if i > 0 {
			prev = cps[i-1]
		}
		if i+1 < len(cps) {
			next = cps[i+1]
		}
		evals[i] = d.evaluate(prev, cps[i], next)
	}
	for i := range cps {
		eval(i)
	}
	for len(cps) > 0 {
		worst := -1
		for i, ev := range evals {
			if ev.p > d.opt.Alpha && (worst < 0 || weaker(ev, evals[worst])) {
				worst = i
			}
		}
		if worst < 0 {
			for i, ev := range evals {
				if math.Abs(ev.delta) < d.opt.MinDelta && (worst < 0 || math.Abs(ev.delta) < math.Abs(evals[worst].delta)) {
					worst = i
				}
			}
		}
		if worst < 0 {
			break
		}
		cps = slices.Delete(cps, worst, worst+1)
		evals = slices.Delete(evals, worst, worst+1)
		for _, i := range []int{worst - 1, worst} {
			if i >= 0 && i < len(cps) {
				eval(i)
			}
		}
	}
	return cps, evals
}

// evaluate tests the split of commits [prev, next) at tau; the tests use
// the commits within Window of tau. The split must pass:
//
//  1. at Alpha, the e-divisive permutation test on the samples, each
//     commit's samples first spread by the overdispersion factor (see
//     dispersion), against the best admissible split of the shuffled
//     samples;
//  2. Student's t-test on the commit medians (see commitTest), at Alpha,
//     or at the check level for a shift of bigShift or more tested on
//     fewer than ten commits;
//  3. at the check level, for each side of two or more commits, the
//     permutation test at tau with that side's most extreme commit (in
//     the direction of its side of the shift) left out: no single commit
//     makes the shift;
//  4. for a side of one commit (only at an end of the series, unless
//     MinSize is 1), clean separation: each of its samples beyond the
//     median of every commit on the other side.
//
// The evaluation's p is the p-value of 1 when the split passes; when it
// fails, the failing test's p-value (the merge pass drops the weakest
// candidate first), or 1 when the split is not admissible or fails 4.
func (d *detector) evaluate(prev, tau, next int) evaluation {
	key := [3]int{prev, tau, next}
	if ev, ok := d.memo[key]; ok {
		return ev
	}
	ev := d.evaluateSplit(prev, tau, next)
	d.memo[key] = ev
	return ev
}

func (d *detector) evaluateSplit(prev, tau, next int) evaluation {
	s := d.s
	ev := evaluation{before: s.pooledMedian(prev, tau), after: s.pooledMedian(tau, next), p: 1}
	if ev.before != 0 {
		ev.delta = ev.after/ev.before - 1
	} else {
		ev.delta = ev.after - ev.before
	}
	if !d.admissible(prev, tau, next) {
		return ev
	}
	w := d.opt.Window
	a, c := max(prev, tau-w), min(next, tau+w)
	d.loadCuts(a, tau, c)
	k := slices.Index(d.taus, tau)
	if k < 0 {
		return ev // cannot happen: Window ≥ MinSize
	}
	d.qs = grow(d.qs, len(d.cuts))
	d.eng.observed(d.cuts, d.qs)
	p := d.pvalue(d.cuts, d.qs[k], d.opt.Alpha, mix(testMerge, a, tau, c))
	if p > d.opt.Alpha {
		ev.p = p
		return ev
	}
	// The checks that no single commit makes the shift guard against one
	// noisy commit; they are not the significance test, and on a short
	// series (five commits, a shift after the second) requiring them at
	// Alpha too would miss plain shifts: they hold at check.
	check := d.check()
	// The t-test on commit medians is the one that sees noise that
	// changes per commit. With ten commits or more it has the power to
	// hold at Alpha; on fewer it holds at check only for a shift of
	// bigShift or more, since a few commits scattered by layout or a
	// machine's state easily look like a small step.
	tLevel := d.opt.Alpha
	if c-a < 10 && math.Abs(ev.delta) >= bigShift {
		tLevel = check
	}
	if pt := commitTest(s.med[a:tau], s.med[tau:c]); pt > tLevel {
		ev.p = pt
		return ev
	}
	up := ev.after >= ev.before
	// Left side: its own direction is down when the shift is up.
	if tau-prev == 1 {
		if !d.separates(prev, tau, c, !up) {
			return ev
		}
	} else if pl := d.leaveOut(a, tau, c, d.extreme(a, tau, !up)); pl > check {
		ev.p = pl
		return ev
	}
	if next-tau == 1 {
		if !d.separates(tau, a, tau, up) {
			return ev
		}
	} else if pl := d.leaveOut(a, tau, c, d.extreme(tau, c, up)); pl > check {
		ev.p = pl
		return ev
	}
	ev.p = p
	return ev
}

// bigShift is the smallest shift that a short window's t-test on commit
// medians accepts at the check level rather than at Alpha.
const bigShift = 0.10

// check is the level of the robustness checks: five times Alpha, at
// most 0.05.
func (d *detector) check() float64 { return min(5*d.opt.Alpha, max(d.opt.Alpha, 0.05)) }

// extreme returns the commit of [a, c) with the highest median, or the
// lowest when high is false.
func (d *detector) extreme(a, c int, high bool) int {
	j := a
	for k := a + 1; k < c; k++ {
		if high && d.s.med[k] > d.s.med[j] || !high && d.s.med[k] < d.s.med[j] {
			j = k
		}
	}
	return j
}

// separates reports whether every sample of commit j lies above (or
// below) the median of every commit of [a, c).
func (d *detector) separates(j, a, c int, above bool) bool {
	lim := d.s.med[d.extreme(a, c, above)]
	for _, x := range d.s.vals[j] {
		if above && !(x > lim) || !above && !(x < lim) {
			return false
		}
	}
	return true
}

// leaveOut is the two-sample permutation test of the split at tau of
// commits [a, c) without commit j.
func (d *detector) leaveOut(a, tau, c, j int) float64 {
	d.gather(a, tau, c, j)
	d.offs = d.eng.load(d.commits, d.offs)
	m, n := d.offs[tau-a], d.offs[c-a]
	if m < 2 || n-m < 2 {
		return 1
	}
	d.cuts = append(d.cuts[:0], m)
	q := d.eng.observed(d.cuts, nil)
	return d.pvalue(d.cuts, q, d.check(), mix(testLeaveOut, a, tau, c, j))
}
