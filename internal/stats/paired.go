package stats

import (
	"math"
	"sort"
)

// Paired summarizes rounds of an interleaved A/B run of one benchmark and
// unit: in round i both sides ran back to back (in random order), so
// whatever the machine did in that round hit both, and the per-round ratio
// B_i/A_i cancels it.
type Paired struct {
	N int // rounds with both sides measured
	// Delta is the median per-round change, B/A - 1 (B - A in the unit
	// where a value is zero), and Low and High bound it with a
	// distribution-free 95% interval (order statistics of the paired
	// changes, the sign-test interval).
	Delta, Low, High float64
	// SettleLow and SettleHigh bound the median change with an
	// approximate 80% interval (median ± 1.28 · 1.2533 · σ/√n, σ from the
	// MAD), used only to stop early for futility: stopping for futility
	// cannot add false alarms, and requiring the whole interval near zero
	// keeps the power to see a real change. Unlike the order-statistic
	// interval it is useful from a handful of rounds on.
	SettleLow, SettleHigh float64
	// P is the exact two-sided p-value of the Wilcoxon signed-rank test of
	// "no change" on the paired log ratios: valid at any n because, when
	// nothing changed, A and B of a round are exchangeable.
	P float64
	// MDE is the smallest relative change this run could have detected
	// at level alpha with 80% power, from the robust spread (MAD) of the
	// paired log ratios: (z(1-alpha/2) + z(0.8)) · σ / √n.
	MDE float64
	// Ratio reports whether Delta, Low, High and MDE are relative changes
	// (every value positive) rather than differences in the unit.
	Ratio bool
	// sigma is the robust spread (1.4826·MAD) of the paired log ratios
	// (or differences).
	sigma float64
}

// MDEAt is the smallest change the run could have detected with 80% power
// when its verdict is decided at significance level level among rows
// comparisons corrected with Benjamini–Hochberg (a lone real change has
// the smallest p-value, which BH tests at level/rows): (z(1−level/(2·rows))
// + z(0.8))·σ/√n. It is +Inf when even the most extreme outcome of the
// exact signed-rank test on n pairs (p = 2/2ⁿ) cannot reach that level.
func (p Paired) MDEAt(level float64, rows int) float64 {
	rows = max(rows, 1)
	a := level / float64(rows)
	if p.N == 0 || a <= 0 || math.Pow(2, 1-float64(p.N)) > a {
		return math.Inf(1)
	}
	m := (normalQuantile(1-a/2) + normalQuantile(0.8)) * p.sigma / math.Sqrt(float64(p.N))
	if p.Ratio {
		return math.Expm1(m)
	}
	return m
}

// ComparePaired analyzes paired samples a and b (a[i] and b[i] from the
// same round). alpha is the level the MDE is computed for.
func ComparePaired(a, b []float64, alpha float64) Paired {
	n := len(a)
	if len(b) < n {
		n = len(b)
	}
	p := Paired{N: n, P: 1, Ratio: true}
	if n == 0 {
		return p
	}
	for i := 0; i < n; i++ {
		if a[i] <= 0 || b[i] <= 0 {
			p.Ratio = false
		}
	}
	d := make([]float64, n)
	for i := 0; i < n; i++ {
		if p.Ratio {
			d[i] = math.Log(b[i] / a[i])
		} else {
			d[i] = b[i] - a[i]
		}
	}
	p.P = SignedRankP(d)
	sorted := append([]float64(nil), d...)
	sort.Float64s(sorted)
	med := median(sorted)
	lo, hi := signTestInterval(sorted, Confidence)
	half := normalQuantile(0.90) * 1.2533 * 1.4826 * medianAbsDev(sorted, median(sorted)) / math.Sqrt(float64(n))
	slo, shi := median(sorted)-half, median(sorted)+half
	mad := 1.4826 * medianAbsDev(sorted, med)
	p.sigma = mad
	mde := (normalQuantile(1-alpha/2) + normalQuantile(0.8)) * mad / math.Sqrt(float64(n))
	if p.Ratio {
		p.Delta, p.Low, p.High, p.MDE = math.Expm1(med), math.Expm1(lo), math.Expm1(hi), math.Expm1(mde)
		p.SettleLow, p.SettleHigh = math.Expm1(slo), math.Expm1(shi)
	} else {
		p.Delta, p.Low, p.High, p.MDE = med, lo, hi, mde
		p.SettleLow, p.SettleHigh = slo, shi
	}
	return p
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func medianAbsDev(sorted []float64, med float64) float64 {
	dev := make([]float64, len(sorted))
	for i, v := range sorted {
		dev[i] = math.Abs(v - med)
	}
	sort.Float64s(dev)
	return median(dev)
}

// signTestInterval returns the distribution-free interval for the median
// of sorted: the order statistics (k, n+1-k) with the largest k such that
// P(Binomial(n, ½) < k) ≤ (1-confidence)/2. With too few values for the
// confidence asked, it returns the full range.
func signTestInterval(sorted []float64, confidence float64) (lo, hi float64) {
	n := len(sorted)
	tail := (1 - confidence) / 2
	k := 0 // number of order statistics cut from each end
	cum := 0.0
	for j := 0; j < n/2; j++ {
		cum += binomPMF(n, j)
		if cum > tail {
			break
		}
		k = j + 1
	}
	if k == 0 {
		return sorted[0], sorted[n-1]
	}
	return sorted[k-1], sorted[n-k]
}

func binomPMF(n, k int) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) - float64(n)*math.Ln2)
}

