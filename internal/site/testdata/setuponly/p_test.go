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

func BenchmarkID(b *testing.B) {
	id := NewID()
	for b.Loop() {
		_ = id.String()
	}
}

func BenchmarkFound(b *testing.B) {
	f := Compile("abc").Find("abc")
	for b.Loop() {
		_ = f.At()
	}
}
