package cmdbench

import (
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/document"
)

// TestCompareNearZero compares commands whose wall time is all shell spawn
// time: no ratio (the old answer was a ratio of two noise-sized numbers,
// "143.87 ± 454.95 times faster", with an infinite bound), and no
// difference either unless it exceeds the spawn time's noise.
func TestCompareNearZero(t *testing.T) {
	ms := func(xs ...float64) *bench {
		b := &bench{cmd: Command{Name: "true", Line: "true", Shell: true}}
		for _, x := range xs {
			b.runs = append(b.runs, Measurement{Wall: time.Duration(x * 1e6)})
		}
		return b
	}
	spawn := &document.ExecShellSpawn{Shell: "sh", Runs: 50, Wall: document.ExecSummary{Median: 1e-3, Stddev: 0.2e-3}}
	tests := []struct {
		a, b        *bench
		significant bool
		sentence    string
	}{
		{ms(1.00, 1.01, 0.99, 1.3, 0.98), ms(1.0, 1.0, 1.001, 0.999, 1.0), false, `no measurable difference between "true" and "true": "true" takes no measurable time`},
		{ms(1.01, 1.011, 1.012, 1.011, 1.01), ms(1.0, 1.0, 1.001, 0.999, 1.0), false, `no measurable difference`},
		{ms(1.0, 1.0, 1.001, 0.999, 1.0), ms(51, 52, 51, 50, 52), true, `"true" took 50.2 ms less than "true" (95% CI `},
	}
	for i, tt := range tests {
		tt.b.cmd.Name = "true"
		e := &engine{opts: Options{Interleave: true}, spawn: spawn, benches: []*bench{tt.a, tt.b}}
		rep := e.report()
		if len(rep.Comparisons) != 1 {
			t.Fatalf("%d: %d comparisons", i, len(rep.Comparisons))
		}
		c := rep.Comparisons[0]
		if c.Significant() != tt.significant || !strings.Contains(Sentence(c), tt.sentence) {
			t.Errorf("%d: significant %v, %q; want %v, %q", i, c.Significant(), Sentence(c), tt.significant, tt.sentence)
		}
		if c.NoRatio == "" || c.Ratio != 0 || strings.Contains(Sentence(c), "Inf") {
			t.Errorf("%d: ratio %v (%q), want none", i, c.Ratio, c.NoRatio)
		}
	}
	// Well above the spawn time, commands still get a ratio.
	e := &engine{opts: Options{Interleave: true}, spawn: spawn, benches: []*bench{ms(11, 11.2, 10.9, 11, 11.1), ms(31, 31.2, 30.9, 31, 31.1)}}
	if c := e.report().Comparisons[0]; c.NoRatio != "" || c.Ratio < 2.9 || c.Ratio > 3.1 || !c.Significant() {
		t.Errorf("30 ms vs 10 ms: %+v", c)
	}
}
