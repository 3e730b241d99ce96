package check

import (
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/profiles"
)

func TestCPUCauses(t *testing.T) {
	// Line 5 became three lines: BASE's line 10 is HEAD's 12.
	ch := &Change{Hunks: map[string][][4]int{"f.go": {{5, 1, 5, 3}}}}
	base := sideProfile{secOp: 100e-9, cpu: &profiles.CPU{Samples: 1000, Lines: []profiles.LineCost{
		{Function: "m.F", File: "f.go", Line: 10, Self: 0.4},
		{Function: "m.F", File: "f.go", Line: 4, Self: 0.1},
		{Function: "m.G", File: "g.go", Line: 3, Self: 0.05},
	}}}
	head := sideProfile{secOp: 150e-9, cpu: &profiles.CPU{Samples: 1000, Lines: []profiles.LineCost{
		{Function: "m.F", File: "f.go", Line: 12, Self: 0.3},              // 45ns, was 40
		{Function: "m.F", File: "f.go", Line: 6, Self: 0.3},               // 45ns, new
		{Function: "m.F", File: "f.go", Line: 4, Self: 1.0 / 15},          // 10ns, as before
		{Function: "m.G", File: "g.go", Line: 3, Self: 0.045},             // +1.75ns: under 5% of the op
		{Function: "m.H", File: "h.go", Line: 9, Self: 0.1, InTest: true}, // the benchmark's own
	}}}
	got := cpuCauses(base, head, ch)
	if len(got) != 1 {
		t.Fatalf("causes = %+v, want F's own code only", got)
	}
	c := got[0]
	if c.File != "f.go" || c.Line != 6 || !strings.HasPrefix(c.Message, "its own code: +50ns per op") || !strings.Contains(c.Message, "the line changed") {
		t.Errorf("cause = %s:%d %q, want f.go:6 its own code: +50ns per op (the line changed)", c.File, c.Line, c.Message)
	}
}

// A growth that the profiles' sample counts cannot tell from chance is
// not a cause: 3 samples against 6.
// A loop's lines share its growth by chance: the cause names the stretch.
func TestCPUCausesRegion(t *testing.T) {
	ch := &Change{Hunks: map[string][][4]int{"f.go": {{167, 1, 167, 1}}}}
	base := sideProfile{secOp: 100e-9, cpu: &profiles.CPU{Samples: 10000, Lines: []profiles.LineCost{
		{Function: "m.F", File: "f.go", Line: 130, Self: 0.1},
		{Function: "m.F", File: "f.go", Line: 176, Self: 0.1},
	}}}
	head := sideProfile{secOp: 200e-9, cpu: &profiles.CPU{Samples: 10000, Lines: []profiles.LineCost{
		{Function: "m.F", File: "f.go", Line: 130, Self: 0.05}, // 10ns: the same
		{Function: "m.F", File: "f.go", Line: 167, Self: 0.05},
		{Function: "m.F", File: "f.go", Line: 169, Self: 0.05},
		{Function: "m.F", File: "f.go", Line: 171, Self: 0.05},
		{Function: "m.F", File: "f.go", Line: 173, Self: 0.05},
		{Function: "m.F", File: "f.go", Line: 176, Self: 0.2},  // the most: +30ns
		{Function: "m.F", File: "f.go", Line: 235, Self: 0.05}, // far from the loop
	}}}
	got := cpuCauses(base, head, ch)
	if len(got) != 1 || got[0].Line != 176 || !strings.Contains(got[0].Message, "most at lines 167–176 (changed: 167)") {
		t.Errorf("causes = %+v, want line 176, most at lines 167–176 (changed: 167)", got)
	}
}

func TestCPUCausesNoise(t *testing.T) {
	base := sideProfile{secOp: 100e-9, cpu: &profiles.CPU{Samples: 30, Lines: []profiles.LineCost{{Function: "m.F", File: "f.go", Line: 1, Self: 0.1}}}}
	head := sideProfile{secOp: 150e-9, cpu: &profiles.CPU{Samples: 30, Lines: []profiles.LineCost{{Function: "m.F", File: "f.go", Line: 1, Self: 0.2}}}}
	if got := cpuCauses(base, head, nil); len(got) != 0 {
		t.Errorf("causes = %+v, want none", got)
	}
	// The same shares from profiles a hundred times longer are a cause.
	base.cpu.Samples, head.cpu.Samples = 3000, 3000
	if got := cpuCauses(base, head, nil); len(got) != 1 {
		t.Errorf("causes = %+v, want F", got)
	}
}

