package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestRunArguments: a program's arguments are shown as a shell would
// need them typed (quoted where they hold spaces or shell syntax), and
// whatever they hold — a pipe, backticks, a newline, HTML — every row of
// the run's Markdown table stays one row of as many cells as the header.
func TestRunArguments(t *testing.T) {
	args := []string{"-sep", "a|b", "two words", "x`y`", "line1\nline2", "<b>bold</b>", "*em*", ""}
	doc := &document.Report{Schema: document.Schema, Module: "example.com/m", Op: document.OpRun,
		Benchmarks: []document.Benchmark{{Name: "run 1", Status: "ok"}, {Name: "run 2", Status: "ok"}},
		Run: &document.Run{Package: "example.com/m", SegmentSeconds: 1, MemProfileRate: 512 * 1024,
			Variants: []document.RunVariant{{Name: "run 1", Args: args, Runs: 1}, {Name: "run 2", Args: []string{"plain"}, Runs: 1}}}}
	var b bytes.Buffer
	if err := Markdown(&b, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	start := strings.Index(md, "## The run")
	if start < 0 {
		t.Fatalf("no run section:\n%s", md)
	}
	var table []string
	for _, l := range strings.Split(md[start:], "\n")[4:] {
		if l == "" {
			break
		}
		table = append(table, l)
	}
	cells := func(row string) int { return strings.Count(strings.ReplaceAll(row, `\|`, ""), "|") }
	for _, row := range table {
		if cells(row) != cells(table[0]) || !strings.HasPrefix(row, "|") {
			t.Errorf("row %q has %d pipes, the header %d:\n%s", row, cells(row), cells(table[0]), strings.Join(table, "\n"))
		}
	}
	shell := `-sep 'a|b' 'two words' 'x` + "`" + `y` + "`" + `' $'line1\nline2' '<b>bold</b>' '*em*' ''`
	if want := "| arguments | " + strings.ReplaceAll(mdText(shell), "|", `\|`) + " | plain |"; !strings.Contains(md, want) {
		t.Errorf("the arguments row is not\n%s\nin\n%s", want, strings.Join(table, "\n"))
	}
	var text bytes.Buffer
	if err := RunText(&text, doc); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), shell) {
		t.Errorf("the terminal's arguments row, want %s:\n%s", shell, text.String())
	}
}

// TestCostInPartialHeap: a finding's allocation cost in a run whose heap
// profile is partial (written without a final collection) is what the
// profile holds and its share of it, never bytes "per run"; with a whole
// profile it is per run and per second of run.
func TestCostInPartialHeap(t *testing.T) {
	const mib = 1 << 20
	f := document.Finding{Costs: []document.Cost{{Benchmark: "run", CPUShare: 0.07, BytesPerOp: 47 * mib, AllocsPerOp: 513406}}}
	for _, tc := range []struct {
		name string
		v    document.RunVariant
		want string
	}{
		{"partial", document.RunVariant{Name: "run", WallSeconds: 2, FinalGC: "skipped", HeapProfileBytes: 235 * mib, AllocBytes: 446 * mib},
			"run 7.0% of CPU, 513,406 allocations and 47.0 MiB in the heap profile (20.0% of the 235.0 MiB it holds)"},
		{"collected", document.RunVariant{Name: "run", WallSeconds: 2, FinalGC: "collected", HeapProfileBytes: 440 * mib, AllocBytes: 446 * mib},
			"run 7.0% of CPU, 513,406 allocations and 47.0 MiB per run (256,703/s and 23.5 MiB/s of run)"},
		{"skipped, nearly whole", document.RunVariant{Name: "run", WallSeconds: 2, FinalGC: "skipped", HeapProfileBytes: 430 * mib, AllocBytes: 446 * mib},
			"run 7.0% of CPU, 513,406 allocations and 47.0 MiB per run (256,703/s and 23.5 MiB/s of run)"},
	} {
		doc := &document.Report{Op: document.OpRun, Run: &document.Run{Variants: []document.RunVariant{tc.v}}}
		if got := costIn(doc, f); got != tc.want {
			t.Errorf("%s: costIn = %q, want %q", tc.name, got, tc.want)
		}
	}
}
