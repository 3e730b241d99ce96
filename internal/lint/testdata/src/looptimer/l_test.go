package looptimer

import "testing"

var sink int

func BenchmarkTimer(b *testing.B) {
	for b.Loop() {
		b.StopTimer() // want `BenchmarkTimer: b.StopTimer inside a b.Loop loop`
		x := make([]int, 10)
		b.StartTimer() // want `b.StartTimer inside a b.Loop loop`
		sink = len(x)
	}
}

func BenchmarkNTimer(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		x := make([]int, 10)
		b.StartTimer()
		sink = len(x)
	}
}
