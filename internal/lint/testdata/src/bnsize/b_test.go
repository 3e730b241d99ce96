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
