package buffermadefull

import "io"

// Tokenizer reads tokens from r.
type Tokenizer struct {
	r   io.Reader
	buf []byte
	out []byte
}

// Reset resets the tokenizer for r.
func (t *Tokenizer) Reset(r io.Reader, size int) {
	t.r = r
	t.buf = make([]byte, size, size+4096) // want `Reset makes t.buf with length size \(make\(\[\]byte, size, size \+ 4096\)\), but manageBuffer reads into it from len\(t.buf\) on`
	t.out = make([]byte, size)            // written by index, never read into: fine
}

// ResetEmpty makes the buffer empty: reads fill it from the start.
func (t *Tokenizer) ResetEmpty(r io.Reader, size int) {
	t.r = r
	t.buf = make([]byte, 0, size)
}

func (t *Tokenizer) manageBuffer() error {
	start, end := len(t.buf), cap(t.buf)
	n, err := io.ReadAtLeast(t.r, t.buf[start:end], 1)
	t.buf = t.buf[:start+n]
	return err
}
