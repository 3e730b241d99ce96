package findings

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

const mod = "example.com/planted"

// bench builds a benchmark with sec/op and allocs/op medians.
func bench(name string, sec, allocs float64) document.Benchmark {
	return document.Benchmark{
		Package: mod, Name: name, Status: "ok",
		Metrics: map[string]*document.Metric{
			"sec/op":    {Median: sec, N: 10},
			"allocs/op": {Median: allocs, N: 10},
		},
	}
}

func ptr(x float64) *float64 { return &x }

// planted mimics the planted example package's report.
func planted() *document.Report {
	count := bench("BenchmarkCount", 2e-6, 0)
	count.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkCount", mod + ".(*Index).Count", "runtime.mapaccess2_faststr"}}
	fixture := bench("BenchmarkFixture", 1e-6, 5)
	fixture.TestAllocShare = ptr(0.9)
	return &document.Report{
		Schema: document.Schema, Module: mod,
		Benchmarks: []document.Benchmark{
			count,
			bench("BenchmarkWrite", 1e-7, 1),
			bench("BenchmarkFrame", 3e-7, 1),
			bench("BenchmarkLabels", 5e-7, 3),
			fixture,
			bench("BenchmarkSum", 3e-9, 0),
			bench("BenchmarkGC", 1e-6, 4),
		},
		Hotspots: []document.Hotspot{
			{Benchmark: "BenchmarkCount", Function: mod + ".BenchmarkCount", File: "planted_test.go", Line: 40, Flat: 0.01, Cum: 0.99},
			{Benchmark: "BenchmarkCount", Function: mod + ".(*Index).Count", File: "tiers.go", Line: 14, Flat: 0.05, Cum: 0.9},
			{Benchmark: "BenchmarkCount", Function: mod + ".NewIndex", File: "tiers.go", Line: 5, Flat: 0.08, Cum: 0.08},
			{Benchmark: "BenchmarkCount", Function: "runtime.mapaccess2_faststr", File: "map.go", Line: 1, Flat: 0.7, Cum: 0.8},
			{Benchmark: "BenchmarkSum", Function: mod + ".BenchmarkSum", File: "planted_test.go", Line: 60, Flat: 0.98, Cum: 1},
		},
		Categories: []document.Category{
			{Benchmark: "BenchmarkCount", Category: "maps", Share: 0.8},
			{Benchmark: "BenchmarkCount", Category: "application", Share: 0.2},
			{Benchmark: "BenchmarkSum", Category: "application", Share: 1},
			{Benchmark: "BenchmarkGC", Category: "gc", Share: 0.25},
			{Benchmark: "BenchmarkGC", Category: "memory", Share: 0.2},
			{Benchmark: "BenchmarkGC", Category: "scheduler", Share: 0.17},
			{Benchmark: "BenchmarkGC", Category: "syscall", Share: 0.1},
			{Benchmark: "BenchmarkGC", Category: "application", Share: 0.28},
		},
		Allocations: []document.Allocation{
			{Benchmark: "BenchmarkWrite", Function: mod + ".WriteFrame", File: "codec.go", Line: 10,
				BytesShare: 0.97, ObjectsShare: 0.95,
				Escape: &document.Escape{Verdict: "moved to heap: hdr", Cause: "moved-to-heap", Name: "hdr",
					Reason: "hdr is moved to the heap because its address escapes: w.Write(hdr[:]) (call parameter)",
					Flow:   []string{"flow: {heap} ← &hdr:", "from w.Write(hdr[:]) (call parameter) at codec.go:12:22"}}},
			{Benchmark: "BenchmarkFrame", Function: mod + ".Frame", File: "frame.go", Line: 6,
				BytesShare: 0.9, ObjectsShare: 0.9,
				Escape: &document.Escape{Verdict: "make([]byte, n) does not escape", Cause: "variable-make", Name: "make([]byte, n)"}},
			{Benchmark: "BenchmarkLabels", Function: mod + ".Labels", File: "labels.go", Line: 8, Via: "fmt.Sprintf",
				BytesShare: 0.15, ObjectsShare: 0.3,
				Escape: &document.Escape{Verdict: "id escapes to heap", Cause: "interface", Name: "id",
					Reason: "id escapes to the heap: converted to an interface for fmt.Sprintf"}},
			{Benchmark: "BenchmarkLabels", Function: mod + ".Labels", File: "labels.go", Line: 9,
				BytesShare: 0.05, ObjectsShare: 0.05},
			{Benchmark: "BenchmarkFixture", Function: mod + ".fixture", File: "planted_test.go", Line: 79, InTest: true,
				BytesShare: 0.9, ObjectsShare: 0.5},
			{Benchmark: "BenchmarkFixture", Function: mod + ".Sum", File: "sum.go", Line: 3,
				BytesShare: 0.1, ObjectsShare: 0.5},
		},
	}
}

