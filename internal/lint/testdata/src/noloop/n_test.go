package noloop

import "testing"

var sink int

func BenchmarkOnce(b *testing.B) { // want `BenchmarkOnce: no loop over b.N and no b.Loop`
	sink = Work()
}

func BenchmarkLoop(b *testing.B) {
	for b.Loop() {
		sink = Work()
	}
}

func BenchmarkRange(b *testing.B) {
	for range b.N {
		sink = Work()
	}
}

func BenchmarkSubs(b *testing.B) {
	b.Run("a", func(b *testing.B) { // want `BenchmarkSubs/a: no loop over b.N`
		sink = Work()
	})
	b.Run("b", func(b *testing.B) {
		for b.Loop() {
			sink = Work()
		}
	})
}

func BenchmarkHelper(b *testing.B) { helper(b) }

func helper(b *testing.B) {
	for range b.N {
		sink = Work()
	}
}

func BenchmarkSkipped(b *testing.B) {
	b.Skip("not on this machine")
}

func BenchmarkAliasLoop(b *testing.B) {
	n := b.N
	for i := 0; i < n; i++ {
		sink = Work()
	}
}
