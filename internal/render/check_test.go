package render

import (
	"bytes"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// checkDoc is a failed check: one benchmark regressed in two units with
// the same causes, a budget broke, a budget matched nothing, a row was
// too noisy and another improved.
func checkDoc() *document.Check {
	causes := []document.Cause{
		{Kind: "alloc", File: "codec.go", Line: 8, Function: "example.com/ck.WriteFrame", Message: "new allocation: +4 B/op of tiny objects (the profile counts their 16-byte blocks: +0.25/op); the compiler now says: moved to heap: hdr (new)",
			Flow: []string{"flow: {heap} ← &hdr:", "  from hdr (address-of) at codec.go:10:26", "  from hdr[:] (slice) at codec.go:10:26", "  from w.Write(hdr[:]) (call parameter) at codec.go:10:22"}, Changed: true},
		{Kind: "cpu", File: "codec.go", Line: 8, Function: "example.com/ck.WriteFrame", Message: "runtime.newobject: +8.01ns per op", Changed: true},
		{Kind: "cpu", File: "codec.go", Line: 31, Function: "example.com/ck.WriteFrame", Callee: "checksum", Message: "now reaches checksum, unchanged, which grew: +6.2ns per op in checksum", Changed: true},
		{Kind: "cpu", File: "pool.go", Line: 12, Function: "example.com/ck.(*pool).get", Message: "its own code: +1.1ns per op", Outside: true},
	}
	high, low := 0.12, -0.04
	return &document.Check{Schema: document.CheckSchema, Verdict: document.CheckFail, Base: "main 1ae5dc26f40b", Head: "work tree",
		Regressions: []document.Regression{
			// Listed after sec/op, throughput not at all: it restates the time.
			{Package: "example.com/ck", Benchmark: "BenchmarkWriteFrame", Unit: "B/op", Delta: 4, Old: 0, New: 4, Threshold: 0.05, Causes: causes[:1]},
			{Package: "example.com/ck", Benchmark: "BenchmarkWriteFrame", Unit: "B/s", Delta: -0.62, Old: 12.4e9, New: 4.7e9, Threshold: 0.05, Causes: causes},
			{Package: "example.com/ck", Benchmark: "BenchmarkWriteFrame", Unit: "sec/op", Delta: 1.621, Old: 5.169e-9, New: 13.55e-9, Threshold: 0.05, Causes: causes},
			{Package: "example.com/ck", Benchmark: "BenchmarkWriteFrame", Unit: "allocs/op", Delta: 1, Old: 0, New: 1, Threshold: 0.05, Causes: causes[:1]},
			{Package: "example.com/ck", Benchmark: "BenchmarkParse", Unit: "sec/op", Delta: 0.08, Old: 1.2e-6, New: 1.296e-6, Threshold: 0.05, Causes: []document.Cause{}},
		},
		Layout: []document.Regression{{Package: "example.com/ck", Benchmark: "BenchmarkOther", Unit: "sec/op", Delta: 0.216, Old: 94.29e-9, New: 114.7e-9, Threshold: 0.05,
			Causes: []document.Cause{{Kind: "layout", Message: "the benchmark executes no function the change touched"}, {Kind: "cpu", File: "codec.go", Line: 20, Function: "example.com/ck.Sum", Message: "its own code: +28.3ns per op"}}}},
		Improvements: []document.Change{{Benchmark: "BenchmarkSum", Unit: "sec/op", Delta: -0.21}, {Benchmark: "BenchmarkSum", Unit: "B/s", Delta: 0.27},
			{Benchmark: "BenchmarkMoved", Unit: "sec/op", Delta: -0.12, Layout: true}},
		Inconclusive: []document.Change{{Benchmark: "BenchmarkNoisy", Unit: "sec/op", Delta: 0.01, Low: &low, High: &high}},
		Budgets: []document.BudgetCheck{
			{Budget: "BenchmarkWriteFrame allocs/op == 0", Benchmark: "BenchmarkWriteFrame", Unit: "allocs/op", Op: "==", Limit: 0, Measured: 1},
			{Budget: "BenchmarkSum sec/op <= +5%", Benchmark: "BenchmarkSum", Unit: "sec/op", Op: "<=", Limit: 1.05e-6, Measured: 0.79e-6, OK: true},
			{Budget: "BenchmarkGone allocs/op == 0", Unit: "allocs/op", Op: "=="},
		},
		Unchanged: 4, Rounds: 12, WallSeconds: 3.2,
	}
}

func TestCheckText(t *testing.T) {
	var buf bytes.Buffer
	if err := CheckText(&buf, checkDoc()); err != nil {
		t.Fatal(err)
	}
	golden(t, "check.fail.text", buf.Bytes())
}

func TestCheckMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := CheckMarkdown(&buf, checkDoc(), nil, 0.05); err != nil {
		t.Fatal(err)
	}
	golden(t, "check.fail.md", buf.Bytes())
}

