package callinputs

// A byte queue storing what it is given: the copy is its work.
type bytesQueue struct {
	array []byte
	tail  int
}

func (q *bytesQueue) copyIn(data []byte, n int) {
	q.tail += copy(q.array[q.tail:], data[:n]) // want `copy\(q.array\[q.tail:\], data\[:n\]\) copies data, which copyIn is given, into q.array\[q.tail:\]`
}

// A copy of the receiver's own bytes, within it: no input stored, the
// elements moved.
func (q *bytesQueue) compact() {
	copy(q.array, q.array[q.tail:]) // want `copy\(q.array, q.array\[q.tail:\]\) moves elements of q.array to other places in q.array`
}

// An insertion into an ordered array: the elements after the slot move.
type node []uint64

func (n node) moveRight(lo, hi int) {
	copy(n[lo+1:hi+1], n[lo:hi]) // want `copy\(n\[lo\+1:hi\+1\], n\[lo:hi\]\) moves elements of n to other places in n`
}

// Two fields of one value are two slices: neither a shift nor an input.
type pair struct{ a, b []byte }

func (p *pair) mirror() {
	copy(p.a, p.b)
}
