package callinputs

// A byte queue storing what it is given: the copy is its work.
type bytesQueue struct {
	array []byte
	tail  int
}

func (q *bytesQueue) copyIn(data []byte, n int) {
	q.tail += copy(q.array[q.tail:], data[:n]) // want `copy\(q.array\[q.tail:\], data\[:n\]\) copies data, which copyIn is given, into q.array\[q.tail:\]`
}

// A copy of the receiver's own bytes, within it: no input stored.
func (q *bytesQueue) compact() {
	copy(q.array, q.array[q.tail:])
}
