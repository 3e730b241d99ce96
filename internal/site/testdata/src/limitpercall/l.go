package limitpercall

import (
	"bytes"
	"io"
)

type stream struct{ recvBuf bytes.Buffer }

func (s *stream) readData(length uint32, conn io.Reader) error {
	conn = &io.LimitedReader{R: conn, N: int64(length)} // want `readData wraps conn in a new io.LimitedReader on every call and hands it on as an io.Reader`
	_, err := io.Copy(&s.recvBuf, conn)
	return err
}

func copyN(dst io.Writer, r io.Reader, n int64) {
	lr := io.LimitReader(r, n) // want `copyN wraps lr in a new io.LimitedReader on every call`
	io.Copy(dst, lr)
}

// Kept as itself: nothing to say.
func local(r io.Reader, n int64) int64 {
	lr := &io.LimitedReader{R: r, N: n}
	return lr.N
}
