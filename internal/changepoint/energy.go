package changepoint

import (
	"math"
	"math/rand/v2"
	"slices"
)

// engine evaluates the e-divisive statistic on the samples of a run of
// commits and runs permutation tests on it. It keeps its buffers between
// uses; one engine serves one goroutine.
//
// For a split of N samples into the first m (X) and the last n = N−m (Y)
// the statistic is Matteson and James's
//
//	Q = mn/N · Ê,  Ê = 2/(mn)·Σ|x−y| − Σ|x−x'|/C(m,2) − Σ|y−y'|/C(n,2)
//
// with exponent 1 (absolute differences). Ê is an unbiased estimate of the
// energy distance between the two distributions: zero on average when they
// are the same, positive when they differ in any way.
type engine struct {
	sorted []float64 // the loaded samples, ascending, centred on their median
	dist   []float64 // dist[r]: Σ over the loaded samples of |sorted[r] − x|
	total  float64   // Σ over unordered pairs of loaded samples of |x − x'|
	ranks  []int32   // ranks[i]: rank in sorted of the i-th sample in series order
	work   []int32   // the permuted arrangement
	cnt    []int32   // Fenwick tree over ranks: how many inserted
	sum    []float64 // Fenwick tree over ranks: sum of inserted values
	order  []int32   // scratch for ranking
	raw    []float64 // scratch: samples in series order
	rng    *rand.Rand
	pcg    *rand.PCG
}

func newEngine() *engine {
	pcg := rand.NewPCG(0, 0)
	return &engine{pcg: pcg, rng: rand.New(pcg)}
}

// load gathers the samples of the given commits, in order, and returns
// the sample offset of each commit boundary: offs[k] is the number of
// samples in commits[:k], for k = 0 … len(commits).
func (e *engine) load(commits [][]float64, offs []int) []int {
	e.raw = e.raw[:0]
	offs = append(offs[:0], 0)
	for _, v := range commits {
		e.raw = append(e.raw, v...)
		offs = append(offs, len(e.raw))
	}
	n := len(e.raw)
	e.order = grow(e.order, n)
	for i := range e.order {
		e.order[i] = int32(i)
	}
	slices.SortStableFunc(e.order, func(i, j int32) int {
		switch x, y := e.raw[i], e.raw[j]; {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	e.sorted = grow(e.sorted, n)
	e.ranks = grow(e.ranks, n)
	centre := 0.0
	if n > 0 {
		centre = e.raw[e.order[n/2]]
	}
	for r, i := range e.order {
		e.sorted[r] = e.raw[i] - centre
		e.ranks[i] = int32(r)
	}
	// With the values sorted, the distances from one value to all others
	// and the sum over all pairs follow from prefix sums.
	var tot float64
	for _, v := range e.sorted {
		tot += v
	}
	e.dist = grow(e.dist, n)
	e.total = 0
	var below float64
	for r, v := range e.sorted {
		above := tot - below - v
		e.dist[r] = v*float64(r) - below + above - v*float64(n-1-r)
		e.total += v * float64(2*r-n+1)
		below += v
	}
	e.work = grow(e.work, n)
	e.cnt = grow(e.cnt, n+1)
	e.sum = grow(e.sum, n+1)
	return offs
}

// scan returns the largest Q over the splits that put the first m samples
// of arrangement perm on one side, for each m in cuts (ascending, each in
// [2, N−2]). If qs is not nil, it receives Q for each cut.
func (e *engine) scan(perm []int32, cuts []int, qs []float64) float64 {
	n := len(perm)
	N := float64(n)
	clear(e.cnt)
	clear(e.sum)
	best := math.Inf(-1)
	var within, seen, sumDist float64 // Σ|x−x'| and Σx over the prefix, Σ dist
	k := 0
	last := cuts[len(cuts)-1]
	for pos := 0; pos < last; pos++ {
		r := int(perm[pos])
		y := e.sorted[r]
		// Prefix sums over the ranks below r: their count and total.
		var c int32
		var below float64
		for i := r; i > 0; i &= i - 1 {
			c += e.cnt[i]
			below += e.sum[i]
		}
		within += y*float64(c) - below + (seen - below) - y*float64(int32(pos)-c)
		seen += y
		sumDist += e.dist[r]
		for i := r + 1; i <= n; i += i & -i {
			e.cnt[i]++
			e.sum[i] += y
		}
		if pos+1 == cuts[k] {
			m := float64(pos + 1)
			rest := N - m
			cross := sumDist - 2*within
			other := e.total - within - cross
			q := 2 / N * (cross - rest*within/(m-1) - m*other/(rest-1))
			if qs != nil {
				qs[k] = q
			}
			best = max(best, q)
			k++
		}
	}
	return best
}

// observed returns Q at each cut for the samples in series order.
func (e *engine) observed(cuts []int, qs []float64) float64 {
	return e.scan(e.ranks, cuts, qs)
}

// pvalue is the permutation p-value of qObs against the largest Q over cuts
// when the loaded samples are shuffled: (k+1)/(R+1), where k of R shuffles
// reach qObs. Taking the maximum over all the cuts that were searched
// accounts for the split having been chosen as the best one; with a single
// cut it is the plain two-sample energy test.
//
// The p-value is exact under exchangeability for any R, and a p-value ≤
// level is reached with probability at most level when level·(R+1) is an
// integer. Shuffling stops early (Besag and Clifford's sequential Monte
// Carlo test) once the count is so high that the p-value cannot be at or
// below level any more; the estimate returned then, (k+1)/(r+1) after r
// shuffles, is above level too.
func (e *engine) pvalue(cuts []int, qObs float64, permutations int, level float64, seed1, seed2 uint64) float64 {
	n := len(e.ranks)
	stop := max(int(level*float64(permutations+1))+1, 10)
	// Equal arrangements must count as reaching qObs whatever the rounding
	// of sums taken in another order.
	tol := 1e-9 * 2 * math.Abs(e.total) / float64(n)
	e.pcg.Seed(seed1, seed2)
	copy(e.work, e.ranks)
	hits := 0
	for r := 1; r <= permutations; r++ {
		for i := n - 1; i > 0; i-- {
			j := e.rng.IntN(i + 1)
			e.work[i], e.work[j] = e.work[j], e.work[i]
		}
		if e.scan(e.work, cuts, nil) >= qObs-tol {
			hits++
			if hits >= stop {
				return float64(hits+1) / float64(r+1)
			}
		}
	}
	return float64(hits+1) / float64(permutations+1)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// mix derives a seed from a test's coordinates (splitmix64 finalizer), so
// that each test's shuffles depend on the caller's seed and on what is
// tested, never on the order tests run in.
func mix(vals ...int) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, v := range vals {
		h ^= uint64(int64(v))
		h += 0x9e3779b97f4a7c15
		h = (h ^ h>>30) * 0xbf58476d1ce4e5b9
		h = (h ^ h>>27) * 0x94d049bb133111eb
		h ^= h >> 31
	}
	return h
}
