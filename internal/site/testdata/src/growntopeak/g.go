package growntopeak

type worker struct{ id int }

type workerStack struct {
	items  []*worker
	expiry []*worker
}

func newWorkerStack(size int) *workerStack {
	return &workerStack{items: make([]*worker, 0, size)}
}

func (ws *workerStack) insert(w *worker) {
	ws.items = append(ws.items, w) // want `insert appends to ws.items, which the package only reslices to shrink and never replaces`
}

func (ws *workerStack) detach() *worker {
	l := len(ws.items)
	if l == 0 {
		return nil
	}
	w := ws.items[l-1]
	ws.items = ws.items[:l-1]
	return w
}

// A buffer that only grows: made per use, its growth is per use.
type Buffer struct{ bytes []byte }

func (b *Buffer) Write(p []byte) { b.bytes = append(b.bytes, p...) }

// Reset to nil: every refill grows it again.
type queue struct{ q []int }

func (q *queue) push(v int) { q.q = append(q.q, v) }
func (q *queue) pop() int {
	v := q.q[0]
	q.q = q.q[1:]
	if len(q.q) == 0 {
		q.q = nil
	}
	return v
}

// A byte queue grown by hand: the old array kept, a larger one made, the
// old contents copied in; nothing makes it smaller.
type bytesQueue struct {
	array    []byte
	capacity int
}

func newBytesQueue(n int) *bytesQueue { return &bytesQueue{array: make([]byte, n), capacity: n} }

func (q *bytesQueue) allocateMore(min int) {
	q.capacity = 2 * (q.capacity + min)
	old := q.array
	q.array = make([]byte, q.capacity) // want `allocateMore makes q.array anew, larger, and carries the old contents over`
	copy(q.array, old)
}

// Made anew smaller elsewhere (a shrink): not grown to a peak.
type ring struct{ buf []byte }

func (r *ring) grow() {
	old := r.buf
	r.buf = make([]byte, 2*len(old)+1)
	copy(r.buf, old)
}

func (r *ring) shrink() { r.buf = make([]byte, 16) }
