package inputcopied

import (
	"bytes"
	"io"
)

type Tokenizer struct {
	InStream io.Reader
	buf      []byte
	bufPos   int
	bufSize  int
	out      bytes.Buffer
}

func NewStringTokenizer(sql string) *Tokenizer {
	buf := []byte(sql) // want `NewStringTokenizer copies its string sql into buf \(\[\]byte\(sql\)\), which the package only reads: the copy is the whole input, made on every call`
	return &Tokenizer{buf: buf, bufSize: len(buf)}
}

func NewTokenizer(r io.Reader) *Tokenizer {
	return &Tokenizer{InStream: r}
}

func (t *Tokenizer) next() byte {
	if t.bufPos >= t.bufSize && t.InStream != nil {
		t.bufSize, _ = t.InStream.Read(t.buf)
		t.bufPos = 0
	}
	c := t.buf[t.bufPos]
	t.bufPos++
	t.out.Write(t.buf[t.bufPos-1 : t.bufPos])
	if bytes.HasPrefix(t.buf[t.bufPos:], []byte("--")) {
		return 0
	}
	return c
}

// A field the package writes into: the copy is needed.
type Scanner struct{ src []byte }

func NewScanner(s string) *Scanner {
	return &Scanner{src: []byte(s)}
}

func (s *Scanner) lower() {
	for i := range s.src {
		s.src[i] |= 0x20
	}
}
