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

// rawMessage appends itself to the output it is given: the copy is its
// work.
type rawMessage []byte

func (m rawMessage) rewrite(out []byte) []byte {
	return append(out, m...) // want `append\(out, m...\) copies m, which rewrite is given, into out`
}

// grow appends a local's bytes: nothing it is given.
func grow(out []byte) []byte {
	tmp := []byte("x")
	return append(out, tmp...)
}

// byteWriter is the writer a converter is given.
type byteWriter interface {
	WriteByte(c byte) error
	Write(p []byte) (int, error)
}

// writeMap writes its output's punctuation into the writer it is given.
func writeMap(w byteWriter, n int) error {
	if err := w.WriteByte('{'); err != nil { // want `w.WriteByte\('\{'\) works on the state of w, the writer writeMap is given: it writes writeMap's output`
		return err
	}
	return nil
}
