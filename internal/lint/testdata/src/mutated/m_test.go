package mutated

import "testing"

func BenchmarkCleanup(b *testing.B) {
	diffs := []Diff{{0, "a"}, {1, "b"}, {0, "c"}}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Cleanup(diffs) // want `Cleanup\(diffs\) changes diffs in place, and the loop hands it the same diffs every iteration`
	}
}

func BenchmarkCleanupFresh(b *testing.B) {
	base := []Diff{{0, "a"}, {1, "b"}, {0, "c"}}
	diffs := make([]Diff, len(base))
	for i := 0; i < b.N; i++ {
		diffs = append(diffs[:0], base...)
		Cleanup(diffs)
	}
}

func BenchmarkEncode(b *testing.B) {
	dst := make([]byte, 64)
	for i := 0; i < b.N; i++ {
		Encode(dst, "hello")
	}
}

var sink int

func BenchmarkSum(b *testing.B) {
	xs := []int{1, 2, 3}
	for b.Loop() {
		sink = Sum(xs)
	}
}
