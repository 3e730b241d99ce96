package readbuffered

import (
	"bufio"
	"crypto/rand"
	"io"
	"sync"
)

var pool = sync.Pool{New: func() any { return bufio.NewReader(rand.Reader) }}

// Random bytes through a pooled bufio.Reader: buffered already.
func random(n int) []byte {
	reader := pool.Get().(*bufio.Reader)
	defer pool.Put(reader)
	b := make([]byte, n)
	if _, err := io.ReadFull(reader, b); err != nil { // want `io.ReadFull\(reader, b\) reads from reader, a \*bufio.Reader: the reads are buffered already`
		panic(err)
	}
	return b
}

// Straight from the source: no buffer, nothing said here.
func direct(n int) []byte {
	b := make([]byte, n)
	if _, err := io.ReadFull(rand.Reader, b); err != nil {
		panic(err)
	}
	return b
}

// A method of the buffered reader.
func line(r *bufio.Reader) string {
	s, _ := r.ReadString('\n') // want `r.ReadString\('\\n'\) reads from r, a \*bufio.Reader`
	return s
}

// An iterator that keeps its own buffer and refills it from its reader.
type Iterator struct {
	reader     io.Reader
	buf        []byte
	head, tail int
}

func (iter *Iterator) loadMore() bool {
	n, err := iter.reader.Read(iter.buf) // want `iter.reader.Read\(iter.buf\) reads into iter.buf, the buffer the \*Iterator keeps: the reads are buffered already`
	iter.head, iter.tail = 0, n
	return err == nil
}

// A read into a buffer made here is not the value's own.
func (iter *Iterator) once() []byte {
	b := make([]byte, 16)
	iter.reader.Read(b)
	return b
}

// A reader every caller passes buffered, read through a limit.
type session struct{ bufRead *bufio.Reader }

func (s *session) handle(w io.Writer, n int64) {
	readData(w, n, s.bufRead)
}

func readData(w io.Writer, n int64, conn io.Reader) {
	conn = &io.LimitedReader{R: conn, N: n}
	io.Copy(w, conn) // want `io.Copy\(w, conn\) reads from conn, a \*bufio.Reader every caller passes \(s.bufRead at r.go:[0-9]+\)`
}

// One caller passes a raw reader: nothing said.
func readRaw(w io.Writer, conn io.Reader) {
	io.Copy(w, conn)
}

func callers(s *session, w io.Writer) {
	readRaw(w, s.bufRead)
	readRaw(w, rand.Reader)
}
