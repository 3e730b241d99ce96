package builtperop

import "testing"

func BenchmarkAddString(b *testing.B) {
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			enc := NewJSONEncoder() // want `BenchmarkAddString builds enc with NewJSONEncoder\(\) on every iteration of its loop, then calls its methods`
			enc.AddString("k", "v")
		}
	})
}

// Named for what it builds, built once, built and not used: nothing to
// say.
func BenchmarkNewJSONEncoder(b *testing.B) {
	for i := 0; i < b.N; i++ {
		enc := NewJSONEncoder()
		enc.AddString("k", "v")
	}
}

func BenchmarkOnce(b *testing.B) {
	enc := NewJSONEncoder()
	for i := 0; i < b.N; i++ {
		enc.AddString("k", "v")
	}
}

var sink *Encoder

func BenchmarkKept(b *testing.B) {
	for i := 0; i < b.N; i++ {
		e := NewJSONEncoder()
		sink = e
	}
}
