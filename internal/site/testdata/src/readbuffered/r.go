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
