package history

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/store"
)

func TestWithSteps(t *testing.T) {
	hp := []document.HistoryPoint{{Commit: "c1"}, {Commit: "c2"}, {Commit: "c3"}, {Commit: "c4"}, {Commit: "c5"}}
	levels := document.ChangePoint{Commit: "c3", Delta: 3.2, Before: 30e-6, After: 126e-6, Confidence: 0.995}
	step := func(run int64, base string, delta, low, high, p float64, sig bool) store.RunStep {
		return store.RunStep{Run: run, Step: store.Step{Base: base, Delta: delta, Low: low, High: high, P: p, Significant: sig, Before: 8e-6, After: 8e-6 * (1 + delta)}}
	}
	paired := document.ChangePoint{Commit: "c3", Delta: 1.01, Before: 8e-6, After: 8e-6 * 2.01, Confidence: 1 - 0.0001}
	for _, tc := range []struct {
		name    string
		changes []document.ChangePoint
		steps   map[string][]store.RunStep
		want    []document.ChangePoint
	}{
		{"no steps", []document.ChangePoint{levels}, nil, []document.ChangePoint{levels}},
		{"a paired step the levels missed",
			[]document.ChangePoint{},
			map[string][]store.RunStep{"c3": {step(3, "c2", 1.01, 0.95, 1.07, 0.0001, true)}},
			[]document.ChangePoint{paired}},
		{"the paired numbers replace the levels'",
			[]document.ChangePoint{levels},
			map[string][]store.RunStep{"c3": {step(3, "c2", 1.01, 0.95, 1.07, 0.0001, true)}},
			[]document.ChangePoint{paired}},
		{"a pair that saw no such change drops it",
			[]document.ChangePoint{levels, {Commit: "c5", Delta: 0.5}},
			map[string][]store.RunStep{"c3": {step(3, "c2", 0.004, -0.02, 0.03, 0.6, false)}},
			[]document.ChangePoint{{Commit: "c5", Delta: 0.5}}},
		{"an inconclusive pair whose interval holds the shift keeps it",
			[]document.ChangePoint{levels},
			map[string][]store.RunStep{"c3": {step(3, "c2", 0.9, -0.5, 4, 0.2, false)}},
			[]document.ChangePoint{levels}},
		{"a step against another base does not count",
			[]document.ChangePoint{},
			map[string][]store.RunStep{"c3": {step(3, "c1", 1.01, 0.95, 1.07, 0.0001, true)}},
			[]document.ChangePoint{}},
		{"a significant step below the minimum shift is no change point",
			[]document.ChangePoint{},
			map[string][]store.RunStep{"c3": {step(3, "c2", 0.01, 0.005, 0.015, 0.001, true)}},
			[]document.ChangePoint{}},
		{"the newest run's step counts",
			[]document.ChangePoint{},
			map[string][]store.RunStep{"c3": {step(9, "c2", 1.01, 0.95, 1.07, 0.0001, true), step(4, "c2", 0, -0.01, 0.01, 0.9, false)}},
			[]document.ChangePoint{paired}},
		{"added in order",
			[]document.ChangePoint{{Commit: "c2", Delta: 0.3}, {Commit: "c5", Delta: 0.5}},
			map[string][]store.RunStep{"c3": {step(3, "c2", 1.01, 0.95, 1.07, 0.0001, true)}},
			[]document.ChangePoint{{Commit: "c2", Delta: 0.3}, paired, {Commit: "c5", Delta: 0.5}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := withSteps(append([]document.ChangePoint{}, tc.changes...), hp, tc.steps, 0.02)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestStepsFindWhatLoadHides: on a loaded machine each run's level moves
// by up to three times, which hides a doubling at the third of five
// commits from the levels; the runs' paired steps (each commit measured
// against the one before, interleaved) find it, and only it. Stored by
// Update and computed by Load alike.
func TestStepsFindWhatLoadHides(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st := open(t, dsn)
		r := newRepo(9, 5, 1)
		r.level["B00"] = []float64{1000, 1000, 2000, 2000, 2000}
		slow := []float64{2.9, 1.2, 1.1, 1.0, 1.45} // each job's slowdown
		for i := range r.commits {
			run := r.run(i, 5, nil)
			// The job's load multiplies the whole run.
			run.Results = []byte(scaleNs(string(run.Results), slow[i]))
			if i > 0 {
				delta, sig := 0.003, false
				if i == 2 {
					delta, sig = 1.004, true
				}
				run.Steps = []store.Step{{Key: store.SeriesKey{Package: "example.com/m", Name: "BenchmarkB00", Unit: "sec/op"},
					Base: r.commits[i-1], Delta: delta, Low: delta - 0.03, High: delta + 0.03, P: map[bool]float64{true: 0.0002, false: 0.7}[sig],
					Significant: sig, Before: 1e-6, After: 1e-6 * (1 + delta)}}
			}
			if _, err := st.Save(ctx, run); err != nil {
				t.Fatal(err)
			}
			if _, err := Update(ctx, st, "example.com/m", r.commits[:i+1]); err != nil {
				t.Fatal(err)
			}
		}
		levelsOnly := built(t, st, r.commits)
		for _, h := range []*document.History{load(t, st, Options{Order: r.commits}), load(t, st, Options{Order: r.commits, MinDelta: 0.021})} {
			var cps []document.ChangePoint
			for _, b := range h.Benchmarks {
				if b.Unit == "sec/op" {
					cps = b.ChangePoints
				}
			}
			if len(cps) != 1 || cps[0].Commit != r.commits[2] || cps[0].Delta != 1.004 {
				t.Errorf("change points %+v, want the paired doubling at the third commit alone", cps)
			}
		}
		for _, b := range levelsOnly.Benchmarks {
			if b.Unit == "sec/op" {
				t.Logf("from the levels alone: %+v", b.ChangePoints)
			}
		}
	})
}

// scaleNs multiplies every ns/op value of benchfmt text by f.
func scaleNs(text string, f float64) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		fields := strings.Fields(line)
		for i := 1; i < len(fields); i++ {
			if fields[i] == "ns/op" {
				v, _ := strconv.ParseFloat(fields[i-1], 64)
				fields[i-1] = strconv.FormatFloat(v*f, 'f', 2, 64)
				line = strings.Join(fields, " ")
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
