package boundperitem

import "sort"

type items []int

func (s items) find(x int, less func(a, b int) bool) (int, bool) {
	i := sort.Search(len(s), func(i int) bool { return less(x, s[i]) })
	if i > 0 && !less(s[i-1], x) {
		return i - 1, true
	}
	return i, false
}

type node struct {
	items items
	less  func(a, b int) bool
}

func (n *node) ascend(start, stop int, iter func(int) bool) bool {
	index, _ := n.items.find(start, n.less)
	for i := index; i < len(n.items); i++ {
		if !n.less(n.items[i], stop) { // want `ascend compares every element of n.items with stop through n.less \(line 23\) to find where the loop stops, though it binary-searches n.items with the same comparator \(line 21\)`
			return false
		}
		if !iter(n.items[i]) {
			return false
		}
	}
	return true
}

// No search of the slice: nothing says it is sorted.
func (n *node) scan(stop int) int {
	for i := 0; i < len(n.items); i++ {
		if !n.less(n.items[i], stop) {
			return i
		}
	}
	return -1
}

// The bound moves with the loop: no fixed stop position.
func (n *node) chase(start int) int {
	index, _ := n.items.find(start, n.less)
	bound := start
	for i := index; i < len(n.items); i++ {
		if n.less(bound, n.items[i]) {
			break
		}
		bound = n.items[i]
	}
	return bound
}