func find(fs []document.Finding, bench, kind string) *document.Finding {
	for i := range fs {
		if fs[i].Benchmark == bench && fs[i].Kind == kind {
			return &fs[i]
		}
	}
	return nil
}

func TestDeriveFindings(t *testing.T) {
	fs, _ := Derive(planted(), Options{})
	tests := []struct {
		name, bench, kind, severity, file string
		line                              int64
		message, suggestion               []string
	}{
		{"map-heavy", "BenchmarkCount", "cpu", "high", "tiers.go", 14,
			[]string{"map access is 80% of CPU"}, []string{"slice indexed by a small dense int key"}},
		{"hdr moved to heap", "BenchmarkWrite", "escape", "high", "codec.go", 10,
			[]string{"hdr", "w.Write(hdr[:])", "97% of bytes"}, []string{"enclosing struct", "fixed-size array"}},
		{"variable make", "BenchmarkFrame", "escape", "high", "frame.go", 6,
			[]string{"make([]byte, n)", "non-constant size", "90% of bytes"}, []string{"buf = buf[:0]", "sync.Pool"}},
		{"fmt.Sprintf", "BenchmarkLabels", "escape", "medium", "labels.go", 8,
			[]string{"id", "30% of objects"}, []string{"strconv.Append", "instead of fmt"}},
		{"fixture", "BenchmarkFixture", "test-code", "high", "planted_test.go", 79,
			[]string{"fix the benchmark first: 90% of its bytes", "(planted_test.go:79)"}, []string{"b.ResetTimer", "b.Loop"}},
		{"tight", "BenchmarkSum", "tight", "info", "", 0,
			[]string{"nothing to gain here — don't optimize", "3ns/op"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := find(fs, tt.bench, tt.kind)
			if f == nil {
				t.Fatalf("no %s finding for %s in %+v", tt.kind, tt.bench, fs)
			}
			if f.Severity != tt.severity || f.File != tt.file || f.Line != tt.line {
				t.Errorf("got %s at %s:%d, want %s at %s:%d", f.Severity, f.File, f.Line, tt.severity, tt.file, tt.line)
			}
			for _, s := range tt.message {
				if !strings.Contains(f.Message, s) {
					t.Errorf("message %q lacks %q", f.Message, s)
				}
			}
			for _, s := range tt.suggestion {
				if !strings.Contains(f.Suggestion, s) {
					t.Errorf("suggestion %q lacks %q", f.Suggestion, s)
				}
			}
		})
	}
}

func TestDeriveRules(t *testing.T) {
	fs, _ := Derive(planted(), Options{})
	for _, f := range fs {
		switch {
		case f.Benchmark == "BenchmarkSum" && f.Severity != document.SeverityInfo && f.Severity != document.SeverityLow:
			t.Errorf("tight benchmark got %s finding: %+v", f.Severity, f)
		case f.File == "labels.go" && f.Line == 9:
			t.Errorf("site below 10%% reported: %+v", f)
		case f.Benchmark == "BenchmarkFixture" && f.Kind != "test-code" && f.File == "planted_test.go":
			t.Errorf("test site reported beside the test-code finding: %+v", f)
		}
	}
	// Severity order, then expected gain within a severity.
	for i := 1; i < len(fs); i++ {
		if severityRank(fs[i-1].Severity) > severityRank(fs[i].Severity) {
			t.Errorf("finding %d (%s) after %d (%s)", i, fs[i].Severity, i-1, fs[i-1].Severity)
		}
	}
	if fs[0].File != "codec.go" {
		t.Errorf("first finding = %s:%d, want the 97%% codec.go site", fs[0].File, fs[0].Line)
	}
	// Weights move a benchmark up.
	fs, _ = Derive(planted(), Options{Weights: map[string]float64{"BenchmarkCount": 10}})
	if fs[0].Benchmark != "BenchmarkCount" {
		t.Errorf("with weight 10 the first finding is %s, want BenchmarkCount", fs[0].Benchmark)
	}
	// A module site beside a fixture-dominated benchmark is still reported.
	if f := find(fs, "BenchmarkFixture", "alloc"); f == nil || f.File != "sum.go" {
		t.Errorf("BenchmarkFixture sum.go site = %+v", f)
	}
}

