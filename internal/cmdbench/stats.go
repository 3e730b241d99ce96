package cmdbench

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/perfloop/perfloop/internal/document"
)

// Summarize returns xs's mean, standard deviation, median, minimum and
// maximum. An empty sample summarizes to zeros.
func Summarize(xs []float64) document.ExecSummary {
	if len(xs) == 0 {
		return document.ExecSummary{}
	}
	return document.ExecSummary{
		Mean:   Mean(xs),
		Stddev: Stddev(xs),
		Median: Median(xs),
		Min:    slices.Min(xs),
		Max:    slices.Max(xs),
	}
}

// Mean returns the arithmetic mean of xs, 0 when xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// Stddev returns the sample standard deviation of xs (n−1 in the
// denominator, as hyperfine), 0 for fewer than two values.
func Stddev(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := Mean(xs)
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// Median returns the median of xs (the mean of the middle two for an even
// count), 0 when xs is empty. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// OutlierThreshold is the modified Z-score beyond which a run is an
// outlier: 1.4826 turns the median absolute deviation into an estimate of
// the standard deviation, so this is "ten standard deviations from the
// median", hyperfine's rule.
const OutlierThreshold = 1.4826 * 10

// MinMADFraction floors the median absolute deviation at this fraction of
// the median before scoring. Hyperfine uses the raw MAD, which in a small
// or very steady sample can be tiny: three runs of 11.57, 11.57 and
// 11.90 ms would flag a first run 3% slow as "much slower". With the floor
// a run must also be more than about 15% (OutlierThreshold × 1%) from the
// median to be flagged.
const MinMADFraction = 0.01

// ModifiedZScores returns (x − median) / MAD for each x, where MAD is the
// median absolute deviation from the median, floored at MinMADFraction of
// the median (and at the float64 epsilon, so that identical runs score 0).
func ModifiedZScores(xs []float64) []float64 {
	if len(xs) == 0 {
		return nil
	}
	med := Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	mad := max(Median(dev), MinMADFraction*math.Abs(med), 0x1p-52)
	z := make([]float64, len(xs))
	for i, x := range xs {
		z[i] = (x - med) / mad
	}
	return z
}

// Outliers returns the indexes of the values of xs whose modified Z-score
// exceeds OutlierThreshold in absolute value.
func Outliers(xs []float64) []int {
	var out []int
	for i, z := range ModifiedZScores(xs) {
		if math.Abs(z) > OutlierThreshold {
			out = append(out, i)
		}
	}
	return out
}

// Confidence is the level of every ratio confidence interval.
const Confidence = 0.95

// BootstrapResamples is how many resamples a ratio's bootstrap interval
// draws.
const BootstrapResamples = 10000

// Ratio is the ratio of two samples' means with its uncertainty.
type Ratio struct {
	// Value is mean(a) / mean(b).
	Value float64
	// Stddev is the delta-method (first-order error propagation)
	// standard deviation of Value, treating the samples as independent:
	// Value·√((σa/μa)² + (σb/μb)²), the "±" hyperfine prints.
	Stddev float64
	// Low and High bound the 95% percentile-bootstrap confidence
	// interval of Value.
	Low, High float64
	// Paired says the bootstrap resampled whole rounds (a[i] with b[i]),
	// which keeps the pairing of interleaved runs.
	Paired bool
}

// CompareMeans returns the ratio mean(a)/mean(b) with its delta-method
// standard deviation and a 95% percentile-bootstrap confidence interval.
// With paired set and samples of equal length, the bootstrap resamples
// indexes i and keeps a[i] with b[i]: drift that hit both commands in the
// same round cancels. The resampling is seeded, so the same input gives
// the same interval. ok is false when either mean is not positive.
func CompareMeans(a, b []float64, paired bool) (r Ratio, ok bool) {
	ma, mb := Mean(a), Mean(b)
	if len(a) == 0 || len(b) == 0 || ma <= 0 || mb <= 0 {
		return Ratio{}, false
	}
	r.Value = ma / mb
	ra, rb := Stddev(a)/ma, Stddev(b)/mb
	r.Stddev = r.Value * math.Sqrt(ra*ra+rb*rb)
	r.Paired = paired && len(a) == len(b)
	r.Low, r.High = bootstrapRatio(a, b, r.Paired, BootstrapResamples)
	return r, true
}

// bootstrapRatio returns the percentile bootstrap interval of
// mean(a)/mean(b) at level Confidence.
func bootstrapRatio(a, b []float64, paired bool, resamples int) (low, high float64) {
	return bootstrap(a, b, paired, resamples, func(ma, mb float64) (float64, bool) {
		// An all-zero resample of b has no ratio.
		return ma / mb, mb != 0
	})
}

// bootstrap returns the percentile bootstrap interval at level Confidence
// of stat(mean(a), mean(b)); resamples for which stat reports false are
// left out, and with none left the interval is (−Inf, +Inf).
func bootstrap(a, b []float64, paired bool, resamples int, stat func(ma, mb float64) (float64, bool)) (low, high float64) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := make([]float64, 0, resamples)
	for range resamples {
		var sa, sb float64
		if paired {
			for range a {
				i := rng.IntN(len(a))
				sa += a[i]
				sb += b[i]
			}
		} else {
			for range a {
				sa += a[rng.IntN(len(a))]
			}
			for range b {
				sb += b[rng.IntN(len(b))]
			}
		}
		if v, ok := stat(sa/float64(len(a)), sb/float64(len(b))); ok {
			values = append(values, v)
		}
	}
	if len(values) == 0 {
		return math.Inf(-1), math.Inf(1)
	}
	slices.Sort(values)
	alpha := (1 - Confidence) / 2
	return quantile(values, alpha), quantile(values, 1-alpha)
}

