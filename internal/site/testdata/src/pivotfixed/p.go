package pivotfixed

import (
	"bytes"
	"sort"
)

type ID [20]byte

func quickSort(a []ID, lo int, hi int) {
	if lo < hi {
		pivot := a[hi] // want `quickSort takes a\[hi\], the last element of its range, as the pivot and recurses into both sides: on input already sorted, reverse-sorted or all equal, every partition splits n-1 from 0, so the sort makes O\(n²\) comparisons and recurses n deep \(a benchmark of random input does not show it\); each comparison calls bytes.Compare on fixed-size arrays`
		i := lo - 1
		for j := lo; j != hi; j++ {
			if bytes.Compare(a[j][:], pivot[:]) < 0 {
				i++
				a[i], a[j] = a[j], a[i]
			}
		}
		i++
		a[i], a[hi] = a[hi], a[i]
		quickSort(a, lo, i-1)
		quickSort(a, i+1, hi)
	}
}

func qs(a []int) {
	if len(a) < 2 {
		return
	}
	p := a[0] // want `qs takes a\[0\], the first element of its range, as the pivot and recurses into both sides: on input already sorted, reverse-sorted or all equal, every partition splits n-1 from 0, so the sort makes O\(n²\) comparisons and recurses n deep \(a benchmark of random input does not show it\)$`
	i := 0
	for j := 1; j < len(a); j++ {
		if a[j] < p {
			i++
			a[i], a[j] = a[j], a[i]
		}
	}
	a[0], a[i] = a[i], a[0]
	qs(a[:i])
	qs(a[i+1:])
}

// A median-of-three pivot: nothing to say.
func qsMedian(a []int, lo, hi int) {
	if lo >= hi {
		return
	}
	mid := lo + (hi-lo)/2
	p := median(a[lo], a[mid], a[hi])
	i := lo
	for j := lo; j <= hi; j++ {
		if a[j] < p {
			a[i], a[j] = a[j], a[i]
			i++
		}
	}
	qsMedian(a, lo, i-1)
	qsMedian(a, i, hi)
}

func median(x, y, z int) int { return x }

// Not recursive: the first element is not a pivot.
func first(a []int) int {
	v := a[0]
	for _, x := range a {
		v += x
	}
	return v
}

// The standard library's sort: nothing to say.
func sorted(a []int) { sort.Ints(a) }
