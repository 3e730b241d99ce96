// Package planted has one benchmark per profile pattern that perfloop
// profile must recognise: map-bound time, a variable-size make, fmt in a
// loop, a fixture allocated by test code, and a panic. It is the must-show
// module of docs/profile.md and the generator of ../*.pprof (see gen.sh).
package planted

import "strconv"

// Index maps keys to positions.
type Index struct {
	pos map[string]int
}

// NewIndex indexes n keys named "k0" … "k<n-1>".
func NewIndex(n int) *Index {
	ix := &Index{pos: make(map[string]int, n)}
	for i := 0; i < n; i++ {
		ix.pos["k"+strconv.Itoa(i)] = i
	}
	return ix
}

// Count returns how many of keys are in the index: almost all of its
// time is map access.
func (ix *Index) Count(keys []string) int {
	n := 0
	for _, k := range keys {
		if _, ok := ix.pos[k]; ok {
			n++
		}
	}
	return n
}
