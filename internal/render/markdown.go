package render

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
	"golang.org/x/perf/benchunit"
)

// Options says how much of a report document to render, for Markdown and
// HTML alike.
type Options struct {
	// Title heads the document; "" means "Performance report: MODULE".
	Title string
	// Hotspots is how many hotspots to show per benchmark; 0 means 8.
	Hotspots int
	// Allocations is how many allocation sites to show per benchmark; 0
	// means 6.
	Allocations int
	// Flames holds each benchmark's CPU call tree (profiles.Flame), by
	// benchmark name, for the HTML flame graphs; Markdown ignores it.
	Flames map[string]*profiles.FlameNode
	// Assets, if set, is the URL path under which a server serves
	// report.css (StyleSheet) and report.js (Script): the HTML page links
	// them instead of holding them inline. Markdown ignores it.
	Assets string
}

func (o Options) hotspots() int    { return cmp.Or(o.Hotspots, 8) }
func (o Options) allocations() int { return cmp.Or(o.Allocations, 6) }

func (o Options) title(doc *document.Report) string {
	if o.Title != "" {
		return o.Title
	}
	if doc.Module != "" {
		return "Performance report: " + doc.Module
	}
	return "Performance report"
}

// Markdown writes doc as a Markdown document that reads like an engineer's
// profiling report and renders on GitHub: the environment, what to do
// first, the benchmarks, where CPU and memory go, the findings, the
// decision gate, failures, scaling and the commands that reproduce it.
// Sections with nothing to say are left out.
func Markdown(w io.Writer, doc *document.Report, opts Options) error {
	var b bytes.Buffer
	m := &mdWriter{b: &b, doc: doc, opts: opts, sec: sectionsOf(doc)}
	m.title()
	m.run()
	m.rootCauses()
	m.benchmarkFixes()
	m.leaveAlone()
	m.apiCosts()
	m.gate()
	m.appendix()
	_, err := w.Write(b.Bytes())
	return err
}

// appendix writes the evidence behind the first screen, with a table of
// contents: every other finding, the benchmarks, where CPU and memory go,
// failures, scaling and the commands that reproduce the figures.
func (m *mdWriter) appendix() {
	type part struct {
		title string
		write func()
		has   bool
	}
	parts := []part{
		{"More findings", m.moreFindings, len(m.sec.More) > 0},
		// A run's figures are in its own table (see run).
		{"Benchmarks", m.benchmarks, len(metricBenchmarks(m.doc.Benchmarks)) > 0 && m.doc.Op != document.OpRun},
		{"Where CPU goes", m.cpu, len(cpuOf(m.doc, m.opts)) > 0},
		{"Where memory goes", m.memory, len(memOf(m.doc, m.opts)) > 0},
		{"Failed benchmarks", m.failures, m.hasFailures()},
		{"Notes on the benchmarks", m.benchNotes, len(m.sec.Notes) > 0},
		{"Scaling", m.scaling, len(m.doc.Scaling) > 0},
		{"Reproduce", m.commands, len(m.doc.Commands) > 0},
	}
	var toc []string
	for _, p := range parts {
		if p.has {
			toc = append(toc, fmt.Sprintf("[%s](#%s)", p.title, anchor(p.title)))
		}
	}
	if len(toc) == 0 {
		return
	}
	m.printf("## Appendix\n\n%s\n\n", strings.Join(toc, " · "))
	for _, p := range parts {
		if p.has {
			p.write()
		}
	}
}

// anchor is the id GitHub gives a heading.
func anchor(title string) string {
	return strings.ReplaceAll(strings.ToLower(title), " ", "-")
}

type mdWriter struct {
	b    *bytes.Buffer
	doc  *document.Report
	opts Options
	sec  sections
}

func (m *mdWriter) printf(format string, args ...any) { fmt.Fprintf(m.b, format, args...) }

// table writes a GitHub table; align holds "l" or "r" per column. Every
// pipe in a cell is escaped, inside a code span too: GitHub splits the
// row at unescaped pipes before it reads the cells' Markdown.
func (m *mdWriter) table(align string, header []string, rows [][]string) {
	m.printf("| %s |\n|", joinCells(header))
	for _, a := range align {
		if a == 'r' {
			m.printf("---:|")
		} else {
			m.printf("---|")
		}
	}
	m.printf("\n")
	for _, r := range rows {
		m.printf("| %s |\n", joinCells(r))
	}
	m.printf("\n")
}

