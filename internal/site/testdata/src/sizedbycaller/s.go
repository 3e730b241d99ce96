package sizedbycaller

import "io"

type Iterator struct {
	reader io.Reader
	buf    []byte
}

// Parse makes the buffer its caller sizes.
func Parse(reader io.Reader, bufSize int) *Iterator {
	return &Iterator{reader: reader, buf: make([]byte, bufSize)} // want `Parse makes make\(\[\]byte, bufSize\) of bufSize elements, the size its caller passes, inside the \*Iterator it returns`
}

// Reset reuses the iterator.
func (it *Iterator) Reset(r io.Reader) { it.reader = r }

type config struct{}

// BorrowIterator hands out a pooled one.
func (c *config) BorrowIterator(r io.Reader) *Iterator { return Parse(r, 512) }

type Stream struct{ buf []byte }

// NewStream: the capacity its caller passes; no way to reuse one.
func NewStream(bufSize int) *Stream {
	return &Stream{buf: make([]byte, 0, bufSize)} // want `NewStream makes make\(\[\]byte, 0, bufSize\) of bufSize elements`
}

// A size computed here is not the caller's.
func NewDouble(n int) *Stream {
	m := 2 * n
	return &Stream{buf: make([]byte, m)}
}

// Unexported: the package's own.
func newStream(n int) *Stream {
	return &Stream{buf: make([]byte, n)}
}

type LRU struct{ items map[string]int }

// A cache's capacity is a bound: its map hint is not a buffer asked for.
func NewLRU(size int) *LRU {
	return &LRU{items: make(map[string]int, size)}
}

// An allocator's whole job.
func Calloc(n int) []byte {
	return make([]byte, n) // want `Calloc makes make\(\[\]byte, n\) of n elements, the size its caller passes, and returns it`
}
