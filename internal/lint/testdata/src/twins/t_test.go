package twins

import "testing"

var hits = []string{"/a", "/b"}
var misses = []string{"/x", "/y"}

func route(s string) int { return len(s) }

func benchRoutes(b *testing.B, paths []string) {
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			route(p)
		}
	}
}

func BenchmarkRoutes(b *testing.B) {
	benchRoutes(b, hits)
}

// Named for the misses, it routes the hits.
func BenchmarkRoutesMisses(b *testing.B) { // want `its body is BenchmarkRoutes's, call for call`
	benchRoutes(b, hits)
}

func BenchmarkRealMisses(b *testing.B) {
	benchRoutes(b, misses)
}