// joinCells joins a row's cells with their pipes escaped.
func joinCells(cells []string) string {
	escaped := make([]string, len(cells))
	for i, c := range cells {
		escaped[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	return strings.Join(escaped, " | ")
}

func (m *mdWriter) title() {
	d := m.doc
	m.printf("# %s\n\n", mdText(m.opts.title(d)))
	var rows [][]string
	add := func(k, v string) {
		if v != "" {
			rows = append(rows, []string{k, v})
		}
	}
	add("module", code(d.Module))
	add("commit", code(d.Commit))
	add("go", strings.TrimSpace(d.GoVersion+" "+platform(d)))
	add("cpu", mdText(d.CPU))
	add("date", mdText(d.Date))
	add("runs", runs(d))
	add("time", mdText(TimeSpent(d.Timing)))
	add("analyses", mdText(analysesWhen(d.Timing)))
	if len(rows) > 0 {
		m.table("ll", []string{"", ""}, rows)
	}
}

func platform(d *document.Report) string {
	if d.GOOS == "" && d.GOARCH == "" {
		return ""
	}
	return d.GOOS + "/" + d.GOARCH
}

// runs says how the benchmarks were run: "-count 10, -benchtime 1s, GOMAXPROCS 2".
func runs(d *document.Report) string {
	var parts []string
	if d.Count > 0 {
		parts = append(parts, "-count "+strconv.Itoa(d.Count))
	}
	if d.Benchtime != "" {
		parts = append(parts, "-benchtime "+d.Benchtime)
	}
	if d.GOMAXPROCS > 0 {
		parts = append(parts, "GOMAXPROCS "+strconv.Itoa(d.GOMAXPROCS))
	}
	return strings.Join(parts, ", ")
}

// TimeSpent says where a report's time went: "build 12.1 s, benchmark rounds
// 86.0 s (80 of 106 benchmarks at a fixed b.N after the first round), …".
func TimeSpent(t *document.Timing) string {
	if t == nil {
		return ""
	}
	secs := func(s float64) string { return strconv.FormatFloat(s, 'f', 1, 64) + " s" }
	parts := []string{"build " + secs(t.PrepareSeconds), "benchmark rounds " + secs(t.RoundsSeconds)}
	if t.Calibrated > 0 {
		parts[1] += fmt.Sprintf(" (%d benchmark%s at a fixed b.N after the first round)", t.Calibrated, pluralS(t.Calibrated))
	}
	parts = append(parts, fmt.Sprintf("extra CPU profiles %s (%d benchmark%s)", secs(t.CPUProfileSeconds), t.CPUProfileRuns, pluralS(t.CPUProfileRuns)),
		fmt.Sprintf("heap profiles %s (%d benchmark%s allocating in their loop)", secs(t.HeapProfileSeconds), t.HeapProfiled, pluralS(t.HeapProfiled)))
	if t.ScalingSeconds > 0 {
		parts = append(parts, "scaling "+secs(t.ScalingSeconds))
	}
	return strings.Join(parts, ", ")
}

// analysesWhen says when the compiler's analyses ran and why then.
func analysesWhen(t *document.Timing) string {
	if t == nil {
		return ""
	}
	what := fmt.Sprintf("escape analysis (-gcflags=-m=2), source and lint (%.1f s)", t.AnalysesSeconds)
	switch t.Analyses {
	case document.AnalysesBefore:
		return what + " ran while the test binaries built, and the rounds waited for them: the benchmarks were not pinned apart, so nothing ran beside them"
	case document.AnalysesBeside:
		return what + " ran beside the benchmarks, which were pinned to other cores"
	}
	return ""
}

func (m *mdWriter) rootCauses() {
	rc := m.sec.Root
	if len(rc) == 0 {
		return
	}
	m.printf("## What to do first\n\n")
	m.printf("%d root cause%s, ranked by the share of CPU time each accounts for in the %s it costs most (a micro-benchmark's and a function's own algorithm weigh less, and a cause that names no change comes after every one that does); shares within the profile's sampling error of each other are a tie, in a fixed order.\n\n", len(rc), pluralS(len(rc)), costliest(m.doc))
	for i, f := range rc {
		if f.NoChange && (i == 0 || !rc[i-1].NoChange) {
			m.printf("\n*Where the rest of the time goes: causes that name no change (a function's own work on what it is given, or its own algorithm), not fixes to make first.*\n\n")
		}
		m.printf("%d. %s %s%s — %s\\\n", i+1, severityTag(f.Severity), code(fileLine(f.File, f.Line)), inFunc(f.Function), mdText(f.Message))
		if c := costIn(m.doc, f); c != "" {
			m.printf("   *Cost:* %s\\\n", mdText(c))
		}
		if len(f.Related) > 0 {
			var ls []string
			for _, r := range f.Related {
				ls = append(ls, code(fileLine(r.File, r.Line)))
			}
			m.printf("   *Also:* %s\\\n", strings.Join(ls, ", "))
		}
		if len(f.Evidence) > 0 {
			m.printf("   *Evidence:* %s\\\n", mdText(f.Evidence[0]))
		}
		m.printf("   *Fix:* %s", mdText(f.Suggestion))
		if f.Gain != "" {
			m.printf("\\\n   *Expected:* %s", mdText(f.Gain))
		}
		for _, t := range f.Tried {
			m.printf("\\\n   *Tried by perfloop fix:* %s", mdText(triedLine(t)))
		}
		m.printf("\n")
	}
	m.printf("\n")
}

func (m *mdWriter) benchmarkFixes() {
	if len(m.sec.Bench) == 0 {
		return
	}
	m.printf("## Fix the benchmarks first\n\n")
	for _, f := range m.sec.Bench {
		what := "broken"
		if f.Kind != "broken" {
			what = "measures its own code"
		}
		m.printf("- **%s** (%s)", mdText(f.Benchmark), what)
		if f.File != "" {
			m.printf(" %s", code(fileLine(f.File, f.Line)))
		}
		m.printf(": %s\\\n  *Fix:* %s\n", mdText(strings.TrimPrefix(f.Message, f.Benchmark+": ")), mdText(f.Suggestion))
	}
	m.printf("\n")
}

// benchNotes writes what the benchmarks' code does that was measured too
// small to distort their numbers: worth a look, never first.
func (m *mdWriter) benchNotes() {
	m.printf("### Notes on the benchmarks\n\n")
	for _, f := range m.sec.Notes {
		m.printf("- **%s**", mdText(f.Benchmark))
		if f.File != "" {
			m.printf(" %s", code(fileLine(f.File, f.Line)))
		}
		m.printf(": %s\\\n  *If it matters:* %s\n", mdText(strings.TrimPrefix(f.Message, f.Benchmark+": ")), mdText(f.Suggestion))
	}
	m.printf("\n")
}

func (m *mdWriter) leaveAlone() {
	if len(m.sec.Alone) == 0 {
		return
	}
	m.printf("## Leave alone\n\n")
	for _, f := range m.sec.Alone {
		m.printf("- **%s**: %s\n", mdText(f.Benchmark), mdText(strings.TrimPrefix(f.Message, f.Benchmark+": ")))
	}
	m.printf("\n")
}

// apiCosts writes what the module's API forces on its callers: costs a
// change inside the function cannot remove, with the API-level
// alternative.
func (m *mdWriter) apiCosts() {
	if len(m.sec.API) == 0 {
		return
	}
	m.printf("## Costs of the API\n\n")
	m.printf("What the API forces: the function returns what it allocates, or a String method returns its string. Only a change of the API removes these.\n\n")
	for _, f := range m.sec.API {
		m.findingItem(f, "API-level alternative")
	}
	m.printf("\n")
}

// findingItem writes a finding as a list item: severity, line, function
// and message, its cost, and its suggestion under label.
func (m *mdWriter) findingItem(f document.Finding, label string) {
	m.printf("- %s %s%s — %s", severityTag(f.Severity), code(fileLine(f.File, f.Line)), inFunc(f.Function), mdText(f.Message))
	if c := costIn(m.doc, f); c != "" {
		m.printf(" (%s)", mdText(c))
	}
	if f.Suggestion != "" {
		m.printf("\\\n  *%s:* %s", label, mdText(f.Suggestion))
	}
	m.printf("\n")
}

func (m *mdWriter) moreFindings() {
	m.printf("### More findings\n\n")
	for _, f := range m.sec.More {
		m.findingItem(f, "Fix")
	}
	m.printf("\n")
	var ev []document.Finding
	for _, f := range m.sec.Root {
		if len(f.Evidence) > 1 {
			ev = append(ev, f)
		}
	}
	if len(ev) == 0 {
		return
	}
	m.printf("Evidence for the root causes:\n\n")
	for _, f := range ev {
		m.printf("- %s:\n", code(fileLine(f.File, f.Line)))
		for _, e := range f.Evidence {
			m.printf("  - %s\n", mdText(e))
		}
	}
	m.printf("\n")
}

func severityTag(s document.Severity) string {
	if s == "" {
		return ""
	}
	return "**[" + string(s) + "]**"
}

func inFunc(fn string) string {
	if fn == "" {
		return ""
	}
	return " in " + code(document.ShortFunc(fn))
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// costliest is what findings are ranked in: a benchmark, or a program's
// run.
func costliest(d *document.Report) string {
	if d.Op == document.OpRun {
		return "run"
	}
	return "benchmark"
}

// costIn says what a finding of d costs: per op for benchmarks
// (costText), per run and per second of run for a program's run.
func costIn(d *document.Report, f document.Finding) string {
	if d.Op != document.OpRun {
		return costText(f)
	}
	wall := map[string]float64{}
	partial := map[string]int64{} // the heap profile's bytes, when it is partial
	if d.Run != nil {
		for _, v := range d.Run.Variants {
			wall[v.Name] = v.WallSeconds
			if v.HeapPartial() {
				partial[v.Name] = v.HeapProfileBytes
			}
		}
	}
	var parts []string
	for i, c := range f.Costs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more variants", len(f.Costs)-3))
			break
		}
		var xs []string
		if c.CPUShare >= 0.005 {
			xs = append(xs, percent(c.CPUShare)+" of CPU")
		}
		if held := partial[c.Benchmark]; c.AllocsPerOp > 0 && held > 0 {
			// A share of what the profile holds, not the run's.
			xs = append(xs, fmt.Sprintf("%s allocations and %s in the heap profile (%s of the %s it holds)",
				formatCount(int64(math.Round(c.AllocsPerOp))), formatBytes(int64(c.BytesPerOp)), percent(c.BytesPerOp/float64(held)), formatBytes(held)))
		} else if c.AllocsPerOp > 0 {
			x := fmt.Sprintf("%s allocations and %s per run", formatCount(int64(math.Round(c.AllocsPerOp))), formatBytes(int64(c.BytesPerOp)))
			if w := wall[c.Benchmark]; w > 0 {
				x += fmt.Sprintf(" (%s/s and %s/s of run)", formatCount(int64(math.Round(c.AllocsPerOp/w))), formatBytes(int64(c.BytesPerOp/w)))
			}
			xs = append(xs, x)
		}
		if len(xs) == 0 {
			continue
		}
		parts = append(parts, c.Benchmark+" "+strings.Join(xs, ", "))
	}
	return strings.Join(parts, "; ")
}

// costText says what a finding costs, costliest benchmark first.
func costText(f document.Finding) string {
	var parts []string
	for i, c := range f.Costs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more benchmarks", len(f.Costs)-3))
			break
		}
		var xs []string
		if c.CPUShare >= 0.005 {
			xs = append(xs, percent(c.CPUShare)+" of CPU")
		}
		if c.AllocsPerOp > 0 {
			xs = append(xs, fmt.Sprintf("%s allocs/op, %s B/op", perOp(c.AllocsPerOp), perOp(c.BytesPerOp)))
		}
		if len(xs) == 0 {
			continue
		}
		parts = append(parts, c.Benchmark+" "+strings.Join(xs, ", "))
	}
	return strings.Join(parts, "; ")
}

