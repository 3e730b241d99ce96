package poolputboxed

import "sync"

var bytesPool = sync.Pool{New: func() any { return make([]byte, 0, 1024) }}

var ptrPool = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

type reader struct{ data []byte }

// ReadText puts back the slice as Get returned it, boxed.
func ReadText(r *reader) (n int, err error) {
	tmp := bytesPool.Get().([]byte)
	defer bytesPool.Put(tmp) //nolint:staticcheck // want `bytesPool.Put\(tmp\) puts tmp, a \[\]byte, into the pool's interface: a slice header is copied to the heap for it at every Put \(24 B\), the allocation the pool is there to save; the line silences the linter's warning of exactly this \(//nolint\); the deferred Put's argument is evaluated at the defer, so it puts back tmp as it was then, not as line 15 reassigns it`
	tmp = append(tmp[:0], r.data...)
	return len(tmp), nil
}

// WriteText puts the slice back by value, not deferred.
func WriteText(r *reader) int {
	dst := bytesPool.Get().([]byte)
	dst = append(dst[:0], r.data...)
	n := len(dst)
	bytesPool.Put(dst[:0]) // want `bytesPool.Put\(dst\[:0\]\) puts dst\[:0\], a \[\]byte, into the pool's interface: a slice header is copied to the heap for it at every Put \(24 B\), the allocation the pool is there to save$`
	return n
}

// Pointer keeps pointers: no allocation.
func Pointer(r *reader) int {
	bp := ptrPool.Get().(*[]byte)
	defer ptrPool.Put(bp)
	*bp = append((*bp)[:0], r.data...)
	return len(*bp)
}

type frame struct {
	buf []byte
	n   int
}

// BufferPool is a pool of the caller's.
type BufferPool interface {
	Get() any
	Put(any)
}

// End puts a struct by value into a pool interface.
func End(p BufferPool, f frame) {
	p.Put(f) // want `p.Put\(f\) puts f, a frame, into the pool's interface: a struct is copied to the heap for it at every Put \(32 B\)`
}

type node struct{ next *node }

// Single puts a struct of one pointer: no copy.
func Single(p BufferPool, n node) {
	p.Put(n)
}
