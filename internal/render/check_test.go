package render

import (
	"bytes"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
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
		Improvements: []document.Change{{Benchmark: "BenchmarkSum", Unit: "sec/op", Delta: -0.21}, {Benchmark: "BenchmarkSum", Unit: "B/s", Delta: 0.27}},
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