func perOp(v float64) string {
	if v >= 100 || v == math.Trunc(v) {
		return scaled(math.Round(v), "B/op")
	}
	return strconv.FormatFloat(v, 'g', 2, 64)
}

// sections are the findings as the report shows them.
type sections struct {
	// Root are the first document.FirstScreen "fix" findings; More the rest.
	Root, More []document.Finding
	// Bench are broken benchmarks and those that measure their own code;
	// Notes the benchmarks' code measured too small to distort their
	// numbers (the appendix's); Alone the benchmarks to leave alone.
	Bench, Notes, Alone []document.Finding
	// API are the costs the module's API forces (a String method's
	// string, a result the function allocates): shown apart, never first.
	API []document.Finding
}

func sectionsOf(d *document.Report) sections {
	var s sections
	for _, f := range d.Findings {
		switch f.Section {
		case document.SectionBenchmark, document.SectionBroken:
			if f.Rule.Note() {
				s.Notes = append(s.Notes, f)
				continue
			}
			if f.Rule == document.RuleBrokenBuild {
				// A package none of whose benchmarks ran: before
				// what is wrong with the ones that did.
				s.Bench = slices.Insert(s.Bench, builds(s.Bench), f)
				continue
			}
			s.Bench = append(s.Bench, f)
		case document.SectionLeaveAlone:
			s.Alone = append(s.Alone, f)
		case document.SectionAPI:
			s.API = append(s.API, f)
		default:
			if len(s.Root) < document.FirstScreen {
				s.Root = append(s.Root, f)
			} else {
				s.More = append(s.More, f)
			}
		}
	}
	return s
}

