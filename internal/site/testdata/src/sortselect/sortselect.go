package sortselect

import (
	"slices"
	"sort"
)

// Median sorts to take the middle.
func Median(values []float64) float64 {
	if n := len(values); n > 0 {
		sort.Float64s(values) // want `sort.Float64s\(values\) sorts all of values to read its middle \(a median\): values\[n/2\], values\[n/2-1\], an O\(n log n\) sort for one order statistic`
		if n%2 == 1 {
			return values[n/2]
		}
		return (values[n/2-1] + values[n/2]) / 2
	}
	return 0
}

// Max sorts to take the last.
func Max(xs []int) int {
	slices.Sort(xs) // want `slices.Sort\(xs\) sorts all of xs to read an end \(a minimum or maximum\): xs\[len\(xs\)-1\]`
	return xs[len(xs)-1]
}

// Sorted returns the slice sorted: the order is the result.
func Sorted(xs []int) []int {
	slices.Sort(xs)
	return xs
}

// Percentiles reads many elements: the sort serves them all.
func Percentiles(xs []float64, ps []float64) []float64 {
	sort.Float64s(xs)
	out := make([]float64, len(ps))
	for i, p := range ps {
		out[i] = xs[int(p*float64(len(xs)-1))]
	}
	return out
}

// Walk ranges over the sorted slice.
func Walk(xs []string) int {
	sort.Strings(xs)
	n := 0
	for _, x := range xs {
		n += len(x)
	}
	return n + len(xs[0])
}

// Halves reads the middle of every prefix in a loop: many elements.
func Halves(xs []int) int {
	sort.Ints(xs)
	n := 0
	for i := 1; i <= len(xs); i++ {
		n += xs[i/2]
	}
	return n
}
