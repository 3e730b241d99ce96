package pbnext

import "testing"

var sink int

func BenchmarkNoNext(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) { // want `BenchmarkNoNext: the RunParallel body never calls pb.Next\(\)`
		sink++
	})
}

func BenchmarkNext(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			sink++
		}
	})
}