// builds is the number of findings at the head of fs that say a
// package's tests do not build.
func builds(fs []document.Finding) int {
	n := 0
	for n < len(fs) && fs[n].Rule == document.RuleBrokenBuild {
		n++
	}
	return n
}

func benchPrefix(name string) string {
	if name == "" {
		return ""
	}
	return "**" + mdText(name) + "**: "
}

// units returns the units measured across the benchmarks, in the order a
// summary shows them: time, memory, allocations, throughput, then custom
// metrics by name.
func units(bs []document.Benchmark) []string {
	seen := map[string]bool{}
	for _, b := range bs {
		for u := range b.Metrics {
			seen[u] = true
		}
	}
	rank := func(u string) int {
		switch u {
		case "sec/op":
			return 0
		case "B/op":
			return 1
		case "allocs/op":
			return 2
		case "B/s":
			return 3
		}
		return 4
	}
	us := make([]string, 0, len(seen))
	for u := range seen {
		us = append(us, u)
	}
	slices.SortFunc(us, func(a, b string) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), strings.Compare(a, b)) })
	return us
}

// metricCell formats a metric as benchstat does: the median scaled for its
// unit and the confidence interval as ± a percentage of it.
func metricCell(m *document.Metric, unit string) string {
	if m == nil {
		return ""
	}
	s := scaled(m.Median, unit)
	if m.Low == nil || m.High == nil {
		return s // the table's note says why there is no interval
	}
	ci := 0.0
	if m.Median != 0 {
		ci = math.Max(m.Median-*m.Low, *m.High-m.Median) / math.Abs(m.Median)
	}
	return s + " ± " + strconv.FormatFloat(math.Round(100*ci), 'f', 0, 64) + "%"
}

