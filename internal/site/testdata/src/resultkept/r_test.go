package resultkept

import "testing"

var SinkInt int

func BenchmarkKept(b *testing.B) { // want `BenchmarkKept stores what each loop computes in SinkInt, a package-level variable`
	for _, name := range []string{"empty", "short"} {
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				SinkInt = prefix(nil, []rune{})
			}
		})
	}
}

func BenchmarkLoopKept(b *testing.B) { // want `BenchmarkLoopKept stores what each loop computes in SinkInt`
	for b.Loop() {
		SinkInt += prefix([]rune("ab"), []rune("ac"))
	}
}

// One loop drops its result: not every loop keeps it.
func BenchmarkHalf(b *testing.B) {
	b.Run("kept", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			SinkInt = prefix(nil, nil)
		}
	})
	b.Run("dropped", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			prefix(nil, nil)
		}
	})
}

// A local keeps nothing the compiler must keep.
func BenchmarkLocal(b *testing.B) {
	var n int
	for i := 0; i < b.N; i++ {
		n = prefix(nil, nil)
	}
	_ = n
}

func add(a, b int) int { return a + b }

// Constants only: the compiler may fold the call, sink or not.
func BenchmarkConstant(b *testing.B) {
	for i := 0; i < b.N; i++ {
		SinkInt = add(1, 2)
	}
}

// b.Loop keeps the call in its body.
func BenchmarkLoopOnly(b *testing.B) { // want `BenchmarkLoopOnly loops with b.Loop: the compiler keeps the calls in its body`
	for b.Loop() {
		prefix(nil, nil)
	}
}
