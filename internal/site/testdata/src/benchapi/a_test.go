package benchapi

import "testing"

func run(b *testing.B) {
	p := New()
	for b.Loop() {
		inc(p)
	}
}

func BenchmarkThroughHelper(b *testing.B) { run(b) } // want `BenchmarkThroughHelper calls New of the package it benchmarks`

func BenchmarkInternal(b *testing.B) {
	var n int
	for b.Loop() {
		inc(&n)
	}
}
