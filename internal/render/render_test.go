package render

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
)

// reportFixture is a realistic report document: the planted benchmarks'
// profile analysis (testdata/profile.planted.json, the golden file of
// TestProfileJSON) plus the environment, metrics, escape verdicts,
// findings, gate, scaling and commands a full perfloop report adds.
func reportFixture(t *testing.T) *document.Report {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "profile.planted.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := new(document.Report)
	if err := json.Unmarshal(data, doc); err != nil {
		t.Fatal(err)
	}
	doc.GoVersion, doc.GOOS, doc.GOARCH = "go1.26.0", "linux", "amd64"
	doc.CPU = "AMD EPYC 7B13"
	doc.Commit = "3f2c1a9"
	doc.Date = "2026-11-22T00:00:00Z"
	doc.Count, doc.Benchtime, doc.GOMAXPROCS = 10, "1s", 2

	m := func(median, low, high float64) *document.Metric {
		return &document.Metric{Median: median, Low: &low, High: &high, N: 10}
	}
	exact := func(v float64) *document.Metric { return m(v, v, v) }
	metrics := map[string]map[string]*document.Metric{
		"BenchmarkCount":  {"sec/op": m(48.2e-9, 47.9e-9, 49.1e-9), "B/op": exact(0), "allocs/op": exact(0), "hits/op": m(0.5, 0.5, 0.5)},
		"BenchmarkFrame":  {"sec/op": m(312e-9, 301e-9, 330e-9), "B/op": exact(896), "allocs/op": exact(1), "B/s": m(2.46e9, 2.33e9, 2.55e9)},
		"BenchmarkLabels": {"sec/op": m(5.81e-6, 5.77e-6, 5.95e-6), "B/op": exact(2432), "allocs/op": exact(164)},
		"BenchmarkSum":    {"sec/op": m(1.02e-3, 0.99e-3, 1.07e-3), "B/op": exact(81920), "allocs/op": exact(1)},
	}
	for i := range doc.Benchmarks {
		if ms, ok := metrics[doc.Benchmarks[i].Name]; ok {
			doc.Benchmarks[i].Metrics = ms
		}
	}
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		switch a.File + ":" + itoa(a.Line) {
		case "frame.go:6":
			a.Escape = &document.Escape{Verdict: "make([]byte, n) escapes to heap", Flow: []string{
				"flow: ~r0 ← &{storage for make([]byte, n)}:",
				"  from make([]byte, n) (non-constant size) at frame.go:6:13",
				"  from buf := make([]byte, n) (assign) at frame.go:6:6",
				"  from return buf (return) at frame.go:8:2",
			}}
		case "label.go:9":
			a.Escape = &document.Escape{Verdict: "1000 + i escapes to heap", Flow: []string{
				"flow: {storage for ... argument} ← &{storage for 1000 + i}:",
				"  from 1000 + i (spill) at label.go:9:35",
				"  from ... argument (slice-literal-element) at label.go:9:34",
			}}
		case "index.go:16":
			a.Escape = &document.Escape{Verdict: "make(map[string]int) escapes to heap"}
		}
	}
	doc.Findings = []document.Finding{
		{Kind: "alloc", Severity: document.SeverityHigh, Section: document.SectionFix, Benchmark: "BenchmarkFrame",
			Benchmarks: []string{"BenchmarkFrame"}, Function: "example.com/planted.Frame", File: "frame.go", Line: 6,
			Message:    "make([]byte, n) has a size known only at run time, so it is allocated on the heap",
			Suggestion: "let the caller pass the buffer (Frame(dst []byte, n int)) or reuse one through a sync.Pool",
			Costs:      []document.Cost{{Benchmark: "BenchmarkFrame", CPUShare: 0.52, AllocsPerOp: 1, BytesPerOp: 4096}},
			Impact:     0.52, Gain: "−1 allocs/op and −4 KiB/op, up to 52% of its time in BenchmarkFrame",
			Evidence: []string{"heap profile, per op with setup subtracted: frame.go:6 allocates 1 allocs/op, 4 KiB/op", "compiler (-gcflags=-m=2) at frame.go:6: make([]byte, n) escapes to heap"}},
		{Kind: "alloc", Severity: document.SeverityMedium, Section: document.SectionFix, Benchmark: "BenchmarkLabels",
			Function: "example.com/planted.Labels", File: "label.go", Line: 9,
			Related:    []document.Location{{File: "label.go", Line: 10, Note: "the string"}},
			Message:    "fmt.Sprintf boxes i and allocates the string, 164 times per op",
			Suggestion: "append with strconv.AppendInt into a reused []byte",
			Costs:      []document.Cost{{Benchmark: "BenchmarkLabels", CPUShare: 0.12, AllocsPerOp: 164, BytesPerOp: 2624}},
			Impact:     0.12},
		{Kind: "fixture", Severity: document.SeverityHigh, Section: document.SectionBenchmark, Benchmark: "BenchmarkSum",
			Function: "example.com/planted.fixture", File: "planted_test.go", Line: 56,
			Message:    "the benchmark's own code at planted_test.go:56 allocates 8 KiB/op (99% of the bytes per op): its numbers include it",
			Suggestion: "build the fixture before b.ResetTimer()"},
		{Kind: "leave-alone", Severity: document.SeverityInfo, Section: document.SectionLeaveAlone, Benchmark: "BenchmarkCount",
			Message: "BenchmarkCount: 0 allocs/op and 48ns/op: no allocation or library call to remove"},
	}
	doc.Gate = []document.Gate{
		{Rule: "gc-share", Benchmark: "BenchmarkFrame", Metric: "gc", Unit: "share", Measured: 0.524, Threshold: 0.25,
			Verdict: document.VerdictFirst, Message: "GC takes half the CPU: remove the per-call allocation in frame.go:6 first"},
		{Rule: "test-alloc-share", Benchmark: "BenchmarkSum", Metric: "test_alloc_share", Unit: "share", Measured: 0.9945, Threshold: 0.5,
			Verdict: document.VerdictFirst, Message: "the benchmark measures its own fixture: fix the benchmark before the code"},
		{Rule: "allocs-per-op", Benchmark: "BenchmarkLabels", Metric: "allocs/op", Unit: "allocs/op", Measured: 164, Threshold: 10,
			Verdict: document.VerdictConsider, Message: "164 allocs/op from fmt.Sprintf in label.go:9"},
		{Rule: "zero-alloc", Benchmark: "BenchmarkCount", Metric: "allocs/op", Unit: "allocs/op", Measured: 0, Threshold: 0,
			Verdict: document.VerdictDontTouch, Message: "already allocation-free at 48 ns/op: map access is the work itself"},
	}
	doc.Scaling = []document.Scaling{
		{Benchmark: "BenchmarkLabels", Parameter: "n", Growth: "~n", Exponent: 1.02, R2: 0.998},
		{Benchmark: "BenchmarkSum", Parameter: "size", Growth: "~n log n", Exponent: 1.14, R2: 0.991},
	}
	doc.Commands = []document.Command{
		{What: "benchmarks (the summary table)", Command: "go test -run '^$' -bench . -benchmem -count 10 example.com/planted > new.txt && benchstat new.txt"},
		{What: "CPU and heap profile of BenchmarkFrame", Command: "go test -run '^$' -bench '^BenchmarkFrame$' -cpuprofile cpu.pprof -memprofile mem.pprof example.com/planted"},
		{What: "hotspots", Command: "go tool pprof -top cpu.pprof"},
		{What: "escape analysis", Command: "go build -gcflags=-m=2 example.com/planted"},
	}
	return doc
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestMarkdown(t *testing.T) {
	var buf bytes.Buffer
	if err := Markdown(&buf, reportFixture(t), Options{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.planted.md", buf.Bytes())
	md := buf.String()
	for _, want := range []string{
		"## What to do first", "## Fix the benchmarks first", "## Leave alone", "## Decision gate", "## Appendix",
		"### Benchmarks", "### Where CPU goes", "### Where memory goes", "### Failed benchmarks", "### Scaling", "### Reproduce",
		"`frame.go:6`", "make([]byte, n) escapes to heap", "planted_test.go:66", "*Expected:* −1 allocs/op",
		"*Also:* `label.go:10`",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q", want)
		}
	}
	// The findings come in their ranked order, and the first screen has
	// no compiler-internal names or infinite intervals.
	if i, j := strings.Index(md, "frame.go:6"), strings.Index(md, "label.go:9"); i < 0 || j < i {
		t.Errorf("frame.go:6 (ranked first) should precede label.go:9")
	}
	for _, bad := range []string{"~r0", "± ∞"} {
		if strings.Contains(md, bad) {
			t.Errorf("Markdown contains %q", bad)
		}
	}
}

func TestMarkdownEmpty(t *testing.T) {
	// A document with nothing measured renders a title and no empty
	// sections.
	var buf bytes.Buffer
	if err := Markdown(&buf, &document.Report{Schema: document.Schema, Module: "example.com/m"}, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := len(regexp.MustCompile(`(?m)^## `).FindAllString(buf.String(), -1)); n != 0 {
		t.Errorf("empty report has %d sections:\n%s", n, buf.String())
	}
}

// plantedFlames builds the flame trees of the planted benchmarks from
// their checked-in CPU profiles.
func plantedFlames(t *testing.T) map[string]*profiles.FlameNode {
	t.Helper()
	flames := map[string]*profiles.FlameNode{}
	for _, b := range []string{"BenchmarkCount", "BenchmarkFrame", "BenchmarkLabels", "BenchmarkSum"} {
		p, err := profiles.ReadFile(filepath.Join("..", "profiles", "testdata", b+".cpu.pprof"))
		if err != nil {
			t.Fatal(err)
		}
		flames[b] = profiles.Flame(p)
	}
	return flames
}

func TestHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := HTML(&buf, reportFixture(t), Options{Flames: plantedFlames(t)}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.planted.html", buf.Bytes())
	page := buf.String()
	if n := strings.Count(page, "<svg"); n < 4+3 {
		t.Errorf("page has %d inline <svg>, want the category chart, the metric charts and 4 flame graphs", n)
	}
	if n := strings.Count(page, `class="flamegraph"`); n != 4 {
		t.Errorf("page has %d flame graphs, want 4", n)
	}
	// Self-contained: nothing is loaded from anywhere.
	remote := regexp.MustCompile(`(?i)(src|href|xlink:href)\s*=\s*["']?\s*(https?:)?//|@import|url\(\s*["']?(https?:)?//`)
	if m := remote.FindString(page); m != "" {
		t.Errorf("page references a remote resource: %q", m)
	}
	for _, want := range []string{
		"What to do first", "Where CPU goes", "Where memory goes", "Fix the benchmarks first", "Decision gate", "<details",
		"Failed benchmarks", "Scaling", "Reproduce", "frame.go:6", "make([]byte, n) escapes to heap",
		"<title>example.com/planted.(*Index).Count\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestHTMLEscapes(t *testing.T) {
	doc := &document.Report{Schema: document.Schema, Module: "example.com/m",
		Findings: []document.Finding{{Kind: "escape", Severity: document.SeverityHigh, File: "x.go", Line: 1,
			Message: `<script>alert(1)</script>`, Suggestion: `"><img src=x>`}}}
	var buf bytes.Buffer
	if err := HTML(&buf, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<script>alert") || strings.Contains(buf.String(), "<img") {
		t.Errorf("finding text is not escaped:\n%s", buf.String())
	}
}

// TestHTMLAssets renders the page for a server whose policy allows no
// inline code: the style sheet and the script are linked, and served as
// StyleSheet and Script, the very code report.html holds inline.
func TestHTMLAssets(t *testing.T) {
	doc := reportFixture(t)
	var inline, linked bytes.Buffer
	if err := HTML(&inline, doc, Options{Flames: plantedFlames(t)}); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&linked, doc, Options{Flames: plantedFlames(t), Assets: "/static"}); err != nil {
		t.Fatal(err)
	}
	page := linked.String()
	for _, want := range []string{`<link rel="stylesheet" href="/static/report.css">`, `<script src="/static/report.js"></script>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if regexp.MustCompile(`<style|<script>|\sstyle=|\son[a-z]+=`).MatchString(page) {
		t.Errorf("the page with Assets still has inline code")
	}
	for _, code := range []string{StyleSheet(), Script()} {
		if len(code) < 100 || !strings.Contains(inline.String(), code) {
			t.Errorf("report.html does not hold the served code inline:\n%.200s", code)
		}
	}
}

// TestNotProfiledIsListed: a benchmark that ran but could not be profiled
// (report exits 1 saying "the report lists why") is in the failures of
// report.md and report.html, with its reason.
func TestNotProfiledIsListed(t *testing.T) {
	doc := &document.Report{Schema: document.Schema, Module: "example.com/m", Benchmarks: []document.Benchmark{
		{Package: "example.com/m", Name: "BenchmarkFine", Status: "ok"},
		{Package: "example.com/m", Name: "BenchmarkHeavy", Status: "ok", ProfileError: "heap profile: timed out after 10m0s"},
	}}
	var md, html bytes.Buffer
	if err := Markdown(&md, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"report.md": md.String(), "report.html": html.String()} {
		for _, want := range []string{"Failed benchmarks", "BenchmarkHeavy", "not profiled", "heap profile: timed out after 10m0s"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s lacks %q", name, want)
			}
		}
		if strings.Contains(out, "BenchmarkFine") && strings.Count(out, "not profiled") != 1 {
			t.Errorf("%s: BenchmarkFine listed as not profiled", name)
		}
	}
}

// TestAPICostsSection: a finding of the "api" section (what the API
// forces) is shown under "Costs of the API" in Markdown, HTML and the
// terminal summary, never among what to do first.
func TestAPICostsSection(t *testing.T) {
	doc := &document.Report{Module: "example.com/m", Findings: []document.Finding{
		{Kind: document.KindCPU, Section: document.SectionFix, Severity: document.SeverityHigh, File: "a.go", Line: 3,
			Message: "FIXME-cause sorts on every call", Suggestion: "sort once"},
		{Kind: document.KindAlloc, Section: document.SectionAPI, Severity: document.SeverityLow, File: "l.go", Line: 10,
			Function: "example.com/m.(Level).String", Message: "APICOST the String method's string",
			Suggestion: "inherent to a String method: callers that only write it can use an Append or WriteTo form"},
	}}
	// after reports whether the API cost's message comes after heading
	// and is not in the section before it.
	after := func(t *testing.T, out, first, heading string) {
		t.Helper()
		fi, hi, ai := strings.Index(out, first), strings.Index(out, heading), strings.Index(out, "APICOST")
		if fi < 0 || hi < 0 || ai < 0 {
			t.Fatalf("want %q, %q and the API cost in:\n%s", first, heading, out)
		}
		if !(fi < hi && hi < ai) {
			t.Errorf("the API cost is not under %q, after %q:\n%s", heading, first, out)
		}
		if strings.Count(out, "APICOST") != 1 {
			t.Errorf("the API cost shown %d times:\n%s", strings.Count(out, "APICOST"), out)
		}
	}
	t.Run("markdown", func(t *testing.T) {
		var b bytes.Buffer
		if err := Markdown(&b, doc, Options{}); err != nil {
			t.Fatal(err)
		}
		after(t, b.String(), "## What to do first", "## Costs of the API")
		if strings.Contains(b.String(), "1 root cause") == false {
			t.Errorf("the API cost counted among the root causes:\n%s", b.String())
		}
	})
	t.Run("html", func(t *testing.T) {
		var b bytes.Buffer
		if err := HTML(&b, doc, Options{}); err != nil {
			t.Fatal(err)
		}
		after(t, b.String(), `id="what-to-do-first"`, `id="costs-of-the-api"`)
	})
	t.Run("summary", func(t *testing.T) {
		var b bytes.Buffer
		if err := Summary(&b, doc); err != nil {
			t.Fatal(err)
		}
		after(t, b.String(), "what to do first:", "costs of the API:")
	})
}

// TestNoChangeHeading: the root causes that name no change follow a
// heading of their own, after every cause that names one, in Markdown and
// in the terminal summary; with none, there is no heading.
func TestNoChangeHeading(t *testing.T) {
	doc := &document.Report{Module: "example.com/m", Findings: []document.Finding{
		{Kind: document.KindCPU, Section: document.SectionFix, Severity: document.SeverityHigh, File: "a.go", Line: 3,
			Message: "CHANGE sorts on every call", Suggestion: "sort once"},
		{Kind: document.KindCPU, Section: document.SectionFix, Severity: document.SeverityLow, File: "b.go", Line: 9, NoChange: true,
			Message: "NOCHANGE parses its input", Suggestion: "its own work on its inputs"},
	}}
	var md, sum bytes.Buffer
	if err := Markdown(&md, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Summary(&sum, doc); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ out, heading string }{
		"report.md": {md.String(), "Where the rest of the time goes"},
		"summary":   {sum.String(), "no change named"},
	} {
		ci, hi, ni := strings.Index(c.out, "CHANGE sorts"), strings.Index(c.out, c.heading), strings.Index(c.out, "NOCHANGE")
		if ci < 0 || hi < 0 || ni < 0 || !(ci < hi && hi < ni) {
			t.Errorf("%s: want the cause that names a change, then %q, then the other:\n%s", name, c.heading, c.out)
		}
	}
	doc.Findings = doc.Findings[:1]
	md.Reset()
	if err := Markdown(&md, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Where the rest of the time goes") {
		t.Errorf("a heading with no cause under it:\n%s", md.String())
	}
}

// TestBenchNotesInAppendix: a benchmark's code measured too small to
// distort its numbers (a timed setup at 0.02%) is a note in the
// appendix, counted in one line of the terminal summary, never under
// "fix the benchmarks first"; a broken benchmark stays there.
func TestBenchNotesInAppendix(t *testing.T) {
	doc := &document.Report{Module: "example.com/m", Findings: []document.Finding{
		{Kind: document.KindBroken, Section: document.SectionBroken, Rule: document.RuleBrokenNoWork, Benchmark: "BenchmarkEmpty",
			Message: "BenchmarkEmpty: BROKEN its loop does no work", Suggestion: "use the result"},
		{Kind: document.KindFixture, Section: document.SectionBenchmark, Rule: document.RuleTimedSetupSmall, Benchmark: "BenchmarkIter",
			File: "x_test.go", Line: 12, Message: "BenchmarkIter: NOTE setup make runs before the b.N loop with the timer on; measured at 0.02%", Suggestion: "call b.ResetTimer() after the setup"},
	}}
	var md, sum, html bytes.Buffer
	if err := Markdown(&md, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Summary(&sum, doc); err != nil {
		t.Fatal(err)
	}
	if err := HTML(&html, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct{ out, heading, notes string }{
		"report.md":   {md.String(), "## Fix the benchmarks first", "### Notes on the benchmarks"},
		"report.html": {html.String(), ">Fix the benchmarks first<", ">Notes on the benchmarks ("},
		"summary":     {sum.String(), "fix the benchmarks first:", "notes on the benchmarks: 1 measured too small"},
	} {
		h, b, n := strings.Index(c.out, c.heading), strings.Index(c.out, "BROKEN"), strings.Index(c.out, c.notes)
		if h < 0 || b < h || n < b {
			t.Errorf("%s: want %q, the broken benchmark, then %q:\n%s", name, c.heading, c.notes, c.out)
		}
		if name != "summary" && strings.Index(c.out, "NOTE setup") < n {
			t.Errorf("%s: the note is not under %q", name, c.notes)
		}
		if name == "summary" && strings.Contains(c.out, "NOTE setup") {
			t.Errorf("summary shows the note itself:\n%s", c.out)
		}
	}
}

// TestBuildFailureFirst: a package whose tests do not build heads "fix
// the benchmarks first", before the benchmarks that ran and are wrong.
func TestBuildFailureFirst(t *testing.T) {
	doc := &document.Report{Module: "example.com/m", Findings: []document.Finding{
		{Kind: document.KindFixture, Section: document.SectionBenchmark, Rule: document.RuleBrokenLint, Benchmark: "BenchmarkIter",
			File: "x_test.go", Line: 12, Message: "BenchmarkIter: FIXTURE built in the loop", Suggestion: "build it once"},
		{Kind: document.KindBroken, Section: document.SectionBroken, Rule: document.RuleBrokenBuild,
			Message: "example.com/m/codec: BUILD its tests do not build", Suggestion: "make its tests build"},
	}}
	var md, sum bytes.Buffer
	if err := Markdown(&md, doc, Options{}); err != nil {
		t.Fatal(err)
	}
	if err := Summary(&sum, doc); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"report.md": md.String(), "summary": sum.String()} {
		if b, f := strings.Index(out, "BUILD"), strings.Index(out, "FIXTURE"); b < 0 || f < 0 || b > f {
			t.Errorf("%s: the build failure does not come before the fixture:\n%s", name, out)
		}
	}
}
