package check

import (
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
)

func TestCauses(t *testing.T) {
	r := &document.Regression{Benchmark: "BenchmarkWrite", Unit: "sec/op", Old: 100e-9, New: 150e-9}
	base := sideProfile{secOp: 100e-9, n: 1000,
		cpu: &profiles.CPU{Samples: 1000,
			Functions: []profiles.Function{{Name: "m.Write", File: "codec.go", Module: true}},
			Lines: []profiles.LineCost{
				{Function: "m.Write", File: "codec.go", Line: 10, Callee: "runtime.memmove", Self: 0.5},
				{Function: "m.Write", File: "codec.go", Line: 12, Self: 0.5},
			}},
		heap: &profiles.Heap{Sites: []profiles.Site{
			{Function: "m.Write", File: "codec.go", Line: 11, Module: true, Objects: 1000, Bytes: 64000},
		}},
	}
	head := sideProfile{secOp: 150e-9, n: 1000,
		cpu: &profiles.CPU{Samples: 1000,
			Functions: []profiles.Function{{Name: "m.Write", File: "codec.go", Module: true}, {Name: "m.Clamp", File: "codec.go", Module: true}},
			Lines: []profiles.LineCost{
				// Same function and callee, moved two lines: +25ns.
				{Function: "m.Write", File: "codec.go", Line: 12, Callee: "runtime.memmove", Self: 0.5},
				// The line's own code: 50ns both sides, not a cause.
				{Function: "m.Write", File: "codec.go", Line: 14, Self: 1.0 / 3},
				// A new call: +25ns.
				{Function: "m.Write", File: "codec.go", Line: 8, Callee: "runtime.newobject", Self: 1.0 / 6},
			}},
		heap: &profiles.Heap{Sites: []profiles.Site{
			// BASE's line 11, moved, now twice per op.
			{Function: "m.Write", File: "codec.go", Line: 13, Module: true, Objects: 2000, Bytes: 128000},
			// New: 1 alloc/op.
			{Function: "m.Write", File: "codec.go", Line: 8, Module: true, Objects: 1000, Bytes: 4000},
			// The benchmark's own allocation is not a cause.
			{Function: "m.BenchmarkWrite", File: "codec_test.go", Line: 5, Module: true, InTest: true, Objects: 5000, Bytes: 5000},
		}},
	}
	escapes := []compilerVerdict{
		{document.Cause{Kind: "escape", File: "codec.go", Line: 7, Message: "moved to heap: hdr (new)", Flow: []string{"hdr escapes"}}, true},
		// A new escape in a file the benchmark does not run.
		{Cause: document.Cause{Kind: "escape", File: "other.go", Line: 3, Message: "moved to heap: x (new)"}},
		// A new escape on a path that does not allocate: a panic's message.
		{Cause: document.Cause{Kind: "escape", File: "codec.go", Line: 30, Message: "lo escapes to heap (new)"}},
		// "does not escape", yet line 13 allocates: a size not constant.
		{Cause: document.Cause{Kind: "stackmake", File: "codec.go", Line: 13, Message: "make([]byte, n) does not escape"}},
		// Alone, it explains nothing.
		{Cause: document.Cause{Kind: "stackmake", File: "codec.go", Line: 50, Message: "make([]int, k) does not escape"}},
		// A function the benchmark runs, no longer inlined.
		{Cause: document.Cause{Kind: "inline", File: "codec.go", Line: 3, Function: "Clamp", Message: "Clamp is no longer inlined: function too complex: cost 88 exceeds budget 80"}},
		// One in a file it runs, a function it does not.
		{Cause: document.Cause{Kind: "inline", File: "codec.go", Line: 40, Function: "Min", Message: "Min is no longer inlined: function too complex: cost 81 exceeds budget 80"}},
		// One in a file it does not run.
		{Cause: document.Cause{Kind: "inline", File: "other.go", Line: 3, Function: "Max", Message: "Max is no longer inlined: function too complex: cost 81 exceeds budget 80"}},
	}
	got := causes(r, &[2]sideProfile{base, head}, escapes, true, nil)
	var lines []string
	for _, c := range got {
		lines = append(lines, c.Kind+" "+c.File+":"+strconv.FormatInt(c.Line, 10)+" "+c.Message)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"alloc codec.go:8 new allocation: +1 allocs/op, +4 B/op; the compiler now says: moved to heap: hdr (new)",
		"cpu codec.go:8 runtime.newobject: +25ns per op",
		"cpu codec.go:12 runtime.memmove: +25ns per op",
		"alloc codec.go:13 allocates more: +1 allocs/op, +64 B/op; the compiler says make([]byte, n) does not escape, yet it is on the heap: its size is not a constant",
		"inline codec.go:3 Clamp is no longer inlined: function too complex: cost 88 exceeds budget 80",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("causes lack %q:\n%s", want, text)
		}
	}
	for _, bad := range []string{"other.go", "codec_test.go", "codec.go:14", "codec.go:30", "codec.go:40", "codec.go:50"} {
		if strings.Contains(text, bad) {
			t.Errorf("causes name %s, which did not change or the benchmark does not run:\n%s", bad, text)
		}
	}
	if len(got) != 5 {
		t.Errorf("%d causes, want 5:\n%s", len(got), text)
	}

	// When the A/B run's counters say the benchmark allocates as before,
	// sites that grew in one heap profile are run-to-run noise (a pool
	// warming up): no alloc cause, and no escape without its allocation.
	for _, c := range causes(r, &[2]sideProfile{base, head}, escapes, false, nil) {
		if c.Kind == "alloc" || c.Kind == "escape" {
			t.Errorf("counters unchanged, yet a cause %s %s:%d %s", c.Kind, c.File, c.Line, c.Message)
		}
	}
}