func TestDeriveDedup(t *testing.T) {
	doc := planted()
	doc.Allocations = append(doc.Allocations, doc.Allocations[0])
	fs, _ := Derive(doc, Options{})
	n := 0
	for _, f := range fs {
		if f.File == "codec.go" && f.Line == 10 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("codec.go:10 reported %d times, want 1", n)
	}
}

func TestDeriveGate(t *testing.T) {
	_, gate := Derive(planted(), Options{})
	tests := []struct {
		rule, bench, metric, verdict string
		measured, threshold          float64
	}{
		{"reduce allocations first", "BenchmarkGC", "gc+memory", "first", 0.45, 0.20},
		{"contention", "BenchmarkGC", "scheduler", "consider", 0.17, 0.20},
		{"fix the benchmark first", "BenchmarkFixture", "test_alloc_share", "first", 0.9, 0.5},
		{"already tight", "BenchmarkSum", "sec/op", "don't touch", 3e-9, 50e-9},
		{"profile-guided optimization", "", "pgo", "consider", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var got *document.Gate
			for i := range gate {
				if gate[i].Rule == tt.rule && gate[i].Benchmark == tt.bench {
					got = &gate[i]
				}
			}
			if got == nil {
				t.Fatalf("no %q row for %q in %+v", tt.rule, tt.bench, gate)
			}
			if got.Metric != tt.metric || got.Verdict != tt.verdict ||
				math.Abs(got.Measured-tt.measured) > 1e-9 || math.Abs(got.Threshold-tt.threshold) > 1e-12 || got.Message == "" {
				t.Errorf("got %+v, want %+v", got, tt)
			}
		})
	}
	for _, g := range gate {
		if g.Rule == "I/O strategy" {
			t.Errorf("syscall 10%% gave a row: %+v", g)
		}
		if g.Benchmark == "BenchmarkSum" && g.Verdict != document.VerdictDontTouch {
			t.Errorf("tight benchmark got %+v", g)
		}
	}
	if gate[0].Verdict != document.VerdictFirst || gate[len(gate)-1].Verdict != document.VerdictDontTouch {
		t.Errorf("gate not ordered first … don't touch: %+v", gate)
	}
}

func TestDeriveLibraryGate(t *testing.T) {
	doc := &document.Report{
		Benchmarks: []document.Benchmark{bench("BenchmarkZip", 1e-3, 10), bench("BenchmarkApp", 1e-3, 10)},
		Categories: []document.Category{
			{Benchmark: "BenchmarkZip", Category: "compression", Share: 0.6},
			{Benchmark: "BenchmarkZip", Category: "application", Share: 0.4},
			{Benchmark: "BenchmarkApp", Category: "compression", Share: 0.35},
			{Benchmark: "BenchmarkApp", Category: "application", Share: 0.65},
		},
	}
	_, gate := Derive(doc, Options{})
	var rows []string
	for _, g := range gate {
		if g.Rule == "library or format choice" {
			rows = append(rows, g.Benchmark+" "+g.Verdict)
		}
	}
	if len(rows) != 1 || rows[0] != "BenchmarkZip consider" {
		t.Errorf("library rows = %q, want only BenchmarkZip consider", rows)
	}
}

