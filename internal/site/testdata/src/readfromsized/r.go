package readfromsized

import (
	"bytes"
	"io"
)

type stream struct{ recvBuf *bytes.Buffer }

func (s *stream) readFrame(length uint32, conn io.Reader) (*bytes.Buffer, error) {
	conn = &io.LimitedReader{R: conn, N: int64(length)}
	buf := bytes.NewBuffer(make([]byte, 0, length))
	_, err := io.Copy(buf, conn) // want `readFrame copies a known length into buf with io.Copy: bytes.Buffer's ReadFrom makes room for bytes.MinRead`
	return buf, err
}

// A buffer made once per value, when it is nil, and kept: regrown on its
// first fill only.
func (s *stream) readData(length uint32, conn io.Reader) error {
	conn = &io.LimitedReader{R: conn, N: int64(length)}
	if s.recvBuf == nil {
		s.recvBuf = bytes.NewBuffer(make([]byte, 0, length))
	}
	_, err := io.Copy(s.recvBuf, conn)
	return err
}

func copyN(buf *bytes.Buffer, r io.Reader, n int64) {
	io.CopyN(buf, r, n)                // want `copyN copies a known length into buf with io.CopyN`
	buf.ReadFrom(io.LimitReader(r, n)) // want `copyN copies a known length into buf with ReadFrom`
}

// A reader of unknown length, a writer that is no bytes.Buffer: nothing
// to say.
func unknown(buf *bytes.Buffer, w io.Writer, r io.Reader, n int64) {
	io.Copy(buf, r)
	io.CopyN(w, r, n)
}
