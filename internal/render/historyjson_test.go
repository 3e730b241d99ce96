package render

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestHistoryJSONIsWriteJSON: the history written a series at a time has
// the bytes WriteJSON writes for the whole document, with no series, one,
// and several (names that JSON escapes, empty points and change points).
func TestHistoryJSONIsWriteJSON(t *testing.T) {
	series := []document.HistoryBenchmark{
		{Package: "example.com/m", Name: "BenchmarkA/<b>&\"x\"", Unit: "sec/op", Points: []document.HistoryPoint{}, ChangePoints: []document.ChangePoint{}},
		{Name: "BenchmarkB", Procs: 2, Unit: "B/op", Points: []document.HistoryPoint{{Commit: "c1"}}, ChangePoints: []document.ChangePoint{{Commit: "c1", Delta: 0.5}}},
		{Name: "BenchmarkC", Unit: "allocs/op"},
	}
	for n := 0; n <= len(series); n++ {
		h := &document.History{Schema: document.HistorySchema, Module: "example.com/m", Fingerprint: "fp",
			Commits: []document.HistoryCommit{{Commit: "c1", Subject: "a <subject>", Runs: []int64{1}}}, Benchmarks: series[:n]}
		var want bytes.Buffer
		if err := WriteJSON(&want, h); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		j := NewHistoryJSON(&got)
		head := *h
		head.Benchmarks = nil
		if err := j.Begin(&head); err != nil {
			t.Fatal(err)
		}
		for i := range h.Benchmarks {
			if err := j.Add(&h.Benchmarks[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := j.End(); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%d series:\n got %s\nwant %s", n, got.String(), want.String())
		}
		if !json.Valid(got.Bytes()) {
			t.Errorf("%d series: not JSON", n)
		}
	}
}
