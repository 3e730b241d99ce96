package loop

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/site"
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

// TestHotShapeAtHeapSite: a shape at a line the heap profile names is
// kept whatever function holds it (a pool's New handed to its typed
// wrapper's constructor, inlined into the package's init: the profile names init.NewPool.func1, the source
// NewPool, and no CPU line names either).
func TestHotShapeAtHeapSite(t *testing.T) {
	doc := &document.Report{Allocations: []document.Allocation{{Function: "example.com/m/buffer.init.NewPool.func1", File: "buffer/pool.go", Line: 37}}}
	keep := hotShape(doc)
	if !keep(document.Shape{Name: "pool-new", Function: "example.com/m/buffer.NewPool", File: "buffer/pool.go", Line: 37}) {
		t.Error("the shape at the heap profile's site is dropped")
	}
	if keep(document.Shape{Name: "pool-new", Function: "example.com/m/buffer.NewPool", File: "buffer/pool.go", Line: 40}) {
		t.Error("a shape at no site of the profile is kept")
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

// TestTestSupport: a module package that only tests and main programs
// import (an example decoder the benchmarks run) is test support; one the
// library imports, or a main, is not; a module with no library package
// (a program) has none.
func TestTestSupport(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":                     "module example.com/tok\n\ngo 1.24\n",
		"tok.go":                     "package tok\n\nimport \"example.com/tok/internal/scan\"\n\n// Next scans.\nfunc Next(b []byte) int { return scan.Index(b) }\n",
		"tok_test.go":                "package tok\n\nimport (\n\t\"testing\"\n\n\t\"example.com/tok/internal/gpx\"\n)\n\nfunc BenchmarkGPX(b *testing.B) {\n\tfor b.Loop() {\n\t\t_ = gpx.Decode(nil)\n\t}\n}\n",
		"internal/scan/scan.go":      "package scan\n\n// Index finds '<'.\nfunc Index(b []byte) int { return len(b) }\n",
		"internal/gpx/gpx.go":        "package gpx\n\nimport \"example.com/tok/internal/gpx/schema\"\n\n// Decode decodes.\nfunc Decode(b []byte) int { return schema.Points(b) }\n",
		"internal/gpx/schema/pts.go": "package schema\n\n// Points counts.\nfunc Points(b []byte) int { return len(b) }\n",
		"internal/main.go":           "package main\n\nimport \"example.com/tok/internal/gpx\"\n\nfunc main() { _ = gpx.Decode(nil) }\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog, err := site.Load(context.Background(), site.Config{Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	got := testSupport(prog, "example.com/tok")
	want := []string{"example.com/tok/internal/gpx", "example.com/tok/internal/gpx/schema"}
	if !slices.Equal(got, want) {
		t.Errorf("test support %v, want %v", got, want)
	}
	if got := testSupport(prog, ""); got != nil {
		t.Errorf("with no module path: %v, want none", got)
	}
}

// TestHotShapeGeneratedFile: a generated file's mark, at its package
// clause in no function, is kept: it is about every fix in the file.
func TestHotShapeGeneratedFile(t *testing.T) {
	keep := hotShape(&document.Report{})
	if !keep(document.Shape{Name: "generated-file", File: "tile.pb.go", Line: 3}) {
		t.Error("the generated file's mark is dropped")
	}
}
