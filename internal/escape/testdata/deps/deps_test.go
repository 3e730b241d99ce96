package deps

import "testing"

func BenchmarkEval(b *testing.B) {
	for b.Loop() {
		Eval(3)
	}
}
