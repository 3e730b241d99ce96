package linknamecall

import "unsafe"

type hiter struct{ key, value unsafe.Pointer }

// MapIter walks a map through the runtime's iterator.
type MapIter struct{ hiter }

// Init starts the walk.
func (it *MapIter) Init(t, m unsafe.Pointer) {
	mapiterinit(t, m, &it.hiter) // want `mapiterinit\(t, m, &it.hiter\) calls runtime.mapiterinit through //go:linkname \(mapiterinit, line 23\): what it allocates is the runtime's, which no compiler diagnostic of this package explains; since Go 1.24 the runtime keeps mapiterinit`
}

// MakeSlice makes a slice's array.
func MakeSlice(t unsafe.Pointer, n int) unsafe.Pointer {
	return newarray(t, n) // want `newarray\(t, n\) calls runtime.newarray through //go:linkname \(newarray, line 26\): what it allocates is the runtime's, which no compiler diagnostic of this package explains$`
}

func local(n int) int { return n }

//go:linkname mapiterinit runtime.mapiterinit
func mapiterinit(t unsafe.Pointer, m unsafe.Pointer, it *hiter)

//go:linkname newarray runtime.newarray
func newarray(t unsafe.Pointer, n int) unsafe.Pointer

// Local calls a function with a body: no shape.
func Local() int { return local(2) }
