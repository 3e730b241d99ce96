package copytocaller

type Reader struct {
	buf        []byte
	head, tail int
}

func (r *Reader) Read(b []byte) {
	read := 0
	for read < len(b) {
		n := copy(b[read:], r.buf[r.head:r.tail]) // want `Read copies from r.buf into b, the slice its caller passes: the copy is the call's job`
		r.head += n
		read += n
	}
}

// Into its own buffer, or from the caller's: nothing to say.
func (r *Reader) fill(src []byte) {
	copy(r.buf, src)
}
