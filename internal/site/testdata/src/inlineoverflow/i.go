package inlineoverflow

// Int keeps small values in inline and large ones behind big.
type Int struct {
	big    *[]uint64
	inline [2]uint64
	n      int
}

// set keeps words inline when they fit.
func (z *Int) set(words []uint64) {
	if len(words) > len(z.inline) {
		z.big = new([]uint64) // want `set allocates z.big \(new\(\[\]uint64\)\) only when the value no longer fits in z.inline, its \[2\]uint64: small values stay in the Int itself, a larger one goes to the heap`
		*z.big = words
		return
	}
	copy(z.inline[:], words)
	z.n = len(words)
}

// grow allocates on a test of a count, not of an array field: not the
// shape.
func (z *Int) grow(n int) {
	if n > z.n {
		z.big = new([]uint64)
	}
}
