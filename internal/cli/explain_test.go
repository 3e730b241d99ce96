package cli

import (
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestExplainGroupsByPackage: two packages' benchmarks of one name get a
// header each.
func TestExplainGroupsByPackage(t *testing.T) {
	doc := &document.Report{Benchmarks: []document.Benchmark{
		{Name: "BenchmarkEncode", Package: "example.com/a"},
		{Name: "BenchmarkEncode", Package: "example.com/b"},
	}, Allocations: []document.Allocation{
		{Benchmark: "BenchmarkEncode", Package: "example.com/a", File: "a/a.go", Line: 3, BytesShare: 1, ObjectsShare: 1},
		{Benchmark: "BenchmarkEncode", Package: "example.com/b", File: "b/b.go", Line: 7, BytesShare: 1, ObjectsShare: 1},
	}}
	var out strings.Builder
	printExplanations(Streams{Out: &out}, doc, 0.05)
	if got := strings.Count(out.String(), "BenchmarkEncode  example.com/"); got != 2 {
		t.Errorf("%d headers, want one per package:\n%s", got, out.String())
	}
}