// SignedRankP returns the exact two-sided p-value of the Wilcoxon
// signed-rank test that d is symmetric about zero. Zeros are dropped
// (Wilcoxon's convention); tied magnitudes get midranks, and the exact null
// distribution is counted over the midranks, so ties are handled exactly.
func SignedRankP(d []float64) float64 {
	var abs []float64
	var pos []bool
	for _, v := range d {
		if v != 0 && !math.IsNaN(v) {
			abs = append(abs, math.Abs(v))
			pos = append(pos, v > 0)
		}
	}
	n := len(abs)
	if n == 0 {
		return 1
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return abs[idx[i]] < abs[idx[j]] })
	// Doubled midranks are integers.
	rank2 := make([]int, n)
	for i := 0; i < n; {
		j := i
		for j+1 < n && abs[idx[j+1]] == abs[idx[i]] {
			j++
		}
		r := (i + 1) + (j + 1) // 2 × midrank of positions i..j (1-based)
		for k := i; k <= j; k++ {
			rank2[idx[k]] = r
		}
		i = j + 1
	}
	total, w := 0, 0
	for i, r := range rank2 {
		total += r
		if pos[i] {
			w += r
		}
	}
	// counts[s] = number of sign assignments whose positive doubled ranks
	// sum to s.
	counts := make([]float64, total+1)
	counts[0] = 1
	for _, r := range rank2 {
		for s := total; s >= r; s-- {
			counts[s] += counts[s-r]
		}
	}
	// Two-sided: assignments at least as far from the mean as w.
	mean2 := total // 2 × mean of the doubled sum
	dist := abs2(2*w - mean2)
	var extreme float64
	for s, c := range counts {
		if abs2(2*s-mean2) >= dist {
			extreme += c
		}
	}
	return math.Min(1, extreme/math.Exp2(float64(n)))
}

func abs2(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// normalQuantile is the inverse of the standard normal CDF.
func normalQuantile(p float64) float64 {
	return math.Sqrt2 * math.Erfinv(2*p-1)
}

// Looks returns the round counts at which a sequential run looks at its
// data: the first at minRounds, then about every half of minRounds, the
// last at maxRounds.
func Looks(minRounds, maxRounds int) []int {
	if minRounds < 1 {
		minRounds = 1
	}
	if maxRounds < minRounds {
		maxRounds = minRounds
	}
	step := (minRounds + 1) / 2
	var looks []int
	for n := minRounds; n < maxRounds; n += step {
		looks = append(looks, n)
	}
	return append(looks, maxRounds)
}

// SpendFraction returns the significance level to test at when a share
// frac of the run is done and the previous look was at share prev: the
// increment α·frac² − α·prev² of the alpha-spending function Spend uses.
// The share may be of rounds or of the time budget, whichever is larger:
// it must not depend on the data compared, only on how far the run is.
func SpendFraction(alpha, prev, frac float64) float64 {
	f := func(t float64) float64 {
		t = math.Min(1, math.Max(0, t))
		return alpha * t * t
	}
	return f(frac) - f(prev)
}

// Spend returns the significance level to test at when n of maxRounds
// rounds are in and the previous look was at prev rounds: the increment
// α·(n/max)² − α·(prev/max)² of a power-family alpha-spending function
// (ρ = 2, between Pocock and O'Brien–Fleming). The increments over all looks
// sum to α, so by the union bound the chance of any false alarm over the
// whole sequential run is at most α, however the looks correlate.
func Spend(alpha float64, prev, n, maxRounds int) float64 {
	f := func(k int) float64 {
		t := math.Min(1, float64(k)/float64(maxRounds))
		return alpha * t * t
	}
	return f(n) - f(prev)
}
