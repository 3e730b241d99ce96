package splitwrite

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"io"
	"net"
)

type session struct {
	conn io.ReadWriteCloser
	bw   *bufio.Writer
	ch   chan []byte
}

// The header, then the body copied into a buffer: two writes a frame.
func (s *session) sendLoop() error {
	var bodyBuf bytes.Buffer
	for {
		bodyBuf.Reset()
		hdr := <-s.ch
		if hdr != nil {
			if _, err := s.conn.Write(hdr); err != nil { // want `sendLoop writes one message to s.conn \(io.ReadWriteCloser, not buffered\) in 2 Write calls — hdr at line 24, then bodyBuf.Bytes\(\) at line 29`
				return err
			}
		}
		bodyBuf.Write(<-s.ch)
		if _, err := s.conn.Write(bodyBuf.Bytes()); err != nil {
			return err
		}
	}
}

func send(c net.Conn, hdr, body []byte) {
	c.Write(hdr) // want `send writes one message to c \(net.Conn, not buffered\) in 2 Write calls`
	c.Write(body)
}

// A buffered writer, a hash, one write per path, a loop of parts:
// nothing to say.
func (s *session) buffered(hdr, body []byte) {
	s.bw.Write(hdr)
	s.bw.Write(body)
	h := sha256.New()
	h.Write(hdr)
	h.Write(body)
}

func oneOrOther(w io.Writer, small bool, a, b []byte) {
	if small {
		w.Write(a)
		return
	}
	w.Write(b)
}

func either(w io.Writer, small bool, a, b []byte) {
	if small {
		w.Write(a)
	} else {
		w.Write(b)
	}
}

func cases(w io.Writer, small bool, a, b []byte) {
	switch {
	case small:
		w.Write(a)
	default:
		w.Write(b)
	}
}

func parts(w io.Writer, ps [][]byte) {
	for _, p := range ps {
		w.Write(p)
	}
}
