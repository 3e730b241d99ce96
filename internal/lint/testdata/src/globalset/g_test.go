package globalset

import "testing"

var sink bool

func BenchmarkTruncate(b *testing.B) {
	MaxLength = 8 // want `BenchmarkTruncate: sets MaxLength \(MaxLength = 8\) and never restores it: BenchmarkIsSlug, which runs after it in one go test process, reads it \(through IsSlug\)`
	Lowercase = false
	for i := 0; i < b.N; i++ {
		_ = Truncate("hello world")
	}
}

func BenchmarkTruncateRestored(b *testing.B) {
	old := MaxLength
	b.Cleanup(func() { MaxLength = old })
	MaxLength = 4
	for i := 0; i < b.N; i++ {
		_ = Truncate("hello world")
	}
}

func BenchmarkTruncateDeferred(b *testing.B) {
	MaxLength = 4
	defer func() { MaxLength = 0 }()
	for i := 0; i < b.N; i++ {
		_ = Truncate("hello world")
	}
}

func BenchmarkIsSlug(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = IsSlug("hello-world")
	}
}

// The last one: nothing runs after it.
func BenchmarkLast(b *testing.B) {
	MaxLength = 2
	for i := 0; i < b.N; i++ {
		sink = IsSlug("x")
	}
}

func BenchmarkNewPooled(b *testing.B) {
	EnablePool() // want `BenchmarkNewPooled: sets poolEnabled \(EnablePool\(\) sets poolEnabled = true\) and never restores it: BenchmarkNewAfter, which runs after it in one go test process, reads it \(through New\)`
	for i := 0; i < b.N; i++ {
		_ = New()
	}
}

func BenchmarkNewPooledOff(b *testing.B) {
	EnablePool()
	for i := 0; i < b.N; i++ {
		_ = New()
	}
	DisablePool()
}

func BenchmarkNewAfter(b *testing.B) {
	for i := 0; i < b.N; i++ {
		_ = New()
	}
}
