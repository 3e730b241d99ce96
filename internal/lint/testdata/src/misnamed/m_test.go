package misnamed

import "testing"

var sink string
var n int

func BenchmarkBigCommaf(b *testing.B) { // want `BenchmarkBigCommaf: named for BigCommaf, which it never calls: it times Commaf`
	for i := 0; i < b.N; i++ {
		sink = Commaf(float64(i))
	}
}

// Parse through its string wrapper: it reaches Parse.
func BenchmarkParse(b *testing.B) {
	for i := 0; i < b.N; i++ {
		n = ParseString("abc")
	}
}

// Named for no function: nothing to compare.
func BenchmarkMixed(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Commaf(1)
	}
}

func BenchmarkCommaf_small(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Commaf(1)
	}
}

// Throttle is a wrapper of what it times: the same middleware.
func BenchmarkThrottle(b *testing.B) {
	for i := 0; i < b.N; i++ {
		n = ThrottleBacklog(i, 2)
	}
}

type blockCompressor struct {
	name     string
	compress func(src, dst []byte) int
}

func blockCompressors() []blockCompressor {
	var fast Compressor
	return []blockCompressor{{"fast", func(src, dst []byte) int { return fast.CompressBlock(src, dst) }}}
}

// CompressBlock through a function value a helper makes, calling the
// method of its name: it times what its name says.
func BenchmarkCompressBlock(b *testing.B) {
	for _, c := range blockCompressors() {
		dst := make([]byte, CompressBlockBound(64))
		for i := 0; i < b.N; i++ {
			n = c.compress(make([]byte, 64), dst)
		}
	}
}
