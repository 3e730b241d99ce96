package document

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenDocumentsAreValid checks the documents the renderers' tests
// use, which the loop package generates.
func TestGoldenDocumentsAreValid(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "render", "testdata", "*.json"))
	n := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var r Report
		if err := json.Unmarshal(data, &r); err != nil || r.Schema != Schema {
			continue
		}
		n++
		if err := r.Validate(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	if n == 0 {
		t.Fatal("no report documents found in ../render/testdata")
	}
}

func TestValidateFindsViolations(t *testing.T) {
	low, high := 2.0, 1.0
	r := &Report{
		Schema:     "perfloop.report/v0",
		Benchmarks: []Benchmark{{Name: "X", Status: "failed", Metrics: map[string]*Metric{"sec/op": {Median: 1.5, Low: &low, High: &high}}}},
		Hotspots:   []Hotspot{{Benchmark: "BenchmarkY", Function: "f", File: "/abs/f.go", Flat: 0.6, Cum: 0.5}},
		Findings:   []Finding{{Severity: "urgent"}},
	}
	err := r.Validate()
	if err == nil {
		t.Fatal("Validate() = nil, want violations")
	}
	for _, want := range []string{"schema", "Benchmark prefix", "without an error", "outside [2, 1]", "does not list", "flat 0.6 above cum", "not relative", "unknown severity"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v\nmissing %q", err, want)
		}
	}
}
