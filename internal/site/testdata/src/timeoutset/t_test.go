package timeoutset

import (
	"context"
	"testing"
	"time"
)

func BenchmarkDiff(b *testing.B) {
	d := &Differ{}
	d.DiffTimeout = time.Second // want `BenchmarkDiff sets d.DiffTimeout to 1s, a constant`
	for i := 0; i < b.N; i++ {
		_ = d
	}
}

func BenchmarkLiteral(b *testing.B) {
	d := Differ{DiffTimeout: 250 * time.Millisecond} // want `BenchmarkLiteral sets DiffTimeout to 250ms, a constant`
	for i := 0; i < b.N; i++ {
		_ = d
	}
}

func BenchmarkContext(b *testing.B) {
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond) // want `BenchmarkContext sets the context's timeout to 50ms`
		Diff(ctx, "a", "b")
		cancel()
	}
}

func BenchmarkNone(b *testing.B) {
	d := &Differ{}
	d.DiffTimeout = 0     // none
	d.Width = time.Second // not a timeout
	for i := 0; i < b.N; i++ {
		_ = d
	}
}

func TestDiff(t *testing.T) {
	d := &Differ{}
	d.DiffTimeout = time.Second // a test, not a benchmark
	_ = d
}
