package field

import (
	"encoding/binary"
	"io"
)

// Encoder writes length-prefixed frames.
type Encoder struct {
	w io.Writer
}

// WriteFrame writes p after its length.
func (e *Encoder) WriteFrame(p []byte) error {
	var hdr [4]byte // want `is passed to .*moved to the heap on every call`
	binary.BigEndian.PutUint32(hdr[:], uint32(len(p)))
	if _, err := e.w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := e.w.Write(p)
	return err
}