// scaled formats a value for its unit: counts per op as plain integers
// while they are small, everything else scaled as benchstat does.
func scaled(v float64, unit string) string {
	if (unit == "B/op" || unit == "allocs/op") && v == math.Trunc(v) && v < 10000 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return benchunit.Scale(v, benchunit.ClassOf(unit))
}

// metricBenchmarks returns the benchmarks that ran and have metrics: a
// parent whose sub-benchmarks carry the metrics has no row of its own.
func metricBenchmarks(bs []document.Benchmark) []document.Benchmark {
	var ok []document.Benchmark
	for _, b := range bs {
		if (b.Status == "ok" || b.Status == "") && len(b.Metrics) > 0 {
			ok = append(ok, b)
		}
	}
	return ok
}

func (m *mdWriter) hasFailures() bool { return len(failureRows(m.doc)) > 0 }

// failureRows are the report's failures, one row each (benchmark,
// package, status, error): the benchmarks that failed, those that ran but
// could not be profiled (status "not profiled"), and the packages that
// did not build.
func failureRows(d *document.Report) [][]string {
	var rows [][]string
	for _, b := range d.Benchmarks {
		switch {
		case b.Status != "ok" && b.Status != "":
			rows = append(rows, []string{b.Name, b.Package, b.Status, b.Error})
		case b.ProfileError != "":
			rows = append(rows, []string{b.Name, b.Package, "not profiled", b.ProfileError})
		}
	}
	for _, p := range d.Packages {
		rows = append(rows, []string{"", p.Package, p.Status, p.Error})
	}
	return rows
}

func (m *mdWriter) benchmarks() {
	bs := metricBenchmarks(m.doc.Benchmarks)
	us := units(bs)
	if len(bs) == 0 || len(us) == 0 {
		return
	}
	m.printf("### Benchmarks\n\n")
	header := append([]string{"benchmark"}, us...)
	align := "l" + strings.Repeat("r", len(us))
	var rows [][]string
	for _, b := range bs {
		row := []string{code(benchLabel(m.doc, b))}
		for _, u := range us {
			row = append(row, metricCell(b.Metrics[u], u))
		}
		rows = append(rows, row)
	}
	m.table(align, header, rows)
	m.printf("Medians of the runs ± the 95%% confidence interval, as benchstat computes them.%s\n\n", noInterval(bs))
}

// benchLabel names a benchmark, with its package's name when the report
// spans several.
func benchLabel(d *document.Report, b document.Benchmark) string {
	if multiPackage(d) && b.Package != "" {
		return b.Package[strings.LastIndexByte(b.Package, '/')+1:] + "." + b.Name
	}
	return b.Name
}

// noInterval says which runs had too few values for a confidence
// interval, or "".
func noInterval(bs []document.Benchmark) string {
	n := -1
	for _, b := range bs {
		for _, m := range b.Metrics {
			if m != nil && (m.Low == nil || m.High == nil) && (n < 0 || m.N < n) {
				n = m.N
			}
		}
	}
	if n < 0 {
		return ""
	}
	return fmt.Sprintf(" n=%d: no interval (it needs at least 6 runs: -count 6).", n)
}

func multiPackage(d *document.Report) bool {
	for _, b := range d.Benchmarks {
		if b.Package != d.Benchmarks[0].Package {
			return true
		}
	}
	return false
}

// of reports whether a row for (pkg, name) belongs to benchmark b.
func of(b document.Benchmark, pkg, name string) bool {
	return name == b.Name && (pkg == "" || b.Package == "" || pkg == b.Package)
}

// benchCPU is what the report knows about one benchmark's CPU time.
type benchCPU struct {
	Bench      document.Benchmark
	Categories []document.CategoryShare
	Hotspots   []document.Hotspot
}

func cpuOf(d *document.Report, opts Options) []benchCPU {
	var out []benchCPU
	for _, b := range d.Benchmarks {
		bc := benchCPU{Bench: b}
		for _, c := range d.Categories {
			if of(b, c.Package, c.Benchmark) {
				bc.Categories = append(bc.Categories, c)
			}
		}
		for _, h := range d.Hotspots {
			if of(b, h.Package, h.Benchmark) && len(bc.Hotspots) < opts.hotspots() {
				bc.Hotspots = append(bc.Hotspots, h)
			}
		}
		if len(bc.Categories) > 0 || len(bc.Hotspots) > 0 || b.CallPath != nil {
			out = append(out, bc)
		}
	}
	return out
}

// bar draws share as a bar of n block characters.
func bar(share float64, n int) string {
	full := int(math.Round(share * float64(n)))
	full = min(max(full, 0), n)
	return strings.Repeat("█", full) + strings.Repeat("░", n-full)
}

