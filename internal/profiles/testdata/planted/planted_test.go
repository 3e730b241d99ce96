package planted

import (
	"strconv"
	"testing"
)

var (
	sinkInt   int
	sinkBytes []byte
	sinkFloat float64
	sinkStrs  []string
)

// (a) Time goes to map access inside a method.
func BenchmarkCount(b *testing.B) {
	ix := NewIndex(1 << 16)
	keys := make([]string, 4096)
	for i := range keys {
		keys[i] = "k" + strconv.Itoa(i*13%(1<<17))
	}
	for b.Loop() {
		sinkInt = ix.Count(keys)
	}
}

// (b) Bytes come from one make([]byte, n) with a variable n.
func BenchmarkFrame(b *testing.B) {
	i := 0
	for b.Loop() {
		sinkBytes = Frame(frameSize(i))
		i++
	}
}

// (c) fmt.Sprintf in a loop.
func BenchmarkLabels(b *testing.B) {
	var dst []string
	for b.Loop() {
		dst = Labels(dst, 16)
	}
	sinkStrs = dst
}

// (d) The benchmark rebuilds its fixture in every iteration, so it
// measures the fixture's allocations rather than Sum's.
func BenchmarkSum(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkFloat = Sum(fixture(64))
	}
}

func fixture(n int) []*Record {
	rs := make([]*Record, n)
	for i := range rs {
		rs[i] = &Record{ID: i, Name: "r", Score: float64(i)}
	}
	return rs
}

// (e) Panics after 100 iterations.
func BenchmarkPanic(b *testing.B) {
	var m map[int]int
	for i := 0; i < b.N; i++ {
		if i >= 100 {
			m[i] = i
		}
	}
}
