package receiverbuffer

// Decoder reads into a buffer it keeps.
type Decoder struct {
	buf []byte
	off int
}

func (dec *Decoder) read() int {
	if cap(dec.buf)-len(dec.buf) < 512 {
		dec.buf = make([]byte, len(dec.buf)-dec.off, 2*cap(dec.buf)+512) // want `read grows dec.buf, a buffer the \*Decoder keeps for its later calls, only when the one it holds is too small`
	}
	return len(dec.buf)
}

// fresh makes a buffer of a fixed size each call: no growth of the one
// it holds.
func (dec *Decoder) fresh() {
	dec.buf = make([]byte, 0, 512)
}