// The collapsed table says what the check decided for each row, in the
// words of the text and JSON, not the engine's: a row the engine could
// not settle but that cannot hide a regression is "no significant
// change", and a row whose p-value the correction overruled says so.
func TestCheckMarkdownOneVocabulary(t *testing.T) {
	cell := func(median float64) *stats.Cell {
		return &stats.Cell{Summary: stats.Summary{Median: median, N: 10}}
	}
	cmp := func(median, delta, p, q float64, significant bool, verdict string) *stats.Cell {
		c := cell(median)
		c.Compared, c.Delta, c.P, c.Q, c.Significant, c.Verdict = true, delta, p, q, significant, verdict
		c.MDE, c.Low, c.High = math.NaN(), math.NaN(), math.NaN()
		return c
	}
	tab := &stats.Table{Config: []string{"pkg: example.com/ck"}, Unit: "sec/op", Better: -1, Columns: []string{"base", "head"}, Rows: []*stats.Row{
		{Benchmark: "Parse", FullName: "Parse", Cells: []*stats.Cell{cell(1e-6), cmp(1.3e-6, 0.3, 0.001, 0.002, true, "slower")}},
		{Benchmark: "Sum", FullName: "Sum", Cells: []*stats.Cell{cell(1e-6), cmp(0.8e-6, -0.2, 0.001, 0.002, true, "faster")}},
		{Benchmark: "Quiet", FullName: "Quiet", Cells: []*stats.Cell{cell(1e-6), cmp(1.01e-6, 0.01, 0.2, 0.4, false, stats.Inconclusive)}},
		{Benchmark: "Edge", FullName: "Edge", Cells: []*stats.Cell{cell(1e-6), cmp(1.02e-6, 0.02, 0.002, 0.09, false, stats.NoChange)}},
		// Significant, but under the check's threshold.
		{Benchmark: "Small", FullName: "Small", Cells: []*stats.Cell{cell(1e-6), cmp(1.03e-6, 0.03, 0.001, 0.004, true, "slower")}},
	}}
	c := &document.Check{Schema: document.CheckSchema, Verdict: document.CheckFail, Base: "base", Head: "head",
		Regressions:  []document.Regression{{Package: "example.com/ck", Benchmark: "BenchmarkParse", Unit: "sec/op", Delta: 0.3, Old: 1e-6, New: 1.3e-6, Threshold: 0.05, Causes: []document.Cause{}}},
		Improvements: []document.Change{{Package: "example.com/ck", Benchmark: "BenchmarkSum", Unit: "sec/op", Delta: -0.2}},
		Budgets:      []document.BudgetCheck{}, Unchanged: 2, Rounds: 10}
	var buf bytes.Buffer
	if err := CheckMarkdown(&buf, c, []*stats.Table{tab}, 0.05); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`(?m)^Parse .* regression$`,
		`(?m)^Sum .* improvement$`,
		`(?m)^Quiet .* no significant change$`,
		`(?m)^Edge .* no significant change: p=0.002 alone, not once corrected for 5 comparisons \(q=0.090\)$`,
		`(?m)^Small .* within the threshold$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("Markdown lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "inconclusive") || strings.Contains(out, "slower") || strings.Contains(out, "faster") {
		t.Errorf("Markdown uses the engine's words:\n%s", out)
	}
	// The tables passed in are the run's: left as they were.
	if v := tab.Rows[2].Cells[1].Verdict; v != stats.Inconclusive {
		t.Errorf("the caller's table was changed: %q", v)
	}
}

// TestCheckTextTime checks that the verdict line says how long the
// rounds took and, when check profiled its changes after them, how long
// that took.
func TestCheckTextTime(t *testing.T) {
	tests := []struct {
		name    string
		explain float64
		want    string
	}{
		{name: "nothing profiled", want: "PASS: work tree against main (12 rounds in 3.2s)\n"},
		{name: "changes profiled", explain: 1.54, want: "PASS: work tree against main (12 rounds in 3.2s, then 1.5s profiling the changes)\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &document.Check{Schema: document.CheckSchema, Verdict: document.CheckPass, Base: "main", Head: "work tree",
				Rounds: 12, WallSeconds: 3.2, ExplainSeconds: tt.explain}
			var buf bytes.Buffer
			if err := CheckText(&buf, c); err != nil {
				t.Fatal(err)
			}
			if first, _, _ := strings.Cut(buf.String(), "\n"); first+"\n" != tt.want {
				t.Errorf("first line %q, want %q", first+"\n", tt.want)
			}
		})
	}
}
