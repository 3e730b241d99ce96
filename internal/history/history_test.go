package history

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/store"
)

// results returns benchfmt text: one line per value, ns per op.
func results(name string, ns ...float64) string {
	var b strings.Builder
	b.WriteString("pkg: example.com/m\n")
	for _, v := range ns {
		fmt.Fprintf(&b, "Benchmark%s-2 1000 %g ns/op\n", name, v)
	}
	return b.String()
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(b) }

// TestBuild: runs recorded out of order are put in git order; two shards
// of one commit are pooled into one point; a run on another machine is
// counted, never mixed in; the doubling is found at its commit.
func TestBuild(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	order := []string{"c1", "c2", "c3", "c4", "c5"}
	data := map[int64]string{}
	var runs []store.RunInfo
	add := func(commit, fp, text string) {
		id := int64(len(runs) + 1)
		runs = append(runs, store.RunInfo{ID: id, Commit: commit, Subject: "subject " + commit, FingerprintKey: fp,
			Started: t0.Add(time.Duration(id) * time.Minute), HasReport: true})
		data[id] = text
	}
	// Recorded newest first, as a CI queue might.
	lvl := map[string]float64{"c1": 1000, "c2": 1000, "c3": 2000, "c4": 2000, "c5": 2000}
	for i := len(order) - 1; i >= 0; i-- {
		c := order[i]
		l := lvl[c]
		add(c, "fpA", results("Work", l, l*1.01, l*0.99)+results("Other", 50, 51, 49))
	}
	// A second shard of c5 carries two more samples of Work.
	add("c5", "fpA", results("Work", 2010, 1990))
	// Another machine, twice as fast, recorded earlier than the newest.
	runs = append(runs, store.RunInfo{ID: 100, Commit: "c3", FingerprintKey: "fpB", Started: t0})
	data[100] = results("Work", 10, 10, 10)

	h, err := Build(runs, func(id int64) ([]byte, error) { return []byte(data[id]), nil }, "example.com/m",
		Options{Order: order, Match: func(name string) bool { return name == "BenchmarkWork" }})
	if err != nil {
		t.Fatal(err)
	}
	if h.Fingerprint != "fpA" || h.Others != 1 {
		t.Errorf("fingerprint %q, others %d; want fpA, 1", h.Fingerprint, h.Others)
	}
	var commits []string
	for _, c := range h.Commits {
		commits = append(commits, c.Commit)
	}
	if got := strings.Join(commits, " "); got != "c1 c2 c3 c4 c5" {
		t.Errorf("commits %q, want git order c1 … c5", got)
	}
	if len(h.Benchmarks) != 1 {
		t.Fatalf("%d series, want 1 (Match keeps BenchmarkWork)", len(h.Benchmarks))
	}
	b := h.Benchmarks[0]
	if b.Name != "BenchmarkWork" || b.Unit != "sec/op" || b.Procs != 2 || b.Package != "example.com/m" {
		t.Errorf("series %+v", b)
	}
	if len(b.Points) != 5 {
		t.Fatalf("%d points, want 5", len(b.Points))
	}
	if p := b.Points[4]; p.N != 5 || !near(p.Value, 2000e-9) || !near(p.Low, 1980e-9) || !near(p.High, 2020e-9) {
		t.Errorf("c5 point %+v, want the 5 samples of both shards pooled, median 2µs", p)
	}
	if p := b.Points[0]; p.N != 3 || !near(p.Value, 1000e-9) {
		t.Errorf("c1 point %+v, want 3 samples, median 1µs", p)
	}
	if len(b.ChangePoints) != 1 || b.ChangePoints[0].Commit != "c3" {
		t.Fatalf("change points %+v, want one at c3", b.ChangePoints)
	}
	if d := b.ChangePoints[0].Delta; d < 0.9 || d > 1.1 {
		t.Errorf("delta %.2f, want ≈ +100%%", d)
	}
}

// TestBuildCommitTime: without a git order, runs are ordered by commit
// time; a commit outside the order is left out when one is given.
func TestBuildCommitTime(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	runs := []store.RunInfo{
		{ID: 1, Commit: "late", CommitTime: t0.Add(time.Hour), FingerprintKey: "f"},
		{ID: 2, Commit: "early", CommitTime: t0, FingerprintKey: "f"},
	}
	read := func(int64) ([]byte, error) { return []byte(results("X", 1, 2)), nil }
	h, err := Build(runs, read, "m", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Commits) != 2 || h.Commits[0].Commit != "early" {
		t.Errorf("commits %+v, want early first", h.Commits)
	}
	h, err = Build(runs, read, "m", Options{Order: []string{"late"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Commits) != 1 || h.Commits[0].Commit != "late" {
		t.Errorf("commits %+v, want only late", h.Commits)
	}
	if h, err = Build(nil, read, "m", Options{}); err != nil || len(h.Benchmarks) != 0 {
		t.Errorf("no runs: %+v, %v", h, err)
	}
}

// TestBuildIgnoresEmptyRuns: a run with no benchmark results (stored by
// an older perfloop for a -bench or a shard that selected nothing, under
// a fingerprint of its own) never decides which machine is shown, and is
// neither a commit nor a run on another machine.
func TestBuildIgnoresEmptyRuns(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	runs := []store.RunInfo{
		{ID: 1, Commit: "c1", FingerprintKey: "fpA", Started: t0},
		{ID: 2, Commit: "c2", FingerprintKey: "fpA", Started: t0.Add(time.Minute)},
		{ID: 3, Commit: "c2", FingerprintKey: "unknown-fp", Started: t0.Add(3 * time.Minute)},
		{ID: 4, Commit: "c3", FingerprintKey: "fpA", Started: t0.Add(2 * time.Minute)},
	}
	data := map[int64]string{
		1: results("Work", 1, 2),
		2: results("Work", 1, 2),
		3: "\nperfloop-version: (devel)\ngo-version: go1.26.8\ndate: 2026-01-01T00:02:00Z\n",
		4: "pkg: example.com/m\n",
	}
	read := func(id int64) ([]byte, error) { return []byte(data[id]), nil }
	h, err := Build(runs, read, "example.com/m", Options{Order: []string{"c1", "c2", "c3"}})
	if err != nil {
		t.Fatal(err)
	}
	if h.Fingerprint != "fpA" || h.Others != 0 {
		t.Errorf("fingerprint %q, others %d; want fpA, 0 (the empty runs ignored)", h.Fingerprint, h.Others)
	}
	if len(h.Commits) != 2 || len(h.Benchmarks) != 1 || len(h.Benchmarks[0].Points) != 2 {
		t.Errorf("commits %+v, %d series; want c1 and c2, one series of 2 points", h.Commits, len(h.Benchmarks))
	}

	// Only empty runs: no machine, nothing shown.
	h, err = Build(runs[2:], read, "example.com/m", Options{Order: []string{"c1", "c2", "c3"}})
	if err != nil || h.Fingerprint != "" || len(h.Commits) != 0 || h.Others != 0 {
		t.Errorf("only empty runs: %+v, %v; want an empty history", h, err)
	}
}
