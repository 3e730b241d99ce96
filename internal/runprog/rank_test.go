package runprog

import (
	"fmt"
	"slices"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestAllocFirst: a run whose collector and allocator take more than
// the gate's share keeps places on the first screen for the allocation
// sites that allocate the most bytes, which rank by their CPU below the
// run's phases; a run that allocates little, and sites already on the
// first screen, keep the CPU ranking.
func TestAllocFirst(t *testing.T) {
	cpu := func(n int) document.Finding {
		return document.Finding{Kind: document.KindCPU, Section: document.SectionFix, Benchmark: "run", File: "cpu.go", Line: int64(n), Message: fmt.Sprintf("c%d", n)}
	}
	alloc := func(name string, bytes float64) document.Finding {
		return document.Finding{Kind: document.KindAlloc, Rule: document.RuleAllocSite, Section: document.SectionFix, Benchmark: "run", File: "alloc.go", Message: name,
			Costs: []document.Cost{{Benchmark: "run", BytesPerOp: bytes}}}
	}
	leave := document.Finding{Kind: document.KindCPU, Section: document.SectionLeaveAlone, Benchmark: "run", Message: "leave"}
	// Nine CPU causes, then small sites by CPU ahead of large ones.
	ranked := []document.Finding{cpu(1), cpu(2), cpu(3), cpu(4), cpu(5), cpu(6), alloc("small1", 10e6), cpu(7), cpu(8), cpu(9),
		alloc("small2", 8e6), alloc("big1", 60e6), cpu(10), alloc("big2", 50e6), alloc("big3", 40e6), leave}
	for _, tc := range []struct {
		name     string
		gcMemory float64
		in       []document.Finding
		want     []string
		// held is what a partial heap profile holds (0: the whole run).
		held float64
	}{
		{"heavy", 0.50, ranked,
			[]string{"c1", "c2", "c3", "c4", "c5", "c6", "small1", "big1", "big2", "big3", "c7", "c8", "c9", "small2", "c10", "leave"}, 0},
		{"light", 0.10, ranked,
			[]string{"c1", "c2", "c3", "c4", "c5", "c6", "small1", "c7", "c8", "c9", "small2", "big1", "c10", "big2", "big3", "leave"}, 0},
		{"a site of few bytes", 0.50,
			[]document.Finding{cpu(1), cpu(2), cpu(3), cpu(4), cpu(5), cpu(6), cpu(7), cpu(8), cpu(9), cpu(10), alloc("big1", 60e6), alloc("tiny", 1e6)},
			[]string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "big1", "c10", "tiny"}, 0},
		{"on the first screen already", 0.50,
			[]document.Finding{alloc("big1", 60e6), cpu(1), alloc("big2", 50e6), cpu(2), cpu(3), cpu(4), cpu(5), cpu(6), cpu(7), alloc("big3", 40e6), cpu(8)},
			[]string{"big1", "c1", "big2", "c2", "c3", "c4", "c5", "c6", "c7", "big3", "c8"}, 0},
		{"one site below", 0.50,
			[]document.Finding{alloc("big1", 60e6), cpu(1), cpu(2), cpu(3), cpu(4), cpu(5), cpu(6), cpu(7), cpu(8), cpu(9), cpu(10), alloc("big2", 50e6)},
			[]string{"big1", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "big2", "c9", "c10"}, 0},
		// A heap profile written without a final collection holds 80 MB
		// of the 200 MB allocated: a site's bytes are what it holds, and
		// 8 MB of them is 10% of that, though 4% of the run's.
		{"a partial heap profile", 0.50,
			[]document.Finding{cpu(1), cpu(2), cpu(3), cpu(4), cpu(5), cpu(6), cpu(7), cpu(8), cpu(9), cpu(10), alloc("held1", 20e6), alloc("held2", 8e6), alloc("tiny", 3e6)},
			[]string{"c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "held1", "held2", "c9", "c10", "tiny"}, 80e6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := &document.Report{
				Findings:   slices.Clone(tc.in),
				Benchmarks: []document.Benchmark{{Name: "run", Metrics: map[string]*document.Metric{"B/op": {Median: 200e6}}}},
				Categories: []document.CategoryShare{
					{Benchmark: "run", Category: "gc", Share: tc.gcMemory / 2},
					{Benchmark: "run", Category: "memory", Share: tc.gcMemory / 2},
				},
			}
			if tc.held > 0 {
				doc.Op = document.OpRun
				doc.Run = &document.Run{Variants: []document.RunVariant{{Name: "run", FinalGC: "skipped", AllocBytes: 200e6, HeapProfileBytes: int64(tc.held)}}}
			}
			allocFirst(doc)
			var got []string
			for _, f := range doc.Findings {
				got = append(got, f.Message)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("order:\n got %v\nwant %v", got, tc.want)
			}
		})
	}
}