// Without profiles of HEAD a new escape in a changed file stays listed:
// nothing says the benchmark does not run it.
func TestCausesNoProfiles(t *testing.T) {
	r := &document.Regression{Benchmark: "BenchmarkWrite", Unit: "allocs/op", Old: 0, New: 1}
	e := []compilerVerdict{{document.Cause{Kind: "escape", File: "other.go", Line: 3, Message: "moved to heap: x (new)"}, true}}
	got := causes(r, &[2]sideProfile{{}, {failure: "panic"}}, e, true, nil)
	if len(got) != 1 || got[0].File != "other.go" {
		t.Errorf("causes = %+v, want the escape", got)
	}
}

func TestTiny(t *testing.T) {
	for _, tt := range []struct {
		s     profiles.Site
		perOp float64
		want  bool
	}{
		{profiles.Site{Objects: 250, Bytes: 4000}, 0.25, true},   // a 4-byte object per op, four to a block
		{profiles.Site{Objects: 1000, Bytes: 16000}, 1, false},   // a 16-byte object per op
		{profiles.Site{Objects: 500, Bytes: 32000}, 0.5, false},  // 64-byte objects every other op
		{profiles.Site{Objects: 1500, Bytes: 24000}, -1.5, true}, // fewer tiny blocks
	} {
		if got := tiny(tt.s, tt.perOp); got != tt.want {
			t.Errorf("tiny(%+v, %v) = %v, want %v", tt.s, tt.perOp, got, tt.want)
		}
	}
}

func TestAllocsMoved(t *testing.T) {
	counted := map[RowKey]row{
		rowKey("m", "BenchmarkSame", "allocs/op"): {old: 17, new: 17},
		rowKey("m", "BenchmarkSame", "B/op"):      {old: 4096, new: 4100},
		rowKey("m", "BenchmarkMore", "allocs/op"): {old: 0, new: 1},
		rowKey("m", "BenchmarkMore", "B/op"):      {old: 0, new: 4},
		rowKey("m", "BenchmarkFat", "B/op"):       {old: 100, new: 164},
	}
	for name, want := range map[string]bool{"BenchmarkSame": false, "BenchmarkMore": true, "BenchmarkFat": true, "BenchmarkUncounted": true} {
		if got := allocsMoved(counted, "m", name); got != want {
			t.Errorf("allocsMoved(%s) = %v, want %v", name, got, want)
		}
	}
}

