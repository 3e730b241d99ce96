package iobuffer

import (
	"encoding/binary"
	"io"
)

type bucket struct {
	m   map[uint64]uint64
	buf []byte
}

func (b *bucket) Save(w io.Writer) error {
	kvs := make([]byte, 0, 2*8*len(b.m)) // want `Save makes kvs \(make\(\[\]byte, 0, 2\*8\*len\(b.m\)\)\) only to write it to w \(line 22\) and drop it, at every call \(saveBuckets calls it in the loop at lines 51–55\)`
	var u64Buf [8]byte
	for k, v := range b.m {
		binary.LittleEndian.PutUint64(u64Buf[:], k)
		kvs = append(kvs, u64Buf[:]...)
		binary.LittleEndian.PutUint64(u64Buf[:], v)
		kvs = append(kvs, u64Buf[:]...)
	}
	_, err := w.Write(kvs)
	return err
}

func (b *bucket) Load(r io.Reader, n uint64) error {
	kvs := make([]byte, n) // want `Load makes kvs \(make\(\[\]byte, n\)\) only to read into it from r \(line 28\) and drop it, at every call`
	if _, err := io.ReadFull(r, kvs); err != nil {
		return err
	}
	m := make(map[uint64]uint64, n/16)
	for len(kvs) > 0 {
		k := binary.LittleEndian.Uint64(kvs)
		kvs = kvs[8:]
		v := binary.LittleEndian.Uint64(kvs)
		kvs = kvs[8:]
		m[k] = v
	}
	b.m = m
	return nil
}

func writeUint64(w io.Writer, u uint64) error {
	var u64Buf [8]byte // want `writeUint64 makes u64Buf, a \[8\]byte, only to write it to w \(line 46\) and drop it, and, passed to w.Write through an interface the compiler cannot see through, it moves to the heap at every call`
	binary.LittleEndian.PutUint64(u64Buf[:], u)
	_, err := w.Write(u64Buf[:])
	return err
}

func saveBuckets(bs []bucket, w io.Writer) {
	for i := range bs {
		if err := bs[i].Save(w); err != nil {
			return
		}
	}
}

// Kept: returned, stored, or passed elsewhere.
func (b *bucket) encode() []byte {
	out := make([]byte, 0, 16)
	out = append(out, 1)
	return out
}

func (b *bucket) keep(w io.Writer) {
	p := make([]byte, 8)
	w.Write(p)
	b.buf = p
}

func other(w io.Writer, f func([]byte)) {
	p := make([]byte, 8)
	f(p)
	w.Write(p)
}

// A concrete writer: the compiler sees whether it keeps p.
type sink struct{ n int }

func (s *sink) Write(p []byte) (int, error) { s.n += len(p); return len(p), nil }

func concrete(s *sink) {
	p := make([]byte, 8)
	s.Write(p)
}
