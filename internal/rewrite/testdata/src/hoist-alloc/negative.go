package hoistalloc

import (
	"io"
	"strconv"
)

// Lines keeps every buffer: hoisting would make them one.
func Lines(out [][]byte, xs []int) [][]byte {
	for _, x := range xs {
		buf := make([]byte, 0, 16) // no rewrite
		buf = strconv.AppendInt(buf, int64(x), 10)
		out = append(out, buf)
	}
	return out
}

// Cache stores each buffer in a map.
func Cache(m map[string][]byte, xs []string) {
	for _, x := range xs {
		b := make([]byte, 8) // no rewrite
		copy(b, x)
		m[x] = b
	}
}

// Growing changes the size in the loop.
func Growing(w io.Writer, xs []int) {
	n := 1
	for range xs {
		b := make([]byte, n) // no rewrite
		n++
		w.Write(b)
	}
}

// Alias keeps a slice of the buffer.
func Alias(xs []int) []byte {
	var last []byte
	for range xs {
		b := make([]byte, 4) // no rewrite
		last = b[:2]
	}
	return last
}

// Goroutines hand the buffer to goroutines.
func Goroutines(w io.Writer, xs []int) {
	for range xs {
		b := make([]byte, 4) // no rewrite
		go func() { w.Write(b) }()
	}
}

// Deferred writes after the loop.
func Deferred(w io.Writer, xs []int) {
	for range xs {
		b := make([]byte, 4) // no rewrite
		defer w.Write(b)
	}
}

// Unknown passes the buffer to a function that may keep it.
func Unknown(keep func([]byte), xs []int) {
	for range xs {
		b := make([]byte, 4) // no rewrite
		keep(b)
	}
}

// Returned returns the buffer.
func Returned(r io.Reader, xs []int) []byte {
	for range xs {
		b := make([]byte, 4) // no rewrite
		if n, _ := r.Read(b); n == 4 {
			return b
		}
	}
	return nil
}
