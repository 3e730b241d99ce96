package runinloop

import "testing"

func BenchmarkRunInLoop(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.Run("x", func(b *testing.B) {}) // want `BenchmarkRunInLoop: b.Run inside the b.N loop`
	}
}

func BenchmarkTable(b *testing.B) {
	for _, n := range []int{1, 2} {
		b.Run("n", func(b *testing.B) {
			for range b.N {
				_ = n
			}
		})
	}
}
