// Package planted holds one function per kind of allocation that
// internal/escape explains. Line numbers are checked by escape's tests.
package planted

import (
	"fmt"
	"io"
)

// WriteFrame writes a 4-byte length header and the payload: hdr is moved to
// the heap because w is an interface the compiler cannot see through.
func WriteFrame(w io.Writer, p []byte) error {
	var hdr [4]byte
	hdr[0] = byte(len(p) >> 24)
	hdr[1] = byte(len(p) >> 16)
	hdr[2] = byte(len(p) >> 8)
	hdr[3] = byte(len(p))
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(p)
	return err
}

// Buffer makes a slice whose size is known only at run time.
func Buffer(n int) int {
	buf := make([]byte, n)
	for i := range buf {
		buf[i] = byte(i)
	}
	return int(buf[n/2])
}

// Label formats two ints: both escape to the heap as fmt's ...any args.
func Label(id, n int) string {
	return fmt.Sprintf("%d-%d", id, n)
}

// Join concatenates in a loop: every += allocates a new string.
func Join(parts []string) string {
	s := ""
	for _, p := range parts {
		s += p + ","
	}
	return s
}

// Counter returns a closure that captures n: both escape.
func Counter() func() int {
	n := 0
	return func() int {
		n++
		return n
	}
}

// Sum keeps its array on the stack: nothing escapes.
func Sum(xs []int) int {
	var acc [8]int
	for i, x := range xs {
		acc[i%8] += x
	}
	t := 0
	for _, a := range acc {
		t += a
	}
	return t
}

// Grow appends to a nil slice: growslice allocates.
func Grow(n int) []int {
	var out []int
	for i := 0; i < n; i++ {
		out = append(out, i)
	}
	return out
}

// Bytes converts between string and []byte.
func Bytes(s string) string {
	b := []byte(s)
	b[0] = 'x'
	return string(b)
}

// Index fills a map, which grows as it fills.
func Index(keys []string) map[string]int {
	m := make(map[string]int)
	for i, k := range keys {
		m[k] = i
	}
	return m
}

// head is small enough to inline; its slice escapes at the caller.
func head(n int) []byte {
	return make([]byte, n)
}

// UseHead calls the inlined head.
func UseHead(n int) int {
	return len(head(n)) + cap(head(8))
}
