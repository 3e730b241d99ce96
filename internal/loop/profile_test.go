package loop

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/render"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestProfileDocument checks the profile sections of the document built
// from the profiles captured from the planted benchmarks
// (../profiles/testdata, see gen.sh there).
func TestProfileDocument(t *testing.T) {
	doc := &document.Report{Schema: document.Schema, Module: "example.com/planted", Benchmarks: []document.Benchmark{}}
	for _, b := range []string{"BenchmarkCount", "BenchmarkFrame", "BenchmarkLabels", "BenchmarkSum"} {
		dir := filepath.Join("..", "profiles", "testdata")
		a, err := profiles.Analyze(filepath.Join(dir, b+".cpu.pprof"), filepath.Join(dir, b+".mem.pprof"),
			profiles.Options{ModulePath: "example.com/planted", Benchmark: b})
		if err != nil {
			t.Fatal(err)
		}
		bj := document.Benchmark{Package: "example.com/planted", Name: b, Status: "ok", Metrics: map[string]*document.Metric{}}
		addProfile(doc, &bj, a, 5, 3)
		doc.Benchmarks = append(doc.Benchmarks, bj)
	}
	doc.Benchmarks = append(doc.Benchmarks, document.Benchmark{Package: "example.com/planted", Name: "BenchmarkPanic", Status: "failed",
		Error: "panic: assignment to entry in nil map (planted_test.go:66)", Metrics: map[string]*document.Metric{}})
	var buf bytes.Buffer
	if err := render.WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	// The render package renders this document in its tests.
	golden(t, filepath.Join("..", "render", "testdata", "profile.planted.json"), buf.Bytes())
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := name
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

func TestLongerBenchtime(t *testing.T) {
	for bt, want := range map[string]string{"": "", "10ms": "1s", "999ms": "1s", "1s": "", "2s": "", "100x": "1s", "junk": ""} {
		if got := longerBenchtime(bt); got != want {
			t.Errorf("longerBenchtime(%q) = %q, want %q", bt, got, want)
		}
	}
}