func TestDeriveNil(t *testing.T) {
	if f, g := Derive(nil, Options{}); f != nil || g != nil {
		t.Errorf("Derive(nil) = %v, %v", f, g)
	}
	if f, g := Derive(&document.Report{}, Options{}); len(f) != 0 || len(g) != 0 {
		t.Errorf("Derive(empty) = %v, %v", f, g)
	}
}

func TestScaling(t *testing.T) {
	sizes := []float64{100, 1000, 10000}
	tests := []struct {
		name   string
		time   func(n float64) float64
		growth string
		exp    float64
	}{
		{"BenchmarkLinear", func(n float64) float64 { return 1e-9 * n }, "~n", 1},
		{"BenchmarkQuad", func(n float64) float64 { return 1e-9 * n * n }, "~n²", 2},
		{"BenchmarkConst", func(n float64) float64 { return 5e-9 }, "~1", 0},
		{"BenchmarkNLogN", func(n float64) float64 { return 1e-9 * n * math.Log(n) }, "~n log n", 1.1},
		{"BenchmarkCube", func(n float64) float64 { return 1e-12 * n * n * n }, "~n³", 3},
		{"BenchmarkSqrt", func(n float64) float64 { return 1e-9 * math.Sqrt(n) }, "~√n", 0.5},
	}
	doc := &document.Report{}
	for _, tt := range tests {
		for _, n := range sizes {
			doc.Benchmarks = append(doc.Benchmarks, bench(tt.name+"/n="+strconv.FormatFloat(n, 'f', -1, 64), tt.time(n), 0))
		}
	}
	// Two sizes only: no row.
	doc.Benchmarks = append(doc.Benchmarks, bench("BenchmarkTwo/n=10", 1e-9, 0), bench("BenchmarkTwo/n=20", 2e-9, 0))
	rows := Scaling(doc)
	if len(rows) != len(tests) {
		t.Fatalf("Scaling = %+v, want %d rows", rows, len(tests))
	}
	for i, tt := range tests {
		r := rows[i]
		if r.Benchmark != tt.name || r.Parameter != "n" || r.Growth != tt.growth ||
			math.Abs(r.Exponent-tt.exp) > 0.15 || r.R2 < 0.99 && tt.exp != 0 {
			t.Errorf("row %d = %+v, want %s n %s exponent ≈ %g", i, r, tt.name, tt.growth, tt.exp)
		}
	}
}

// TestFixtureRuleSkipsZeroAllocBenchmarks: a fixture built once before the
// loop of a benchmark at 0 allocs/op is not measured, so it is no finding.
func TestFixtureRuleSkipsZeroAllocBenchmarks(t *testing.T) {
	share := 0.95
	doc := &document.Report{Benchmarks: []document.Benchmark{{
		Package: "example.com/m", Name: "BenchmarkDense", Status: "ok", TestAllocShare: &share,
		Metrics: map[string]*document.Metric{
			"sec/op":    {Median: 5e-6, N: 6},
			"allocs/op": {Median: 0, N: 6},
		},
	}}}
	fs, _ := Derive(doc, Options{})
	for _, f := range fs {
		if f.Kind == "test-code" {
			t.Errorf("test-code finding for a 0 allocs/op benchmark: %+v", f)
		}
	}
}

// TestFixtureRuleLooksAtSubBenchmarks: a benchmark profiled as a whole has
// no metrics of its own; its sub-benchmarks' 0 allocs/op decide.
func TestFixtureRuleLooksAtSubBenchmarks(t *testing.T) {
	share := 0.95
	zero := map[string]*document.Metric{"allocs/op": {Median: 0, N: 6}}
	doc := &document.Report{Benchmarks: []document.Benchmark{
		{Package: "m", Name: "BenchmarkDense/n=10", Status: "ok", Metrics: zero},
		{Package: "m", Name: "BenchmarkDense/n=100", Status: "ok", Metrics: zero},
		{Package: "m", Name: "BenchmarkDense", Status: "ok", TestAllocShare: &share, Metrics: map[string]*document.Metric{}},
	}}
	fs, _ := Derive(doc, Options{})
	for _, f := range fs {
		if f.Kind == "test-code" {
			t.Errorf("test-code finding although every sub-benchmark is at 0 allocs/op: %+v", f)
		}
	}
}
