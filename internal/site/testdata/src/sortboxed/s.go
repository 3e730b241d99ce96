package sortboxed

import "sort"

type pair struct{ k, v int }

type byKey struct {
	sorted bool
	pairs  []pair
}

func (a *byKey) Len() int           { return len(a.pairs) }
func (a *byKey) Less(i, j int) bool { return a.pairs[i].k < a.pairs[j].k }
func (a *byKey) Swap(i, j int)      { a.pairs[i], a.pairs[j] = a.pairs[j], a.pairs[i] }

func sortPairs(pairs []pair) {
	arr := byKey{false, pairs} // want `sort.Stable\(&arr\) passes arr, a byKey made here, to sort.Stable as a sort.Interface: the compiler cannot see through the interface, so arr moves to the heap on every call, and the slices it holds \(pairs\) escape with it`
	sort.Stable(&arr)
}

type ints []int

func (x ints) Len() int           { return len(x) }
func (x ints) Less(i, j int) bool { return x[i] < x[j] } // want `sort.Sort\(ints\(x\)\) converts x to ints`
func (x ints) Swap(i, j int)      { x[i], x[j] = x[j], x[i] }

// A slice converted to a sorter type: boxed into the interface, each
// comparison a call; slices.Sort sorts it itself.
func sortInts(x []int) { sort.Sort(ints(x)) } // want `sort.Sort\(ints\(x\)\) converts x to ints and boxes it into a sort.Interface: one allocation per call, and every comparison and swap a call through the interface`

// A parameter: not this function's value.
func sortGiven(a *byKey) { sort.Sort(a) }