// CompareDiff returns mean(a) − mean(b) and its 95% bootstrap interval,
// resampling pairs (a[i], b[i]) when paired is set and the samples have
// equal length. It is what can still be said when a ratio cannot: a
// difference needs no mean to be above zero.
func CompareDiff(a, b []float64, paired bool) document.ExecDifference {
	d := document.ExecDifference{Value: Mean(a) - Mean(b), Paired: paired && len(a) == len(b)}
	if len(a) == 0 || len(b) == 0 {
		return d
	}
	d.Low, d.High = bootstrap(a, b, d.Paired, BootstrapResamples, func(ma, mb float64) (float64, bool) {
		return ma - mb, true
	})
	return d
}

// MeasurablyAboveZero reports whether the mean of raw, less sub (the
// median of subN runs whose standard deviation was subSD), is more than
// two standard errors above zero, and more than subSD: within one standard
// deviation of the subtracted runs, what remains is no larger than the
// subtraction's own noise. The standard error combines the spread of the
// runs and the uncertainty of the subtracted median (≈1.2533·σ/√n for a
// median). This is how cmdbench decides whether a command run through a
// shell takes any measurable time once the shell's spawn time is
// subtracted.
func MeasurablyAboveZero(raw []float64, sub, subSD float64, subN int) bool {
	n := len(raw)
	if n == 0 {
		return false
	}
	se2 := Stddev(raw) * Stddev(raw) / float64(n)
	if subN > 0 {
		m := 1.2533 * subSD
		se2 += m * m / float64(subN)
	}
	d := Mean(raw) - sub
	return d > 2*math.Sqrt(se2) && d > subSD
}

// quantile returns the q-quantile of sorted s, interpolating linearly
// between order statistics (type 7, R's default).
func quantile(s []float64, q float64) float64 {
	pos := q * float64(len(s)-1)
	i := int(pos)
	if i >= len(s)-1 {
		return s[len(s)-1]
	}
	frac := pos - float64(i)
	return s[i] + frac*(s[i+1]-s[i])
}
