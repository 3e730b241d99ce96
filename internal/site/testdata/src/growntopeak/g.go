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
