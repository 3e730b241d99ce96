// Package stats computes perfloop's summaries and A/B comparisons of
// benchmark results on golang.org/x/perf/benchmath, the code behind
// benchstat, so medians, confidence intervals and p-values are benchstat's
// own on the same input.
//
// It is opinionated where benchstat is not: a table of many rows is a family
// of tests, so a row is called significant only after the Benjamini–Hochberg
// correction across the rows of its unit (the raw p-value is kept beside
// it); and every row is given a plain verdict in the unit's own direction
// (higher B/s is faster, per benchfmt's "better" unit metadata).
package stats

import (
	"math"
	"sort"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
)

// Confidence is the confidence level of every interval perfloop reports,
// as benchstat's default.
const Confidence = 0.95

// Alpha is the false discovery rate perfloop controls, benchstat's
// default significance level.
const Alpha = 0.05

// Summary is a sample's center and confidence interval.
type Summary struct {
	Median float64 // the center: a median, or the exact value for assume=exact units
	Low    float64 // the interval's bounds; ±Inf when n is too small for one
	High   float64
	N      int
	// Warnings says why the interval is missing or the sample is odd.
	Warnings []error
}

// Summarize summarizes values with the assumption that units metadata gives
// unit, as benchstat does.
func Summarize(values []float64, unit string, units benchfmt.UnitMetadataMap) Summary {
	s := benchmath.NewSample(values, &benchmath.DefaultThresholds)
	sum := units.GetAssumption(unit).Summary(s, Confidence)
	return Summary{
		Median:   sum.Center,
		Low:      sum.Lo,
		High:     sum.Hi,
		N:        len(values),
		Warnings: append(s.Warnings, sum.Warnings...),
	}
}

// RangePercent is the interval's half-width as benchstat prints it: "2%",
// "∞" when there are too few values for an interval.
func (s Summary) RangePercent() string {
	return benchmath.Summary{Center: s.Median, Lo: s.Low, Hi: s.High}.PctRangeString()
}

// Finite reports whether both bounds of the interval are finite.
func (s Summary) Finite() bool {
	return !math.IsInf(s.Low, 0) && !math.IsInf(s.High, 0)
}

// Better returns +1 when higher values of unit are better, -1 when lower are,
// and 0 when unknown. Unit metadata ("Unit x better=higher") wins; otherwise
// throughput units (B/s and any custom unit ending in "/s") are better
// higher, and times, sizes and counts per op are better lower.
func Better(unit string, units benchfmt.UnitMetadataMap) int {
	if b := units.GetBetter(unit); b != 0 {
		return b
	}
	switch {
	case len(unit) > 2 && unit[len(unit)-2:] == "/s":
		return 1
	case len(unit) > 3 && unit[len(unit)-3:] == "/op":
		return -1
	}
	return 0
}

// IsTime reports whether unit measures time or throughput, for which the
// plain words are "faster" and "slower".
func IsTime(unit string) bool {
	return unit == "sec/op" || unit == "ns/op" || (len(unit) > 2 && unit[len(unit)-2:] == "/s")
}

// Verdict words.
const (
	NoChange = "no significant change"
	// Inconclusive is a paired row that ran out of rounds or time before
	// it was shown changed or shown unchanged.
	Inconclusive = "inconclusive"
)

// verdict names a significant change in unit by delta's sign.
func verdict(unit string, better int, delta float64) string {
	improved := better*int(math.Copysign(1, delta)) > 0
	switch {
	case better == 0 && delta > 0:
		return "higher"
	case better == 0:
		return "lower"
	case IsTime(unit) && improved:
		return "faster"
	case IsTime(unit):
		return "slower"
	case improved:
		return "better"
	default:
		return "worse"
	}
}

// Spearman returns the rank correlation of xs and ys (the same length,
// at least 2), with ties given their average rank; 0 when either has no
// spread.
func Spearman(xs, ys []float64) float64 {
	rx, ry := ranks(xs), ranks(ys)
	n := float64(len(xs))
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0
	}
	return sxy / math.Sqrt(sxx*syy)
}

func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	r := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && xs[idx[j+1]] == xs[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}
