package field

import (
	"bytes"
	"io"
)

// Value has a value receiver: a field would be a copy's.
type Value struct {
	w io.Writer
}

// Write writes a marker.
func (v Value) Write() error {
	var b [2]byte // no rewrite
	b[0] = '>'
	_, err := v.w.Write(b[:])
	return err
}

// Concrete writes to a concrete type the compiler sees through.
type Concrete struct {
	buf bytes.Buffer
}

// Mark writes a marker.
func (c *Concrete) Mark() {
	var b [2]byte // no rewrite
	b[0] = '>'
	c.buf.Write(b[:])
}
