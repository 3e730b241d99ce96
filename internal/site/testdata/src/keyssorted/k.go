package keyssorted

import (
	"slices"
	"sort"
)

type encoder struct{ keys []string }

// Encode writes the properties in the order of their keys.
func (e *encoder) Encode(props map[string]int) []int {
	e.keys = e.keys[:0]
	for k := range props {
		e.keys = append(e.keys, k)
	}
	sort.Strings(e.keys) // want `Encode sorts the keys of props, gathered from the map into e.keys, before it walks them`
	out := make([]int, 0, len(props))
	for _, k := range e.keys {
		out = append(out, props[k])
	}
	return out
}

// Names sorts its map's keys with slices.Sort.
func Names(m map[string]bool) []string {
	var names []string
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names) // want `Names sorts the keys of m, gathered from the map into names`
	return names
}

// Values sorts values, not keys: another shape's.
func Values(m map[string]int) []int {
	var vs []int
	for _, v := range m {
		vs = append(vs, v)
	}
	sort.Ints(vs)
	return vs
}
