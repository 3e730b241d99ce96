package unflushed

import "io"

// Writer compresses what it is written in blocks, the last one at Close.
type Writer struct {
	w   io.Writer
	buf []byte
}

func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (z *Writer) Reset(w io.Writer)                   { z.w, z.buf = w, z.buf[:0] }
func (z *Writer) Write(p []byte) (int, error)         { z.buf = append(z.buf, p...); return len(p), nil }
func (z *Writer) Close() error                        { _, err := z.w.Write(z.buf); return err }
func (z *Writer) ReadFrom(r io.Reader) (int64, error) { return 0, nil }
