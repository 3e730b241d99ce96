package loop

import (
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestHotShape: a shape is kept when its function is one the document
// says is hot, a generic method's too: the profile names the
// instantiation, the source the declaration.
func TestHotShape(t *testing.T) {
	doc := &document.Report{
		Lines:       []document.LineCost{{Function: "example.com/m.items[go.shape.interface { Less(example.com/m.Item) bool }].find"}},
		Allocations: []document.Allocation{{Function: "example.com/m.(*BTreeG[go.shape.int]).Clone", Parent: "example.com/m.(*Tree).Clone.func1"}},
	}
	keep := hotShape(doc)
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"example.com/m.items[...].find", true},
		{"example.com/m.(*BTreeG[...]).Clone", true},
		{"example.com/m.(*Tree).Clone", true},
		{"example.com/m.(*BTreeG[...]).Delete", false},
	} {
		if got := keep(document.Shape{Name: "moved-pair", Function: tc.fn}); got != tc.want {
			t.Errorf("shape in %s kept: %v, want %v", tc.fn, got, tc.want)
		}
	}
}

// TestHotShapeOfPackageLiteral: a shape in a func literal of a
// package-level var has no function in the source; it is kept at a line
// the profile says is hot, and only there.
func TestHotShapeOfPackageLiteral(t *testing.T) {
	doc := &document.Report{Lines: []document.LineCost{{Function: "example.com/m.init.func1", File: "btree.go", Line: 905}}}
	keep := hotShape(doc)
	if !keep(document.Shape{Name: "interface-dispatch", File: "btree.go", Line: 905}) {
		t.Error("the shape at the hot line of a package-level func literal is dropped")
	}
	if keep(document.Shape{Name: "interface-dispatch", File: "btree.go", Line: 100}) {
		t.Error("a shape at a line the profile does not name is kept")
	}
}

// TestHotShapeOfBenchmark: a shape at a benchmark's own function (how its
// loop keeps results: result-kept, b-loop) is kept whether or not the
// profile names the benchmark: a sub-nanosecond benchmark's profile may
// not.
func TestHotShapeOfBenchmark(t *testing.T) {
	doc := &document.Report{Benchmarks: []document.Benchmark{{Package: "example.com/m/conv", Name: "BenchmarkRaw"}, {Package: "example.com/m", Name: "BenchmarkSub/case"}}}
	keep := hotShape(doc)
	for fn, want := range map[string]bool{
		"example.com/m/conv.BenchmarkRaw": true,
		"example.com/m.BenchmarkSub":      true,
		"example.com/m.BenchmarkOther":    false,
	} {
		if got := keep(document.Shape{Name: "b-loop", Function: fn}); got != want {
			t.Errorf("shape at %s kept: %v, want %v", fn, got, want)
		}
	}
}