func TestHeadLine(t *testing.T) {
	// @@ -5 +5,3 @@ (line 5 rewritten as three), @@ -20,0 +23,2 @@ (two
	// lines inserted after 20), @@ -30,2 +34,0 @@ (two lines removed).
	ch := &Change{Hunks: map[string][][4]int{"f.go": {{5, 1, 5, 3}, {20, 0, 23, 2}, {30, 2, 34, 0}}}}
	for _, tt := range []struct {
		base, head int
		ok         bool
	}{{4, 4, true}, {5, 0, false}, {6, 8, true}, {20, 22, true}, {21, 25, true}, {30, 0, false}, {31, 0, false}, {32, 34, true}} {
		got, ok := ch.headLine("f.go", tt.base)
		if got != tt.head || ok != tt.ok {
			t.Errorf("headLine(%d) = %d, %v; want %d, %v", tt.base, got, ok, tt.head, tt.ok)
		}
	}
	if !ch.changedInHead("f.go", 7) || ch.changedInHead("f.go", 8) || !ch.changedInHead("f.go", 24) {
		t.Error("changedInHead: lines 5-7 and 23-24 are HEAD's new lines")
	}
}

// Time that grows in code the change did not touch is charged to the
// changed line that reaches it, with the callees named, and ranked by
// their sum; growth no changed line reaches is listed apart, after.
func TestCPUCausesCharged(t *testing.T) {
	ch := &Change{
		Hunks: map[string][][4]int{"set.go": {{930, 2, 930, 3}}},
		Funcs: [2][]FuncSpan{nil, {{Name: "m.(*Set).Scan", File: "set.go", Start: 925, End: 940}}},
	}
	base := sideProfile{secOp: 100e-6, cpu: &profiles.CPU{Samples: 10000, Lines: []profiles.LineCost{
		{Function: "m.(*Set).Scan", File: "set.go", Line: 931, Self: 0.2},
		{Function: "m.nextSet", File: "bits.go", Line: 12, Self: 0.2},
		{Function: "m.test", File: "bits.go", Line: 40, Self: 0.1},
		{Function: "m.count", File: "count.go", Line: 7, Self: 0.1},
	}}}
	head := sideProfile{secOp: 200e-6, cpu: &profiles.CPU{Samples: 10000, Lines: []profiles.LineCost{
		{Function: "m.(*Set).Scan", File: "set.go", Line: 931, Self: 0.15}, // +10µs, changed
		{Function: "m.nextSet", File: "bits.go", Line: 12, Self: 0.3},      // +40µs
		{Function: "m.test", File: "bits.go", Line: 40, Self: 0.2},         // +30µs
		{Function: "m.count", File: "count.go", Line: 7, Self: 0.15},       // +20µs, reached by nothing changed
	}, Reach: []profiles.Reach{
		{Function: "m.nextSet", AtFunction: "m.(*Set).Scan", AtFile: "set.go", AtLine: 931, Self: 0.3},
		{Function: "m.test", AtFunction: "m.(*Set).Scan", AtFile: "set.go", AtLine: 931, Self: 0.2},
		{Function: "m.(*Set).Scan", AtFunction: "m.(*Set).Scan", AtFile: "set.go", AtLine: 931, Self: 0.15},
	}}}
	got := cpuCauses(base, head, ch)
	if len(got) != 3 {
		t.Fatalf("causes = %+v, want the charged line, Scan's own code, count outside", got)
	}
	first := got[0]
	if first.File != "set.go" || first.Line != 931 || first.Function != "m.(*Set).Scan" || first.Callee != "nextSet" || !first.Changed || first.Outside ||
		!strings.Contains(first.Message, "+40µs per op in nextSet, +30µs per op in test") {
		t.Errorf("first cause = %+v, want set.go:931 in Scan (changed), callee nextSet, +40µs per op in nextSet, +30µs per op in test", first)
	}
	if c := got[1]; c.Function != "m.(*Set).Scan" || !c.Changed || c.Callee != "" {
		t.Errorf("second cause = %+v, want Scan's own code, changed", c)
	}
	if c := got[2]; c.Function != "m.count" || c.File != "count.go" || !c.Outside || c.Changed {
		t.Errorf("last cause = %+v, want count outside the diff", c)
	}
}