// A function pushed over the inliner's budget by a cold panic: what it
// allocates no longer stays on its callers' stacks. The new allocation
// is joined to the lost inlining, not to the panic path's new escapes
// two lines above it.
func TestCausesLostInlining(t *testing.T) {
	r := &document.Regression{Benchmark: "BenchmarkSpan", Unit: "sec/op", Old: 300e-9, New: 17e-6}
	base := sideProfile{secOp: 300e-9, n: 1000, heap: &profiles.Heap{}}
	head := sideProfile{secOp: 17e-6, n: 1000,
		cpu: &profiles.CPU{Samples: 1000, Functions: []profiles.Function{{Name: "m.NewSpan", File: "span.go", Module: true}}},
		heap: &profiles.Heap{Sites: []profiles.Site{
			{Function: "m.NewSpan", File: "span.go", Line: 19, Module: true, Objects: 1024000, Bytes: 16384000},
		}},
	}
	verdicts := []compilerVerdict{
		{Cause: document.Cause{Kind: "escape", File: "span.go", Line: 17, Message: "hi - lo escapes to heap (new)"}},
		{Cause: document.Cause{Kind: "inline", File: "span.go", Line: 12, Function: "NewSpan", Message: "NewSpan is no longer inlined: function too complex: cost 155 exceeds budget 80"}},
	}
	var lines []string
	for _, c := range causes(r, &[2]sideProfile{base, head}, verdicts, true, nil) {
		lines = append(lines, c.Kind+" "+c.File+":"+strconv.FormatInt(c.Line, 10)+" "+c.Message)
	}
	text := strings.Join(lines, "\n")
	for _, want := range []string{
		"alloc span.go:19 new allocation: +1024 allocs/op, +16384 B/op; NewSpan is no longer inlined (span.go:12), so what it allocates no longer stays on its callers' stacks",
		"inline span.go:12 NewSpan is no longer inlined",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("causes lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "hi - lo") {
		t.Errorf("the panic path's escape is joined to the allocation two lines below it:\n%s", text)
	}
}

// The heap runs' iteration count follows the slower side and the
// allocations it would record, not BASE's speed alone.
func TestHeapN(t *testing.T) {
	for _, tt := range []struct {
		secOp  [2]float64
		allocs float64
		want   int
	}{
		{[2]float64{}, 0, 0},                       // unknown: the first side's CPU run decides
		{[2]float64{1e-6, 1e-6}, 0, 50_000},        // 50 ms of work
		{[2]float64{300e-9, 17e-6}, 0, 2941},       // the slower side's 50 ms
		{[2]float64{300e-9, 17e-6}, 1024, 488},     // at most 500k allocations recorded
		{[2]float64{1e-9, 1e-9}, 0, 200_000},       // capped
		{[2]float64{1, 2}, 0, 100},                 // at least 100
		{[2]float64{300e-9, 300e-9}, 100_000, 100}, // at least 100, whatever it allocates
	} {
		if got := heapN(tt.secOp, tt.allocs); got != tt.want {
			t.Errorf("heapN(%v, %v) = %d, want %d", tt.secOp, tt.allocs, got, tt.want)
		}
	}
}

// Every cause says whether it is in the change; an allocation in code the
// change did not touch and no changed line reaches comes after the causes
// in the change, and one a changed line reaches is charged to that line.
func TestCausesInTheDiff(t *testing.T) {
	ch := &Change{
		Files: []string{"codec.go"},
		Hunks: map[string][][4]int{"codec.go": {{8, 1, 8, 1}}},
		Funcs: [2][]FuncSpan{nil, {{Name: "m.Write", File: "codec.go", Start: 5, End: 20}}},
	}
	r := &document.Regression{Benchmark: "BenchmarkWrite", Unit: "allocs/op", Old: 0, New: 2}
	base := sideProfile{n: 1000, heap: &profiles.Heap{}}
	head := sideProfile{n: 1000,
		cpu: &profiles.CPU{Reach: []profiles.Reach{
			{Function: "m.grow", Callee: "runtime.growslice", AtFunction: "m.Write", AtFile: "codec.go", AtLine: 8, Self: 0.1},
		}},
		heap: &profiles.Heap{Sites: []profiles.Site{
			// Unchanged and reached by nothing changed: more per op.
			{Function: "m.pool", File: "pool.go", Line: 30, Module: true, Objects: 3000, Bytes: 96000},
			// In the changed function.
			{Function: "m.Write", File: "codec.go", Line: 8, Module: true, Objects: 1000, Bytes: 4000},
			// Unchanged, reached from the changed line 8.
			{Function: "m.grow", File: "buf.go", Line: 4, Module: true, Objects: 1000, Bytes: 8000},
		}},
	}
	verdicts := []compilerVerdict{
		{document.Cause{Kind: "escape", File: "codec.go", Line: 8, Message: "moved to heap: hdr (new)"}, true},
	}
	got := causes(r, &[2]sideProfile{base, head}, verdicts, true, ch)
	if len(got) != 3 {
		t.Fatalf("causes = %+v, want three", got)
	}
	if c := got[0]; c.File != "codec.go" || c.Line != 8 || c.Function != "m.Write" || !c.Changed || c.Outside {
		t.Errorf("first = %+v, want codec.go:8 in m.Write, changed", c)
	}
	if c := got[1]; c.File != "codec.go" || c.Line != 8 || c.Function != "m.Write" || c.Callee != "grow" || !c.Changed ||
		!strings.Contains(c.Message, "grow") || !strings.Contains(c.Message, "buf.go:4") {
		t.Errorf("second = %+v, want charged to codec.go:8, callee grow at buf.go:4", c)
	}
	if c := got[2]; c.File != "pool.go" || c.Function != "m.pool" || !c.Outside || c.Changed {
		t.Errorf("last = %+v, want pool.go outside the diff", c)
	}
}
