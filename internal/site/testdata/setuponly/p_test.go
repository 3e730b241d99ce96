package setuponly

import "testing"

func BenchmarkPattern(b *testing.B) {
	b.Run("compile", func(b *testing.B) {
		for b.Loop() {
			Compile("abc")
		}
	})
	p := Compile("abc")
	b.Run("match", func(b *testing.B) {
		for b.Loop() {
			p.Match("abc")
		}
	})
}