func (m *mdWriter) cpu() {
	bcs := cpuOf(m.doc, m.opts)
	if len(bcs) == 0 {
		return
	}
	m.printf("### Where CPU goes\n\n")
	for _, bc := range bcs {
		m.printf("#### %s\n\n", mdText(benchLabel(m.doc, bc.Bench)))
		if p := bc.Bench.CallPath; p != nil {
			m.printf("Dominant call path (%s of samples): %s\n\n", percent(p.Share), code(p.Text))
		}
		if len(bc.Categories) > 0 {
			var rows [][]string
			for _, c := range bc.Categories {
				rows = append(rows, []string{string(c.Category), percent(c.Share), bar(c.Share, 20)})
			}
			m.table("lrl", []string{"category", "share", ""}, rows)
		}
		if len(bc.Hotspots) > 0 {
			var rows [][]string
			for _, h := range bc.Hotspots {
				rows = append(rows, []string{percent(h.Flat), percent(h.Cum), code(document.ShortFunc(h.Function)), code(fileLine(h.File, h.Line))})
			}
			m.table("rrll", []string{"flat", "cum", "function", "hottest line"}, rows)
		}
		if m.doc.Op == document.OpRun {
			m.moduleLines(bc.Bench)
		}
	}
}

// moduleLineRows is how many of the module's lines a run's report lists.
const moduleLineRows = 15

// moduleLines writes the module's costliest lines in b's CPU profile:
// where the run's time goes in the program's own source, whatever leaf
// (a runtime routine, a system call stub) the samples end in.
func (m *mdWriter) moduleLines(b document.Benchmark) {
	var ls []document.LineCost
	for _, l := range m.doc.Lines {
		if of(b, l.Package, l.Benchmark) && !l.InTest {
			ls = append(ls, l)
		}
	}
	if len(ls) == 0 {
		return
	}
	slices.SortStableFunc(ls, func(x, y document.LineCost) int { return cmp.Compare(y.Cum, x.Cum) })
	ls = ls[:min(len(ls), moduleLineRows)]
	m.printf("The module's lines, by the CPU spent at them and below:\n\n")
	var rows [][]string
	for _, l := range ls {
		calls := "—"
		if l.Callee != "" {
			calls = code(document.ShortFunc(l.Callee)) + " (" + string(l.Category) + ")"
		}
		src := ""
		if l.Source != "" {
			src = code(l.Source)
		}
		rows = append(rows, []string{percent(l.Cum), percent(l.Self), code(fileLine(l.File, l.Line)), code(document.ShortFunc(l.Function)), calls, src})
	}
	m.table("rrllll", []string{"cum", "self", "line", "function", "calls", "source"}, rows)
}

// benchMem is what the report knows about one benchmark's allocations.
type benchMem struct {
	Bench document.Benchmark
	Sites []document.Allocation
}

func memOf(d *document.Report, opts Options) []benchMem {
	var out []benchMem
	for _, b := range d.Benchmarks {
		bm := benchMem{Bench: b}
		for _, a := range d.Allocations {
			if of(b, a.Package, a.Benchmark) && len(bm.Sites) < opts.allocations() {
				bm.Sites = append(bm.Sites, a)
			}
		}
		if len(bm.Sites) > 0 {
			out = append(out, bm)
		}
	}
	return out
}

func (m *mdWriter) memory() {
	bms := memOf(m.doc, m.opts)
	if len(bms) == 0 {
		return
	}
	m.printf("### Where memory goes\n\n")
	whole := "every byte allocated during the run, freed or not"
	if m.doc.Run != nil {
		for _, v := range m.doc.Run.Variants {
			if v.HeapPartial() {
				whole = "the bytes allocated that each holds, freed or not"
			}
		}
	}
	m.printf("Allocation sites from the heap profiles (alloc_space, alloc_objects): %s.\n\n", whole)
	for _, bm := range bms {
		m.printf("#### %s\n\n", mdText(benchLabel(m.doc, bm.Bench)))
		if s := bm.Bench.TestAllocShare; s != nil && *s > 0 {
			m.printf("%s of the bytes are allocated in `_test.go` files: fixtures the benchmark measures along with the code.\n\n", percent(*s))
		}
		if v, ok := runVariant(m.doc, bm.Bench.Name); ok && v.HeapPartial() {
			m.printf("The heap profile holds %s of the %s allocated (written without a final collection, it misses the run's last collection cycles): the bytes below are what it holds, and bytes%% shares of it.\n\n",
				formatBytes(v.HeapProfileBytes), formatBytes(v.AllocBytes))
		}
		var rows [][]string
		var flows []document.Allocation
		for _, a := range bm.Sites {
			fn := code(document.ShortFunc(a.Function))
			if a.Via != "" {
				fn += " via " + code(a.Via)
			}
			why := ""
			if a.Escape != nil {
				why = code(compilerText(a.Escape.Verdict))
				if len(a.Escape.Flow) > 0 {
					flows = append(flows, a)
				}
			}
			rows = append(rows, []string{formatBytes(a.Bytes), percent(a.BytesShare),
				formatCount(a.Objects), percent(a.ObjectsShare), code(fileLine(a.File, a.Line)), fn, why})
		}
		m.table("rrrrlll", []string{"bytes", "bytes%", "objects", "objects%", "site", "function", "compiler says"}, rows)
		if len(flows) > 0 {
			m.printf("Why the compiler put them on the heap (`-gcflags=-m=2`):\n\n")
			for _, a := range flows {
				m.printf("- %s %s\n\n", code(fileLine(a.File, a.Line)), code(compilerText(a.Escape.Verdict)))
				var lines []string
				for _, f := range a.Escape.Flow {
					lines = append(lines, compilerText(f))
				}
				m.printf("%s\n", fenced("  ", "text", lines))
			}
		}
	}
}

