package searchfuncvalue

import "sort"

type items []int

// find calls the tree's comparator through a func value.
func (s items) find(item int, less func(a, b int) bool) int {
	return sort.Search(len(s), func(i int) bool { return less(item, s[i]) }) // want `sort.Search calls its predicate on every probe, and the predicate calls less, a func value`
}

type tree struct {
	less  func(a, b int) bool
	items items
}

// A comparator in a field: the same indirect call.
func (t *tree) find(item int) int {
	return sort.Search(len(t.items), func(i int) bool { return !t.less(t.items[i], item) }) // want `the predicate calls t.less, a func value`
}

// A direct comparison: nothing indirect.
func (s items) findDirect(item int) int {
	return sort.Search(len(s), func(i int) bool { return s[i] >= item })
}

func lessInt(a, b int) bool { return a < b }

// A declared function: a direct call the compiler can inline.
func (s items) findNamed(item int) int {
	return sort.Search(len(s), func(i int) bool { return !lessInt(s[i], item) })
}
