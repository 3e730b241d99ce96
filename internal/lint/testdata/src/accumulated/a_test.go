package accumulated

import (
	"math/rand"
	"testing"
)

type Bitmap struct{ m map[uint32]bool }

func NewBitmap() *Bitmap                 { return &Bitmap{m: map[uint32]bool{}} }
func (b *Bitmap) Add(x uint32)           { b.m[x] = true }
func (b *Bitmap) Remove(x uint32)        { delete(b.m, x) }
func (b *Bitmap) Contains(x uint32) bool { return b.m[x] }
func (b *Bitmap) Clear()                 { b.m = map[uint32]bool{} }

// A random draw per iteration into one growing bitmap.
func BenchmarkSetRoaring(b *testing.B) {
	b.StopTimer()
	r := rand.New(rand.NewSource(0))
	s := NewBitmap()
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		s.Add(uint32(r.Int31n(1000000))) // want `every iteration adds a new value to s \(Add\), and nothing in the loop removes from it or makes it again`
	}
}

// The loop's counter, through a helper the benchmark hands b to.
func benchAdd(b *testing.B, s *Bitmap) {
	for i := 0; i < b.N; i++ {
		s.Add(uint32(i)) // want `every iteration adds a new value to s \(Add\)`
	}
}

func BenchmarkAddHelper(b *testing.B) { benchAdd(b, NewBitmap()) }

// A bounded set of keys: a steady state.
func BenchmarkAddBounded(b *testing.B) {
	s := NewBitmap()
	for i := 0; i < b.N; i++ {
		s.Add(uint32(i % 1024))
	}
}

// The same value every time: nothing grows.
func BenchmarkAddSame(b *testing.B) {
	s := NewBitmap()
	for i := 0; i < b.N; i++ {
		s.Add(42)
	}
}

// Added and removed: a steady state.
func BenchmarkAddRemove(b *testing.B) {
	s := NewBitmap()
	for i := 0; i < b.N; i++ {
		s.Add(uint32(i))
		s.Remove(uint32(i))
	}
}

// Cleared every so often.
func BenchmarkAddCleared(b *testing.B) {
	s := NewBitmap()
	for i := 0; i < b.N; i++ {
		s.Add(uint32(i))
		if i%1000 == 0 {
			s.Clear()
		}
	}
}

// Made in the loop.
func BenchmarkAddFresh(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := NewBitmap()
		s.Add(uint32(i))
	}
}

// The same keys put back each iteration (an inner loop's counter): the
// set stops growing after the first.
func BenchmarkPutSameKeys(b *testing.B) {
	s := NewBitmap()
	for i := 0; i < b.N; i++ {
		for n := 0; n < 100; n++ {
			s.Add(uint32(n))
		}
	}
}

// A counter declared before the loop: a new key each time.
func BenchmarkAddCounter(b *testing.B) {
	s := NewBitmap()
	k := 0
	for b.Loop() {
		k++
		s.Add(uint32(k)) // want `every iteration adds a new value to s \(Add\)`
	}
}

type Cache struct{ m map[int]int }

func NewCache(size int) *Cache    { return &Cache{m: make(map[int]int, size)} }
func (c *Cache) Add(k, v int)     { c.m[k] = v }
func NewSet(bits uint) *Bitmap    { return NewBitmap() }
func (b *Bitmap) SetBit(x uint32) { b.m[x] = true }

// A cache made with its capacity: bounded, it evicts.
func BenchmarkCacheAdd(b *testing.B) {
	c := NewCache(8192)
	for i := 0; i < b.N; i++ {
		c.Add(i, i)
	}
}

// A set sized up front.
func BenchmarkSetSized(b *testing.B) {
	r := rand.New(rand.NewSource(0))
	s := NewSet(100000)
	for i := 0; i < b.N; i++ {
		s.SetBit(uint32(r.Int31n(100000)))
	}
}

// b itself is no container.
func BenchmarkSetBytes(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.SetBytes(int64(i))
	}
}

// The cache filled with b.N keys before b.ResetTimer, then read in
// RunParallel: the fill is the fixture, not the timed loop.
func BenchmarkReadFromFilled(b *testing.B) {
	s := NewBitmap()
	for i := 0; i < b.N; i++ {
		s.Add(uint32(i))
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_ = s
		}
	})
}

type Decimal struct{ v int }

func (d Decimal) AppendText(b []byte) ([]byte, error) { return append(b, "1.5"...), nil }

// The buffer appended to is kept and never emptied: it grows, not d.
func BenchmarkAppendText(b *testing.B) {
	a := make([]byte, 0, 16)
	d := Decimal{}
	b.ResetTimer()
	for range b.N {
		a, _ = d.AppendText(a) // want `every iteration appends to a \(d.AppendText\(a\)\) and keeps the result in it, and nothing in the loop empties it`
	}
}

// Emptied each iteration: steady.
func BenchmarkAppendTextReset(b *testing.B) {
	a := make([]byte, 0, 16)
	d := Decimal{}
	for range b.N {
		a, _ = d.AppendText(a[:0])
	}
}
