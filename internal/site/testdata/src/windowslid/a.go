package windowslid

// Reader keeps the last 64 KiB of its output as the next block's
// dictionary.
type Reader struct {
	dict []byte
	q    []int
	buf  []byte
}

func (r *Reader) read(dst []byte) {
	if len(r.dict)+len(dst) > 128*1024 {
		preserveSize := max(64*1024-len(dst), 0)
		r.dict = r.dict[len(r.dict)-preserveSize:]
	}
	r.dict = append(r.dict, dst...) // want `read slides r.dict by reslicing its front away \(r.dict = r.dict\[len\(r.dict\) - preserveSize:\] at line 14\) and appends to it here: each slide takes the front of the backing array out of r.dict's capacity`
}

// push and pop make a queue: q = q[1:] is its pop, not a window.
func (r *Reader) push(v int) int {
	head := r.q[0]
	r.q = r.q[1:]
	r.q = append(r.q, v)
	return head
}

// consume slides the front away but never appends: the array is let go.
func (r *Reader) consume(n int) []byte {
	out := r.buf[:n]
	r.buf = r.buf[n:]
	return out
}

// moved keeps the window at the front already.
func (r *Reader) moved(dst []byte) {
	if len(r.dict)+len(dst) > 128*1024 {
		keep := 64*1024 - len(dst)
		r.dict = r.dict[:copy(r.dict, r.dict[len(r.dict)-keep:])]
	}
	r.dict = append(r.dict, dst...)
}

// other slides one slice and appends to another.
func other(a, b []byte, n int) ([]byte, []byte) {
	a = a[n:]
	b = append(b, a...)
	return a, b
}

// blank assigns to _: no type to slide.
func blank(b []byte) {
	_ = b[1:]
}
