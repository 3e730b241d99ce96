package bnsize

import "testing"

var sink int

func BenchmarkMakeN(b *testing.B) {
	data := make([]int, b.N) // want `BenchmarkMakeN: b.N is the size of a make`
	for i := 0; i < b.N; i++ {
		data[i] = i
	}
	sink = len(data)
}

func BenchmarkArg(b *testing.B) {
	sink = Process(nil, b.N) // want `b.N is an argument of Process`
}

func BenchmarkSlice(b *testing.B) {
	xs := make([]int, 1<<20)
	for range b.N {
		sink += len(xs[:b.N%len(xs)]) // want `b.N is a slice bound`
	}
}

// Fine: loop conditions, per-op metrics, conversions in a division.
func BenchmarkFine(b *testing.B) {
	total := 0
	for i := 0; i < b.N; i++ {
		total += i
	}
	b.ReportMetric(float64(total)/float64(b.N), "x/op")
	for range b.N {
	}
	sink = total
}

func BenchmarkAlias(b *testing.B) {
	n := b.N
	buf := make([]byte, n) // want `BenchmarkAlias: b.N is the size of a make`
	for i := 0; i < n; i++ {
		buf[i]++
	}
}

// Fine: one input per iteration, made before the timer; the loop reads
// one element of it each time.
func BenchmarkInputs(b *testing.B) {
	trace := make([]int64, b.N*2)
	for i := 0; i < b.N*2; i++ {
		trace[i] = int64(i) % 32768
	}
	b.ResetTimer()
	for i := 0; i < 2*b.N; i++ {
		sink += int(trace[i])
	}
}

// The whole slice in every iteration: the work grows with b.N.
func BenchmarkWhole(b *testing.B) {
	data := make([]int, b.N) // want `BenchmarkWhole: b.N is the size of a make`
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += Process(data, i)
	}
}

type store struct{ m map[int]int }

func newStore(n int) *store { return &store{m: make(map[int]int, n)} }

// Fine: the store is sized for the b.N entries the untimed setup puts
// in, and each timed iteration reads one.
func BenchmarkFilled(b *testing.B) {
	s := newStore(max(b.N, 100))
	for i := 0; i < b.N; i++ {
		s.m[i] = i
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			sink += s.m[i]
			i++
		}
	})
}

// Sized by b.N with no fill before the reset: the call's work grows
// with b.N, timed or not.
func BenchmarkUnfilled(b *testing.B) {
	s := newStore(b.N) // want `BenchmarkUnfilled: b.N is an argument of newStore`
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink += s.m[i]
	}
}