// gateValue formats a gate's measured value or threshold for its unit.
// unitIn is a benchmark unit as d says it: "allocs/op" is "allocs per
// run" in a program's run.
func unitIn(d *document.Report, unit string) string {
	if d.Op == document.OpRun && strings.HasSuffix(unit, "/op") {
		return strings.TrimSuffix(unit, "/op") + " per run"
	}
	return unit
}

func gateValue(v float64, unit string) string {
	switch unit {
	case "share":
		return percent(v)
	case "":
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	return scaled(v, strings.Replace(unit, " per run", "/op", 1)) + " " + unit
}

func (m *mdWriter) gate() {
	if len(m.doc.Gate) == 0 {
		return
	}
	m.printf("## Decision gate\n\n")
	var rows [][]string
	for _, g := range m.doc.Gate {
		verdict := mdText(g.Verdict)
		if g.Verdict == document.VerdictFirst {
			verdict = "**" + verdict + "**"
		}
		rows = append(rows, []string{verdict, mdText(g.Rule), mdText(g.Benchmark), code(g.Metric),
			gateValue(g.Measured, unitIn(m.doc, g.Unit)), gateValue(g.Threshold, unitIn(m.doc, g.Unit)), mdText(g.Message)})
	}
	m.table("llllrrl", []string{"verdict", "rule", costliest(m.doc), "metric", "measured", "threshold", "why"}, rows)
}

func (m *mdWriter) failures() {
	var rows [][]string
	for _, r := range failureRows(m.doc) {
		rows = append(rows, []string{code(r[0]), code(r[1]), mdText(r[2]), code(r[3])})
	}
	if len(rows) == 0 {
		return
	}
	m.printf("### Failed benchmarks\n\n")
	m.table("llll", []string{"benchmark", "package", "status", "error"}, rows)
}

func (m *mdWriter) scaling() {
	if len(m.doc.Scaling) == 0 {
		return
	}
	m.printf("### Scaling\n\n")
	var cores, sizes []document.Scaling
	for _, s := range m.doc.Scaling {
		if s.Parameter == "cpu" {
			cores = append(cores, s)
		} else {
			sizes = append(sizes, s)
		}
	}
	if len(cores) > 0 {
		m.coreScaling(cores)
	}
	if len(sizes) == 0 {
		return
	}
	if len(cores) > 0 {
		m.printf("With the input size:\n\n")
	}
	var rows [][]string
	for _, s := range sizes {
		rows = append(rows, []string{code(s.Benchmark), code(s.Parameter), mdText(s.Growth),
			strconv.FormatFloat(s.Exponent, 'f', 2, 64), strconv.FormatFloat(s.R2, 'f', 3, 64)})
	}
	m.table("llrrr", []string{"benchmark", "parameter", "growth", "exponent", "R²"}, rows)
}

// coreScaling renders the concurrent benchmarks at each core count: ns/op,
// efficiency, and what stops them (lock sites, lines whose cost grows).
func (m *mdWriter) coreScaling(rows []document.Scaling) {
	m.printf("With the cores (ns/op is wall time per op over all goroutines; the ideal at N cores is ns(1)/N, efficiency = ns(1) / (N × ns(N))):\n\n")
	var table [][]string
	for _, s := range rows {
		if s.NotMeasured != "" {
			table = append(table, []string{code(s.Benchmark), "", "", "", mdText("not measured: " + s.NotMeasured)})
			continue
		}
		var ns []string
		for i, c := range s.CPU {
			ns = append(ns, fmt.Sprintf("%d: %s", c, nsText(s.NsPerOp[i])))
		}
		used := ""
		if s.CoresUsed > 0 {
			used = fmt.Sprintf("%.1f", s.CoresUsed)
		}
		table = append(table, []string{code(s.Benchmark), mdText(strings.Join(ns, " · ")), fmt.Sprintf("%.2f", s.Efficiency), used, mdText(s.Growth)})
	}
	m.table("llrrl", []string{"benchmark", "ns/op by -cpu", "efficiency", "cores used", "scaling"}, table)
	for _, s := range rows {
		if len(s.Locks) == 0 && len(s.Growing) == 0 && s.HarnessBlockShare == nil {
			continue
		}
		m.printf("%s:\n\n", code(s.Benchmark))
		for _, l := range s.Locks {
			var what []string
			if l.DelayPerOp > 0 {
				what = append(what, fmt.Sprintf("waits %s/op (%s profile, %.2g waits/op)", nsText(l.DelayPerOp), l.Profile, l.ContentionsPerOp))
			}
			if l.HeldTo > 0 {
				what = append(what, fmt.Sprintf("held to line %d with %s of the CPU inside", l.HeldTo, percent0(l.CPUInside)))
			}
			if l.LockCPU > 0 {
				what = append(what, fmt.Sprintf("the lock operations %s of the CPU", percent0(l.LockCPU)))
			}
			test := ""
			if l.InTest {
				test = " (the benchmark's own code)"
			}
			m.printf("- %s %s%s: %s\n", code(fmt.Sprintf("%s:%d", l.File, l.Line)), code(cmp.Or(l.Source, l.Op)), test, mdText(strings.Join(what, "; ")))
			for _, in := range l.Inside {
				m.printf("  - line %d %s: %s\n", in.Line, code(in.Source), percent0(in.Share))
			}
		}
		for _, g := range s.Growing {
			mech := ""
			if g.Mechanism != "" {
				mech = " (" + string(g.Mechanism) + ")"
			}
			m.printf("- %s %s: CPU per op %s at -cpu 1, %s at -cpu %d%s\n", code(fmt.Sprintf("%s:%d", g.File, g.Line)), code(cmp.Or(g.Source, g.Callee)),
				nsText(g.NsPerOp1), nsText(g.NsPerOpN), s.CPU[len(s.CPU)-1], mech)
		}
		if h := s.HarnessBlockShare; h != nil {
			m.printf("- the harness's own waiting (RunParallel's WaitGroup, the benchmark goroutine waiting for its workers): %s of the block profile, not a finding\n", percent0(*h))
		}
		m.printf("\n")
	}
}

func nsText(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.3gms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.3gµs", ns/1e3)
	}
	return fmt.Sprintf("%.3gns", ns)
}

func (m *mdWriter) commands() {
	if len(m.doc.Commands) == 0 {
		return
	}
	var lines []string
	for i, c := range m.doc.Commands {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, "# "+oneLine(c.What), c.Command)
	}
	m.printf("### Reproduce\n\n%s", fenced("", "sh", lines))
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// mdText makes s literal text in GitHub-flavoured Markdown, on one line,
// in a paragraph, a list item, a heading or (through table) a table cell:
// every character that could open emphasis, a link or an image, a code
// span, strikethrough, math, a heading, an entity or an HTML tag is
// escaped, and so is a start that would open a block (a list item, a
// thematic break). A benchmark called **x** or [x](u) reads as its name.
// Pipes are escaped by table, the one place where they mean something.
func mdText(s string) string {
	s = oneLine(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\\', '`', '*', '_', '[', ']', '~', '$', '#':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return blockStart(b.String())
}

// blockStart escapes a start of s that would make a list item's text a
// list of its own or a thematic break: "-", "+", "12." or "3)". (A lone
// "===" is a setext underline only under a paragraph's line, and mdText's
// text is one line that starts a list item, a heading or a cell.)
func blockStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '-', '+':
		return "\\" + s
	}
	digits := 0
	for digits < len(s) && digits < 10 && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits > 0 && digits < len(s) && (s[digits] == '.' || s[digits] == ')') {
		return s[:digits] + "\\" + s[digits:]
	}
	return s
}

// code writes s as a code span, "" as nothing: between runs of backticks
// longer than any run inside it, with a space inside each when s starts or
// ends with a backtick, so the span closes only at its end and shows every
// character of s. Pipes are escaped by table.
func code(s string) string {
	s = oneLine(s)
	if s == "" {
		return ""
	}
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if s[0] == '`' || s[len(s)-1] == '`' {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// fenced writes lines as a fenced code block with the info string info,
// each line indented by indent (a line break inside an element, \r
// included, starts an indented line of its own, so the block stays in its
// list item). Its fence is longer than any run of backticks in the lines
// (and at least three), so no line can close it.
func fenced(indent, info string, lines []string) string {
	n := 3
	for _, l := range lines {
		n = max(n, longestRun(l, '`')+1)
	}
	fence := strings.Repeat("`", n)
	var b strings.Builder
	b.WriteString(indent + fence + info + "\n")
	for _, l := range lines {
		for _, part := range strings.Split(lineBreaks.Replace(l), "\n") {
			b.WriteString(indent + part + "\n")
		}
	}
	b.WriteString(indent + fence + "\n")
	return b.String()
}

// lineBreaks turns the line endings CommonMark knows into "\n".
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	return longest
}

var resultName = regexp.MustCompile(`~[rR][0-9]+`)

// compilerText is the compiler's words without its internal names: "~r0"
// is the function's first result.
func compilerText(s string) string {
	return resultName.ReplaceAllStringFunc(s, func(r string) string { return "result" + r[2:] })
}
