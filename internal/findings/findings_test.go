package findings

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

const mod = "example.com/m"

func f64(v float64) *float64 { return &v }

func metric(v float64) *document.Metric { return &document.Metric{Median: v, N: 6} }

// benchmark returns a benchmark entry with sec/op, allocs/op and B/op.
func benchmark(name string, sec, allocs, bytes float64) document.Benchmark {
	return document.Benchmark{Package: mod, Name: name, Status: "ok", Metrics: map[string]*document.Metric{
		"sec/op": metric(sec), "allocs/op": metric(allocs), "B/op": metric(bytes),
	}, ModuleCPUShare: f64(0.8), CalleeCPUShare: f64(0.9)}
}

func doc(bs ...document.Benchmark) *document.Report {
	return &document.Report{Schema: document.Schema, Module: mod, Benchmarks: bs}
}

func kinds(fs []document.Finding) []document.Kind {
	var ks []document.Kind
	for _, f := range fs {
		ks = append(ks, f.Kind)
	}
	return ks
}

func find(fs []document.Finding, kind document.Kind) *document.Finding {
	for i := range fs {
		if fs[i].Kind == kind {
			return &fs[i]
		}
	}
	return nil
}

// TestContentionNeedsGoroutines: scheduler time in a benchmark that runs
// one goroutine is never contention; in one that calls RunParallel it is.
func TestContentionNeedsGoroutines(t *testing.T) {
	serial := benchmark("BenchmarkSerial", 1e-6, 1, 64)
	par := benchmark("BenchmarkPar", 1e-6, 1, 64)
	par.Parallel = true
	d := doc(serial, par)
	for _, b := range []string{"BenchmarkSerial", "BenchmarkPar"} {
		d.Categories = append(d.Categories, document.CategoryShare{Benchmark: b, Package: mod, Category: "scheduler", Share: 0.35})
	}
	fs, gate := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		if f.Kind == document.KindContention {
			got = append(got, f.Benchmark)
		}
	}
	if len(got) != 1 || got[0] != "BenchmarkPar" {
		t.Errorf("contention findings for %v, want only BenchmarkPar", got)
	}
	for _, g := range gate {
		if g.Rule == "contention" && g.Benchmark != "BenchmarkPar" {
			t.Errorf("gate row %+v names a serial benchmark", g)
		}
	}
}

// TestOneFindingPerSite: a site that costs three benchmarks is one
// finding listing all three, ranked by its costliest.
func TestOneFindingPerSite(t *testing.T) {
	d := doc(benchmark("BenchmarkA", 1e-6, 2, 64), benchmark("BenchmarkB", 1e-6, 2, 64), benchmark("BenchmarkC", 1e-6, 2, 64))
	for i, b := range []string{"BenchmarkA", "BenchmarkB", "BenchmarkC"} {
		d.Categories = append(d.Categories, document.CategoryShare{Benchmark: b, Package: mod, Category: "gc", Share: 0.1 * float64(i+1)})
		d.Allocations = append(d.Allocations, document.Allocation{Benchmark: b, Package: mod, Function: mod + ".Key",
			File: "key.go", Line: 12, Via: "fmt.Sprintf", BytesShare: 0.9, ObjectsShare: 0.9, AllocsPerOp: 2, BytesPerOp: 64,
			Escape: &document.Escape{Cause: "callee", Reason: "the allocation is inside fmt.Sprintf"}})
	}
	fs, _ := Derive(d, Options{})
	var allocs []document.Finding
	for _, f := range fs {
		if f.Kind == document.KindAlloc {
			allocs = append(allocs, f)
		}
	}
	if len(allocs) != 1 {
		t.Fatalf("%d alloc findings, want 1: %v", len(allocs), kinds(fs))
	}
	f := allocs[0]
	if len(f.Benchmarks) != 3 || f.Benchmark != "BenchmarkC" {
		t.Errorf("benchmarks %v, top %s; want all three, BenchmarkC (most GC) first", f.Benchmarks, f.Benchmark)
	}
	if f.Rule != document.RuleAllocSite || f.File != "key.go" || f.Line != 12 {
		t.Errorf("%s at %s:%d, want %s at key.go:12", f.Rule, f.File, f.Line, document.RuleAllocSite)
	}
	for _, c := range f.Costs {
		if c.AllocsPerOp != 2 || c.BytesPerOp != 64 {
			t.Errorf("%s: %v allocs/op, %v B/op; want the site's 2 and 64", c.Benchmark, c.AllocsPerOp, c.BytesPerOp)
		}
	}
	// The fix follows the cause (fmt's boxing is written with strconv):
	// the advice is the point here.
	if !strings.Contains(f.Suggestion, "strconv.Append") {
		t.Errorf("suggestion %q, want strconv.Append* for fmt.Sprintf", f.Suggestion)
	}
}

// TestBrokenBenchmarks: below 1 ns/op, a loop that does no work, a skip,
// and B/op that moves with b.N are broken, never "leave alone".
func TestBrokenBenchmarks(t *testing.T) {
	// Work the compiler removed leaves no module code in the profile.
	fast := shares(benchmark("BenchmarkEliminated", 0.3e-9, 0, 0), 0.02, 0.9)
	idle := benchmark("BenchmarkEmpty", 8e-9, 0, 0)
	idle.ModuleCPUShare, idle.CalleeCPUShare = f64(0), f64(0.01)
	skip := document.Benchmark{Package: mod, Name: "BenchmarkWords", Status: "skipped", Error: "skipped: x_test.go:12: dict missing"}
	skip2 := document.Benchmark{Package: mod, Name: "BenchmarkWords2", Status: "skipped", Error: "skipped: x_test.go:12: dict missing"}
	drift := benchmark("BenchmarkKeeps", 1e-6, 1, 100)
	drift.BytesDrift = 3
	timed := benchmark("BenchmarkSetupTimed", 1e-6, 10, 5000)
	timed.LoopBytesPerOp = f64(40)
	timed.HeapBytesByIters = []document.IterSample{{Iters: 100, Value: 600}, {Iters: 400, Value: 160}}
	// Rows appended and never cleared: every run's B/op at one b.N (the
	// rounds' fixed count), above what the heap runs' difference gives
	// per op, as a timed setup's would be; but the heap runs' bytes per
	// iteration grow fourfold with their count.
	grows := benchmark("BenchmarkGrows", 1e-3, 100, 2328464)
	grows.LoopBytesPerOp = f64(206079)
	grows.HeapBytesByIters = []document.IterSample{{Iters: 40, Value: 41000}, {Iters: 160, Value: 160000}}
	// The same benchmark whose heap runs at 1 and 4 iterations are
	// dominated by a 327 KiB setup (bytes per iteration fall), but
	// whose rounds at 292 iterations report 1.2 MB/op where setup and
	// the runs' 194 KiB per iteration predict 195 KiB.
	grows2 := benchmark("BenchmarkGrowsPast", 3e-3, 100, 1224559)
	grows2.LoopBytesPerOp = f64(198640)
	grows2.HeapBytesByIters = []document.IterSample{{Iters: 1, Value: 492536}, {Iters: 4, Value: 282326}}
	grows2.BytesByIters = []document.IterSample{{Iters: 292, Value: 1224559}, {Iters: 292, Value: 1224560}, {Iters: 292, Value: 1224558}}
	// A timed setup whose rounds agree with that prediction stays one.
	timed2 := benchmark("BenchmarkSetupTimed2", 3e-3, 100, 200000)
	timed2.LoopBytesPerOp = f64(100000)
	timed2.HeapBytesByIters = []document.IterSample{{Iters: 1, Value: 10100000}, {Iters: 4, Value: 2600000}}
	timed2.BytesByIters = []document.IterSample{{Iters: 100, Value: 200000}}
	// A setup in the timer that the rounds (one fixed b.N) cannot show
	// and the heap runs' estimate of the loop does not reveal (the
	// loop's own bytes per op are above the reported ones): the heap
	// runs' bytes per iteration fall 3.2× when their count grows 4×, a
	// one-time cost of 11 MB that is 5% of the B/op at 1s. One of 300 KB
	// is 0.15%: a note, not broken.
	store := benchmark("BenchmarkStore", 8.772e-6, 3, 208)
	store.LoopBytesPerOp = f64(1741)
	store.HeapBytesByIters = []document.IterSample{{Iters: 569, Value: 21659.9}, {Iters: 2279, Value: 6713.2}}
	// The same fall in the heap runs' totals, but the B/op the testing
	// package reported in those runs does not fall: the one-time cost is
	// outside the timer (yaml.v3's inputs, made when its test package
	// initializes), not broken; the timer's B/op falling as well says it
	// is inside.
	initData := benchmark("BenchmarkInitData", 8.772e-6, 3, 208)
	initData.LoopBytesPerOp = f64(1741)
	initData.HeapBytesByIters = store.HeapBytesByIters
	initData.HeapTimedBytes = []document.IterSample{{Iters: 569, Value: 208.4}, {Iters: 2279, Value: 208.1}}
	storeTimed := benchmark("BenchmarkStoreTimed", 8.772e-6, 3, 208)
	storeTimed.LoopBytesPerOp = f64(1741)
	storeTimed.HeapBytesByIters = store.HeapBytesByIters
	storeTimed.HeapTimedBytes = []document.IterSample{{Iters: 569, Value: 20100}, {Iters: 2279, Value: 5200}}
	small := benchmark("BenchmarkStoreSmall", 8.772e-6, 3, 208)
	small.LoopBytesPerOp = f64(1740)
	small.HeapBytesByIters = []document.IterSample{{Iters: 5000, Value: 1800}, {Iters: 20000, Value: 1755}}
	fs, _ := Derive(doc(fast, idle, skip, skip2, drift, timed, grows, grows2, timed2, store, small, initData, storeTimed), Options{})
	broken := map[string]document.Rule{}
	said := map[string]string{} // what the finding says of each benchmark
	// The benchmarks of one package whose numbers depend on b.N are one
	// finding, each with its own words.
	onBN := map[document.Rule]string{
		document.RuleBrokenDriftUp:    "depend on b.N",
		document.RuleBrokenDriftDown:  "fall",
		document.RuleBrokenTimedSetup: "setup runs inside the timer",
	}
	bnFindings := 0
	skippers := 0
	for _, f := range fs {
		switch f.Kind {
		case document.KindBroken:
			for _, b := range f.Benchmarks {
				broken[b] = f.Rule
				for _, part := range strings.Split(f.Message, "; ") {
					if names, _, ok := strings.Cut(part, ": "); ok && slices.Contains(strings.Split(names, ", "), b) {
						said[b] = part
					}
				}
			}
			if onBN[f.Rule] != "" {
				bnFindings++
			}
			if f.Rule == document.RuleBrokenDriftUp && !strings.Contains(f.Suggestion, "give the fixture a fixed size") {
				// A fixture of b.N elements grows each op as b.N
				// does, as an accumulator the loop never resets.
				t.Errorf("%s: suggestion %q, want it to name a fixture of fixed size", f.Benchmark, f.Suggestion)
			}
			if f.Rule == document.RuleBrokenSkip {
				skippers = len(f.Benchmarks)
			}
		case document.KindLeaveAlone:
			t.Errorf("leave alone %s: a broken benchmark is never tight", f.Benchmark)
		}
	}
	for name, want := range map[string]document.Rule{
		"BenchmarkEliminated": document.RuleBrokenSubNs, "BenchmarkEmpty": document.RuleBrokenNoWork, "BenchmarkWords": document.RuleBrokenSkip,
		"BenchmarkKeeps": document.RuleBrokenDriftUp, "BenchmarkSetupTimed": document.RuleBrokenTimedSetup,
		"BenchmarkGrows": document.RuleBrokenDriftUp, "BenchmarkGrowsPast": document.RuleBrokenDriftUp,
		"BenchmarkSetupTimed2": document.RuleBrokenTimedSetup,
		"BenchmarkStore":       document.RuleBrokenDriftDown, "BenchmarkStoreSmall": "",
		"BenchmarkInitData": "", "BenchmarkStoreTimed": document.RuleBrokenDriftDown,
	} {
		if got := broken[name]; got != want && !(onBN[want] != "" && onBN[got] != "" && strings.Contains(said[name], onBN[want])) {
			t.Errorf("%s: broken by %q (%q), want %q", name, got, said[name], want)
		}
	}
	if bnFindings != 1 {
		t.Errorf("%d findings of benchmarks whose numbers depend on b.N, want them one", bnFindings)
	}
	if skippers != 2 {
		t.Errorf("the benchmarks that skip at one line are %d in one finding, want 2", skippers)
	}
}

// TestFixesThatFit: no map presizing without growth, no finding for
// appends to the caller's slice, and an inherent allocation is named so.
func TestFixesThatFit(t *testing.T) {
	b := benchmark("BenchmarkX", 1e-6, 4, 4000)
	d := doc(b)
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkX", Package: mod, Category: "gc", Share: 0.3}}
	site := func(fn string, line int64, bytesPerOp float64, e document.Escape) document.Allocation {
		return document.Allocation{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, File: "x.go", Line: line,
			BytesShare: 0.3, ObjectsShare: 0.3, AllocsPerOp: 1, BytesPerOp: bytesPerOp, Escape: &e}
	}
	d.Allocations = []document.Allocation{
		site("small", 10, 300, document.Escape{Cause: "map", Reason: "the map grows"}),
		site("AppendTo", 20, 300, document.Escape{Cause: "append", Name: "dst", Param: true}),
		site("New", 40, 300, document.Escape{Cause: "escapes", Name: "&T{...}", Flow: []string{"from &T{...} (return) at x.go:40"}, Sink: "return"}),
	}
	fs, _ := Derive(d, Options{})
	byLine := map[int64]document.Finding{}
	for _, f := range fs {
		byLine[f.Line] = f
	}
	if f, ok := byLine[10]; !ok || strings.Contains(f.Suggestion, "size the map on creation") {
		t.Errorf("small map: %+v; want a finding that does not say to size the map", f)
	}
	if _, ok := byLine[20]; ok {
		t.Error("append to the caller's slice dst is a finding")
	}
	// Inherent to the API: its impact is its CPU share times
	// InherentFactor.
	if f := byLine[40]; len(f.Costs) != 1 || f.Impact != f.Costs[0].CPUShare*DefaultThresholds.InherentFactor {
		t.Errorf("exported New returning its allocation: impact %v, costs %+v; want the share times %v", f.Impact, f.Costs, DefaultThresholds.InherentFactor)
	}
}

// TestPGOOnlyForMainPackages: no PGO row for a library; a measured row
// suggestion, never a generic range, where a main package imports it.
func TestPGOOnlyForMainPackages(t *testing.T) {
	d := doc(benchmark("BenchmarkX", 1e-6, 0, 0))
	d.Lines = []document.LineCost{{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".Work", File: "x.go", Line: 3, Category: "application", Self: 0.6, Cum: 0.6}}
	_, gate := Derive(d, Options{})
	for _, g := range gate {
		if g.Rule == "profile-guided optimization" {
			t.Errorf("PGO row for a library: %+v", g)
		}
	}
	d.MainPackages = []string{mod + "/cmd/m"}
	_, gate = Derive(d, Options{})
	found := false
	for _, g := range gate {
		if g.Rule == "profile-guided optimization" {
			found = true
			if strings.Contains(g.Message, "2–7%") || !strings.Contains(g.Message, "perfloop pgo") {
				t.Errorf("PGO row %q: want a pointer to measuring it, no generic range", g.Message)
			}
		}
	}
	if !found {
		t.Error("no PGO row for a module whose main package imports the measured code")
	}
}

// TestPGOMeasured: once perfloop pgo has measured the module, the gate
// states its figure: the best benchmark with its interval, or "no
// significant gain" and don't touch.
func TestPGOMeasured(t *testing.T) {
	d := doc(benchmark("BenchmarkX", 1e-6, 0, 0))
	d.MainPackages = []string{mod + "/cmd/m"}
	d.PGO = &document.PGOSummary{Commit: "0123456789abcdef", Date: "2026-11-23T17:00:00Z", Benchmarks: 3, Faster: 1, Geomean: -0.04,
		Best:         &document.PGOBenchmark{Name: "BenchmarkTotal", Delta: -0.12, Low: -0.14, High: -0.10, Significant: true},
		BuildSeconds: &document.PGOPair{Off: 6, PGO: 11}}
	row := func() document.Gate {
		_, gate := Derive(d, Options{})
		for _, g := range gate {
			if g.Rule == "profile-guided optimization" {
				return g
			}
		}
		t.Fatal("no PGO row")
		return document.Gate{}
	}
	g := row()
	want := "perfloop pgo measured it (0123456789ab, 2026-11-23T17:00:00Z): 1 of 3 benchmark(s) faster, best BenchmarkTotal -12.0% [-14.0%, -10.0%], geomean -4.0%, 0 slower; a build from an empty cache takes +83%"
	if g.Message != want || g.Verdict != document.VerdictConsider {
		t.Errorf("PGO row %q (%s), want %q (consider)", g.Message, g.Verdict, want)
	}
	d.PGO.Best, d.PGO.Faster, d.PGO.Geomean = nil, 0, 0.003
	g = row()
	if !strings.Contains(g.Message, "no significant gain") || g.Verdict != document.VerdictDontTouch {
		t.Errorf("PGO row %q (%s), want no significant gain, don't touch", g.Message, g.Verdict)
	}
	// Measured rows stand even for a library (PGO measured through a
	// binary's profile).
	d.MainPackages = nil
	if g = row(); !strings.Contains(g.Message, "measured") {
		t.Errorf("library: %q", g.Message)
	}
}

// TestCPUAtTheModuleFrontier: a stack walk and a sort called from the
// module's lines are causes at those lines; time that is only allocation
// is left to the allocation causes.
func TestCPUAtTheModuleFrontier(t *testing.T) {
	d := doc(benchmark("BenchmarkLog", 4e-6, 0, 0))
	line := func(l int64, callee, cat string, cum float64) document.LineCost {
		return document.LineCost{Benchmark: "BenchmarkLog", Package: mod, Function: mod + ".(*Entry).log", File: "entry.go", Line: l,
			Callee: callee, Category: document.Category(cat), Self: cum, Cum: cum}
	}
	d.Lines = []document.LineCost{
		line(180, "runtime.Callers", "other", 0.40),
		line(175, "sort.Strings", "sort", 0.16),
		line(190, "runtime.mallocgc", "memory", 0.30),
	}
	fs, _ := Derive(d, Options{})
	if len(fs) != 1 {
		t.Fatalf("%d findings %v, want one cause of (*Entry).log", len(fs), kinds(fs))
	}
	f := fs[0]
	if f.Rule != document.RuleCPUCall || f.File != "entry.go" || f.Line != 180 {
		t.Errorf("%s at %s:%d, want %s at the 40%% stack walk, entry.go:180", f.Rule, f.File, f.Line, document.RuleCPUCall)
	}
	var related []int64
	for _, l := range f.Related {
		related = append(related, l.Line)
	}
	if len(related) != 1 || related[0] != 175 {
		t.Errorf("related lines %v, want the sort at 175 (the allocation at 190 is the allocation causes')", related)
	}
	if f.Impact != 0.56 {
		t.Errorf("impact %v, want the stack walk and the sort, 0.56", f.Impact)
	}
}

// TestLeaveAloneOnlyWhenTight: a fast, allocation-free benchmark is left
// alone; a slow one with hot code of its own is not.
func TestLeaveAloneOnlyWhenTight(t *testing.T) {
	d := doc(benchmark("BenchmarkTight", 4e-9, 0, 0), benchmark("BenchmarkSlowLoop", 90e-6, 0, 0))
	fs, _ := Derive(d, Options{})
	var alone []string
	for _, f := range fs {
		if f.Kind == document.KindLeaveAlone {
			alone = append(alone, f.Benchmark)
		}
	}
	if len(alone) != 1 || alone[0] != "BenchmarkTight" {
		t.Errorf("left alone: %v, want only BenchmarkTight", alone)
	}
}

// TestRankingIsStable: findings whose impacts differ by less than the
// ranking bucket keep a fixed order (allocations, then file and line),
// whatever order the document lists them in.
func TestRankingIsStable(t *testing.T) {
	mk := func(order []int64) []int64 {
		d := doc(benchmark("BenchmarkX", 1e-6, 0, 0))
		for _, l := range order {
			d.Lines = append(d.Lines, document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".F" + string(rune('a'+l%26)),
				File: "x.go", Line: l, Callee: "sort.Sort", Category: "sort", Self: 0.2 + float64(l)/10000, Cum: 0.2 + float64(l)/10000})
		}
		fs, _ := Derive(d, Options{})
		var lines []int64
		for _, f := range fs {
			lines = append(lines, f.Line)
		}
		return lines
	}
	a, b := mk([]int64{5, 9, 2}), mk([]int64{2, 5, 9})
	if len(a) != 3 || a[0] != b[0] || a[1] != b[1] || a[2] != b[2] || a[0] != 2 {
		t.Errorf("orders %v and %v, want the same, by line within one bucket", a, b)
	}
}

// TestLintJoinsBroken: a benchmark broken by its numbers and by its source
// is one finding, at the source line (the source's reason, when it says
// why: no loop over b.N); a lint
// finding on a benchmark whose numbers look fine is a finding of its own,
// and that benchmark is never "leave alone".
func TestLintJoinsBroken(t *testing.T) {
	d := doc(benchmark("BenchmarkOnce", 2e-12, 0, 0), benchmark("BenchmarkFixture", 5e-6, 0, 0))
	d.Lint = []document.LintFinding{
		{Analyzer: "noloop", Package: mod, Benchmark: "BenchmarkOnce", File: "b_test.go", Line: 35,
			Message: "no loop over b.N and no b.Loop", Why: "the body runs once", Fix: "loop"},
		{Analyzer: "setup", Package: mod, Benchmark: "BenchmarkFixture", File: "b_test.go", Line: 23,
			Message: "setup Fixture runs before the b.N loop with the timer on", Why: "it is timed once", Fix: "call b.ResetTimer()"},
	}
	fs, _ := Derive(d, Options{})
	var broken []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionBroken {
			broken = append(broken, f)
		}
		if f.Section == document.SectionLeaveAlone && f.Benchmark == "BenchmarkFixture" {
			t.Errorf("BenchmarkFixture left alone: %s", f.Rule)
		}
	}
	if len(broken) != 2 {
		for _, f := range broken {
			t.Logf("%s:%d %s", f.File, f.Line, f.Message)
		}
		t.Fatalf("%d broken findings, want 2 (one per benchmark)", len(broken))
	}
	for _, f := range broken {
		switch f.Benchmark {
		case "BenchmarkOnce":
			// The source says why (no loop over b.N): the lint's
			// finding speaks, not the symptom's guess that the
			// compiler removed the work.
			if f.Rule != document.RuleBrokenLint || f.File != "b_test.go" || f.Line != 35 || f.Suggestion != "loop" || strings.Contains(f.Message, "removed the work") {
				t.Errorf("BenchmarkOnce: %+v; want the lint's finding at its line", f)
			}
		case "BenchmarkFixture":
			if f.Rule != document.RuleBrokenLint || f.Line != 23 || f.Suggestion != "call b.ResetTimer()" {
				t.Errorf("BenchmarkFixture: %+v; want the lint's finding with its fix", f)
			}
		default:
			t.Errorf("unexpected broken finding %s for %s", f.Rule, f.Benchmark)
		}
	}
}

// TestPasses: every pass runs after the passes it needs (bench passes
// before the others), and names only passes that exist.
func TestPasses(t *testing.T) {
	at := map[string]int{}
	for i, p := range passes {
		if (p.bench == nil) == (p.all == nil) || p.doc == "" {
			t.Errorf("pass %s: want one of bench and all, and a doc", p.name)
		}
		for _, n := range p.needs {
			j, ok := at[n]
			switch {
			case !ok:
				t.Errorf("pass %s needs %s, which does not run before it", p.name, n)
			case p.bench != nil && passes[j].all != nil:
				t.Errorf("bench pass %s needs %s, which runs after every bench pass", p.name, n)
			}
		}
		at[p.name] = i
	}
}

// TestPerRun checks that a program run's findings say "per run", never
// "/op", and speak of the whole run and of variants.
func TestPerRun(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"main: 9257146 allocs/op (187 MiB/op) in run: allocates inside strings.Split",
			"main: 9257146 allocs per run (187 MiB per run) in run: allocates inside strings.Split"},
		{"heap profile, per op with setup subtracted: main.go:14 allocates 9257146 allocs/op, 187 MiB/op in run (100% of its bytes, 100% of its objects)",
			"heap profile of the whole run: main.go:14 allocates 9257146 allocs per run, 187 MiB per run in run (100% of its bytes, 100% of its objects)"},
		{"−2.1M allocs/op and −64 MiB/op, up to 58% of its time (≈628ms/op of 1.08s/op) in run a, and less in 1 other benchmark",
			"−2.1M allocs per run and −64 MiB per run, up to 58% of its time (≈628ms per run of 1.08s per run) in run a, and less in 1 other variant"},
		{"more than 20% in 2 of 2 benchmarks: the allocation causes come first", "more than 20% in 2 of 2 variants: the allocation causes come first"},
		{"no figure here", "no figure here"},
	} {
		if got := perRun(tc.in, false); got != tc.want {
			t.Errorf("perRun(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestPerRunPartialHeap checks that when a run's heap profile is partial
// (written without a final collection), a site's figures are worded as
// what the profile holds, never as the run's, while CPU figures stay per
// run.
func TestPerRunPartialHeap(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"main: 9257146 allocs/op (187 MiB/op) in run: allocates inside strings.Split",
			"main: 9257146 allocs in the heap profile (187 MiB in the heap profile) in run: allocates inside strings.Split"},
		{"heap profile, per op with setup subtracted: main.go:14 allocates 9257146 allocs/op, 187 MiB/op in run (60% of its bytes, 55% of its objects)",
			"heap profile of the run's completed collection cycles (partial: see the run's notes): main.go:14 allocates 9257146 allocs in the heap profile, 187 MiB in the heap profile in run (60% of its bytes, 55% of its objects)"},
		{"−2.1M allocs/op and −64 MiB/op, up to 58% of its time (≈628ms/op of 1.08s/op) in run a",
			"−2.1M allocs in the heap profile and −64 MiB in the heap profile, up to 58% of its time (≈628ms per run of 1.08s per run) in run a"},
	} {
		if got := perRun(tc.in, true); got != tc.want {
			t.Errorf("perRun(%q, true)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestSpreadCost: a function whose lines each cost less than CPUMin but
// together cross SpreadMin is a cause (a normalizer's five calls, two
// unbuffered writes); lines that together stay under it, or a single
// small line, are not.
func TestSpreadCost(t *testing.T) {
	line := func(fn string, n int64, callee, cat string, cum float64) document.LineCost {
		return document.LineCost{Benchmark: "run", Package: mod, Function: mod + "." + fn, File: "norm.go", Line: n, Callee: callee, Category: document.Category(cat), Self: cum, Cum: cum}
	}
	d := doc(benchmark("run", 1, 0, 0))
	d.Lines = []document.LineCost{
		// normalize: five lines of 3% each, 15% together.
		line("normalize", 10, "strings.ToLower", "strings", 0.03),
		line("normalize", 11, "strings.TrimSpace", "strings", 0.03),
		line("normalize", 12, "strconv.ParseFloat", "other", 0.03),
		line("normalize", 13, "strconv.FormatFloat", "other", 0.03),
		line("normalize", 14, "strings.ReplaceAll", "strings", 0.03),
		// emit: two unbuffered writes of 3.2% each.
		line("emit", 30, "syscall.write", "syscall", 0.032),
		line("emit", 31, "syscall.write", "syscall", 0.032),
		// small: two lines of 1% each, 2% together.
		line("small", 50, "strings.ToUpper", "strings", 0.01),
		line("small", 51, "strings.ToUpper", "strings", 0.01),
		// alone: one line of 7%.
		line("alone", 60, "strconv.Itoa", "other", 0.07),
	}
	fs, _ := Derive(d, Options{})
	got := map[string]document.Finding{}
	for _, f := range fs {
		got[shortName(f.Function)] = f
	}
	n, ok := got["normalize"]
	if !ok || n.Rule != document.RuleCPUSpread || n.Kind != document.KindCPU {
		t.Errorf("normalize: %+v, want a %s finding", n, document.RuleCPUSpread)
	} else if c := n.Costs[0].CPUShare; c < 0.149 || c > 0.151 || len(n.Related) != 4 {
		t.Errorf("normalize: CPU share %v and %d related lines, want 15%% over 5 lines", c, len(n.Related)+1)
	}
	if e, ok := got["emit"]; !ok || e.Kind != document.KindIO || e.Rule != document.RuleCPUSpread {
		t.Errorf("emit: %+v, want an I/O finding of rule %s", e, document.RuleCPUSpread)
	}
	for _, fn := range []string{"small", "alone"} {
		if f, ok := got[fn]; ok {
			t.Errorf("%s: %s finding %q, want none", fn, f.Rule, f.Message)
		}
	}
}

// TestAdviceFromTheCall: sort.Slice's cost is in reflection (its swapper),
// but the advice is about sorting; library code in a program's run is not
// told to cache a result it computes once per input.
func TestAdviceFromTheCall(t *testing.T) {
	for _, tc := range []struct {
		name         string
		op           document.Op
		callee, cat  string
		want, unwant string
	}{
		{"sort.Slice", document.OpIteration, "sort.Slice", "reflect", "slices.SortFunc", "reflect once"},
		{"library call in a benchmark", document.OpIteration, "example.org/lib.Decode", "other", "keep its result where the same input recurs", ""},
		{"library call in a run", document.OpRun, "example.org/lib.Decode", "other", "per input", "cache its result"},
		// A value made through reflection (a decoder's slice for a field
		// of the caller's struct) is a value, not type information.
		{"reflect.MakeSlice", document.OpIteration, "reflect.MakeSlice", "reflect", "made through reflection", "cache"},
		// An append of strings copies them with write barriers: a copy,
		// not a result to cache.
		{"runtime.typedslicecopy", document.OpIteration, "runtime.typedslicecopy", "other", "write barrier", "cache its result"},
		// Entries copied out of a map and kept: one reused value does
		// not fit; storage for all of them, or a typed range, does.
		{"reflect.(*MapIter).Value", document.OpIteration, "reflect.(*MapIter).Value", "reflect", "typed range", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("run", 1, 0, 0))
			d.Op = tc.op
			d.Lines = []document.LineCost{{Benchmark: "run", Package: mod, Function: mod + ".keys", File: "k.go", Line: 7,
				Callee: tc.callee, Category: document.Category(tc.cat), Self: 0.3, Cum: 0.3}}
			fs, _ := Derive(d, Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			s := fs[0].Suggestion
			if !strings.Contains(s, tc.want) || (tc.unwant != "" && strings.Contains(s, tc.unwant)) {
				t.Errorf("suggestion %q, want %q in it and not %q", s, tc.want, tc.unwant)
			}
		})
	}
}

// TestDriverCallbacks: a call that hands the module a callback for each
// item it visits (filepath.WalkDir, sync.Once.Do) costs only its own
// time; the callbacks' time is the module's own lines' (the whole of a
// formatter was "main: filepath.WalkDir 60%"). A sort's comparisons stay
// the sort's cost.
func TestDriverCallbacks(t *testing.T) {
	d := doc(benchmark("run", 1, 0, 0))
	d.Lines = []document.LineCost{
		{Benchmark: "run", Package: mod, Function: mod + ".main", File: "main.go", Line: 268, Callee: "path/filepath.WalkDir", Category: "other", Self: 0.001, Cum: 0.6},
		{Benchmark: "run", Package: mod, Function: mod + ".sortKeys", File: "sort.go", Line: 9, Callee: "sort.SliceStable", Category: "sort", Self: 0.0, Cum: 0.13},
	}
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		got = append(got, shortName(f.Function))
	}
	if len(got) != 1 || got[0] != "sortKeys" {
		t.Errorf("findings for %v, want only sortKeys (the sort; the walk costs its own time only)", got)
	}
}

// TestPhases: the phases a program's run fans out into are findings of
// their own when they reach PhaseMin and no other cause names their
// function; the words say how much of a phase is allocation.
func TestPhases(t *testing.T) {
	d := doc(benchmark("run", 1, 0, 0))
	d.Op = document.OpRun
	phase := func(fn, caller string, line int64, share, mem float64) document.Phase {
		return document.Phase{Benchmark: "run", Package: mod, Function: mod + "." + fn, Caller: mod + "." + caller, File: "p.go", Line: line, Share: share, MemoryShare: mem}
	}
	d.Phases = []document.Phase{
		phase("ifClause", "stmt", 10, 0.20, 0.53),
		phase("Print", "format", 20, 0.117, 0),
		phase("small", "format", 21, 0.06, 0),
		phase("lookup", "format", 22, 0.15, 0),
	}
	// lookup has a cause of its own: a map access at one of its lines.
	d.Lines = []document.LineCost{{Benchmark: "run", Package: mod, Function: mod + ".lookup", File: "p.go", Line: 40, Callee: "runtime.mapaccess1_faststr", Category: "maps", Self: 0.12, Cum: 0.12}}
	fs, _ := Derive(d, Options{})
	got := map[string]document.Finding{}
	for _, f := range fs {
		if f.Rule == document.RuleCPUPhase {
			got[shortName(f.Function)] = f
		}
	}
	if len(got) != 2 {
		t.Fatalf("phase findings %v, want ifClause and Print", got)
	}
	ic := got["ifClause"]
	if ic.Line != 10 || !strings.Contains(ic.Message, "20% of the run") || !strings.Contains(ic.Suggestion, "allocation") {
		t.Errorf("ifClause: %s:%d %q, fix %q", ic.File, ic.Line, ic.Message, ic.Suggestion)
	}
	if p := got["Print"]; strings.Contains(p.Suggestion, "allocation findings") {
		t.Errorf("Print, no allocation: fix %q", p.Suggestion)
	}
}

// TestLibraryCallUnderTheCollector: a library call whose time below is
// mostly allocation or collection (the line's category memory or gc) is
// still that call's cost — a sort, a decoder — while a line that calls the
// runtime's allocator is the allocation causes' time.
func TestLibraryCallUnderTheCollector(t *testing.T) {
	d := doc(benchmark("run", 1, 0, 0))
	d.Op = document.OpRun
	line := func(fn string, n int64, callee, cat string, cum float64) document.LineCost {
		return document.LineCost{Benchmark: "run", Package: mod, Function: mod + "." + fn, File: "x.go", Line: n, Callee: callee, Category: document.Category(cat), Self: cum, Cum: cum}
	}
	d.Lines = []document.LineCost{
		line("sortItems", 10, "sort.SliceStable", "gc", 0.137),
		line("decode", 20, "encoding/json.(*Decoder).Decode", "memory", 0.32),
		line("grow", 30, "runtime.growslice", "memory", 0.2),
	}
	fs, _ := Derive(d, Options{})
	got := map[string]document.Finding{}
	for _, f := range fs {
		got[shortName(f.Function)] = f
	}
	if f, ok := got["sortItems"]; !ok || !strings.Contains(f.Message, "sort") {
		t.Errorf("sortItems: %+v, want a sorting cause", f)
	}
	if f, ok := got["decode"]; !ok || f.Kind != document.KindLibrary {
		t.Errorf("decode: %+v, want a library cause", f)
	}
	if f, ok := got["grow"]; ok {
		t.Errorf("grow: %q, want no CPU cause (the allocation causes' time)", f.Message)
	}
}

// TestWritesAcrossFunctions: unbuffered writes at lines of different
// functions are one I/O cause: a small one joins the cause of a larger
// one to the same callee, and small ones that reach SpreadMin together
// make one.
func TestWritesAcrossFunctions(t *testing.T) {
	line := func(fn string, n int64, callee string, cum float64) document.LineCost {
		return document.LineCost{Benchmark: "run", Package: mod, Function: mod + "." + fn, File: "w.go", Line: n, Callee: callee, Category: "syscall", Self: cum, Cum: cum}
	}
	for _, tc := range []struct {
		name   string
		lines  []document.LineCost
		cost   float64
		lines2 int
	}{
		{"a small write joins a larger one", []document.LineCost{line("flush", 31, "os.(*File).Write", 0.082), line("printValues", 388, "os.(*File).Write", 0.041)}, 0.123, 2},
		{"two small writes", []document.LineCost{line("flush", 31, "os.(*File).Write", 0.032), line("printValues", 388, "os.(*File).Write", 0.032)}, 0.064, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("run", 1, 0, 0))
			d.Lines = tc.lines
			fs, _ := Derive(d, Options{})
			var io []document.Finding
			for _, f := range fs {
				if f.Kind == document.KindIO {
					io = append(io, f)
				}
			}
			if len(io) != 1 {
				t.Fatalf("%d I/O findings, want 1: %+v", len(io), io)
			}
			f := io[0]
			if c := f.Costs[0].CPUShare; c < tc.cost-0.001 || c > tc.cost+0.001 || len(f.Related)+1 != tc.lines2 {
				t.Errorf("cost %v over %d lines, want %v over %d: %q", c, len(f.Related)+1, tc.cost, tc.lines2, f.Message)
			}
		})
	}
}

// TestTimedSetupScaledToOneSecond: a timed setup's measured share is
// scaled from the report's -benchtime to go test's default 1s before it
// is compared with TimedSetupShare: 5% of a 100ms run is 0.5% of a 1s
// run, a note; 5% of a 1s run stays 5%, a broken benchmark.
func TestTimedSetupScaledToOneSecond(t *testing.T) {
	for _, tc := range []struct {
		benchtime string
		want      document.Rule
	}{
		{"100ms", document.RuleTimedSetupSmall},
		{"1s", document.RuleBrokenLint},
		{"", document.RuleBrokenLint},
	} {
		d := specDoc([]any{bx(), setupLine(0.05), setupLint()})
		d.Benchtime = tc.benchtime
		fs, _ := Derive(d, Options{})
		var got []document.Rule
		for _, f := range fs {
			if f.File == "x_test.go" {
				got = append(got, f.Rule)
			}
		}
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("-benchtime %q: rules %v at the setup line, want %s", tc.benchtime, got, tc.want)
		}
	}
}

// TestOneCausePerFunction: a method's CPU (its lock and map update) and
// the value it boxes into the map are one cause of that method, also when
// the boxing is grouped with the type's other boxing sites; boxing sites
// in two methods stay the type's own cause.
func TestOneCausePerFunction(t *testing.T) {
	const fn = mod + ".(*cache).IncrementInt"
	box := func(f string, line int64) document.Allocation {
		return document.Allocation{Benchmark: "BenchmarkIncrementInt", Package: mod, Function: f, File: "cache.go", Line: line,
			BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 0.5, BytesPerOp: 8,
			Escape: &document.Escape{Cause: "interface", Reason: "nv escapes to the heap: converted to an interface that escapes: c.items[k] = v (assign)"}}
	}
	for _, tc := range []struct {
		name   string
		allocs []document.Allocation
		want   []document.Kind
	}{
		{"the boxing is in the method", []document.Allocation{box(fn, 272)}, []document.Kind{document.KindCPU}},
		{"the type boxes in two methods", []document.Allocation{box(fn, 272), box(mod+".(*cache).IncrementInt8", 296)},
			[]document.Kind{document.KindCPU, document.KindAlloc}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("BenchmarkIncrementInt", 60e-9, 0.5, 8))
			d.Allocations = tc.allocs
			d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkIncrementInt", Package: mod, Category: "gc", Share: 0.05}}
			line := func(n int64, callee, cat string, cum float64) document.LineCost {
				return document.LineCost{Benchmark: "BenchmarkIncrementInt", Package: mod, Function: fn, File: "cache.go", Line: n,
					Callee: callee, Category: document.Category(cat), Self: cum, Cum: cum}
			}
			d.Lines = []document.LineCost{
				line(260, "sync.(*RWMutex).Lock", "other", 0.25),
				line(274, "sync.(*RWMutex).Unlock", "other", 0.25),
				line(273, "runtime.mapassign_faststr", "maps", 0.19),
			}
			fs, _ := Derive(d, Options{})
			var got []document.Kind
			for _, f := range fs {
				got = append(got, f.Kind)
			}
			if strings.Join(kindStrings(got), " ") != strings.Join(kindStrings(tc.want), " ") {
				t.Fatalf("findings %v, want %v", got, tc.want)
			}
			if len(tc.want) == 1 && !slices.ContainsFunc(fs[0].Related, func(l document.Location) bool { return l.Line == 272 }) {
				t.Errorf("the CPU finding's related lines %v do not hold the boxing at 272", fs[0].Related)
			}
		})
	}
}

func kindStrings(ks []document.Kind) []string {
	var out []string
	for _, k := range ks {
		out = append(out, string(k))
	}
	return out
}

// TestOneFindingPerMistake: benchmarks one rule finds broken the same way
// (a one-time cost inside the timer of two benchmarks, the same lint
// message at two helpers' lines) are one finding naming each benchmark and
// line; a benchmark broken another way keeps its own.
func TestOneFindingPerMistake(t *testing.T) {
	falls := func(name string) document.Benchmark {
		b := benchmark(name, 1e-3, 1000, 1<<20)
		b.BytesDrift = 0.01
		return b
	}
	workers := func(name string, line int) document.LintFinding {
		return document.LintFinding{Package: mod, Benchmark: name, File: "x_test.go", Line: line, Analyzer: "workers",
			Message: "b.N / workers splits the iterations among goroutines with truncation", Why: "up to workers−1 ops never run",
			Fix: "use b.RunParallel"}
	}
	d := doc(falls("BenchmarkMarshalTo"), falls("BenchmarkParse"), shares(benchmark("BenchmarkFast", 0.3e-9, 0, 0), 0.02, 0.9),
		benchmark("BenchmarkGetConcurrent", 1e-6, 0, 0), benchmark("BenchmarkMapGetConcurrent", 1e-6, 0, 0))
	d.Lint = []document.LintFinding{workers("BenchmarkGetConcurrent", 1503), workers("BenchmarkMapGetConcurrent", 1525)}
	fs, _ := Derive(d, Options{})
	got := map[document.Rule][]string{}
	for _, f := range fs {
		if f.Kind != document.KindBroken {
			continue
		}
		var lines []string
		for _, l := range append([]document.Location{{File: f.File, Line: f.Line}}, f.Related...) {
			if l.Line > 0 {
				lines = append(lines, where(l.File, l.Line))
			}
		}
		got[f.Rule] = append(got[f.Rule], strings.Join(f.Benchmarks, ",")+" "+strings.Join(lines, ","))
	}
	want := map[document.Rule][]string{
		document.RuleBrokenDriftDown: {"BenchmarkMarshalTo,BenchmarkParse "},
		document.RuleBrokenSubNs:     {"BenchmarkFast "},
		document.RuleBrokenLint:      {"BenchmarkGetConcurrent,BenchmarkMapGetConcurrent x_test.go:1503,x_test.go:1525"},
	}
	for r, w := range want {
		if !slices.Equal(got[r], w) {
			t.Errorf("%s: %q, want %q", r, got[r], w)
		}
	}
}

// TestCallIntoTheModule: a line whose callee is the module's own function
// (a generic method's wrapper that the profile counts as a callee) is no
// cause of the caller when the callee has one: it is the callee's cost,
// which that cause holds in the caller's benchmark too. A callee with no
// cause of its own leaves the cost with the caller.
func TestCallIntoTheModule(t *testing.T) {
	const get, find = mod + ".(*node[go.shape.interface {}]).get", mod + ".items[go.shape.interface {}].find"
	call := document.LineCost{Benchmark: "BenchmarkGet", Package: mod, Function: get, File: "btree.go", Line: 322,
		Callee: find, Category: "other", Self: 0.27, Cum: 0.66}
	own := document.LineCost{Benchmark: "BenchmarkGetG", Package: mod, Function: find, File: "btree.go", Line: 216,
		Category: "application", Self: 0.7, Cum: 0.7}
	for _, tc := range []struct {
		name  string
		lines []document.LineCost
		want  string // function, benchmark: CPU share of each CPU finding
	}{
		{"the callee has a cause", []document.LineCost{call, own}, "items.find BenchmarkGet:0.66 BenchmarkGetG:0.70"},
		{"the callee has none", []document.LineCost{call}, "(*node).get BenchmarkGet:0.66"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("BenchmarkGet", 50e-9, 0, 0), benchmark("BenchmarkGetG", 50e-9, 0, 0))
			d.Lines = tc.lines
			fs, _ := Derive(d, Options{})
			var got []string
			for _, f := range fs {
				if f.Kind != document.KindCPU {
					continue
				}
				s := strings.NewReplacer("[go.shape.interface {}]", "").Replace(shortName(f.Function))
				costs := slices.Clone(f.Costs)
				slices.SortFunc(costs, func(a, b document.Cost) int { return strings.Compare(a.Benchmark, b.Benchmark) })
				for _, c := range costs {
					s += fmt.Sprintf(" %s:%.2f", c.Benchmark, c.CPUShare)
				}
				got = append(got, s)
			}
			if strings.Join(got, "; ") != tc.want {
				t.Errorf("CPU findings %q, want %q", got, tc.want)
			}
		})
	}
}

// TestTypeBoxingIsWhatItReturns: the boxing of what a type's methods
// return is one cause of the type (one way of building output); a value
// a method boxes to pass to a call is that method's allocation, with the
// method's other sites.
func TestTypeBoxingIsWhatItReturns(t *testing.T) {
	site := func(fn string, line int64, sink, reason string) document.Allocation {
		return document.Allocation{Benchmark: "BenchmarkRender", Package: mod, Function: mod + ".(*visitor)." + fn, File: "eval.go", Line: line,
			BytesShare: 0.3, ObjectsShare: 0.3, AllocsPerOp: 2, BytesPerOp: 32,
			Escape: &document.Escape{Cause: "interface", Sink: sink, Reason: reason}}
	}
	d := doc(benchmark("BenchmarkRender", 2e-6, 8, 128))
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkRender", Package: mod, Category: "gc", Share: 0.3}}
	d.Allocations = []document.Allocation{
		site("VisitContent", 891, "return", "node.Value escapes to the heap: converted to an interface that escapes: return node.Value (return)"),
		site("VisitString", 966, "return", "node.Value escapes to the heap: converted to an interface that escapes: return node.Value (return)"),
		site("evalField", 333, "heap", "fieldName escapes to the heap: converted to an interface that escapes: reflect.Value.MapIndex(ctx, nameVal) (call parameter)"),
		{Benchmark: "BenchmarkRender", Package: mod, Function: mod + ".(*visitor).evalField", File: "eval.go", Line: 336, Via: "reflect.Value.MapIndex",
			BytesShare: 0.1, ObjectsShare: 0.1, AllocsPerOp: 2, BytesPerOp: 32, Escape: &document.Escape{Cause: "callee"}},
	}
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		if f.Kind != document.KindAlloc {
			continue
		}
		lines := []string{fmt.Sprint(f.Line)}
		for _, r := range f.Related {
			lines = append(lines, fmt.Sprint(r.Line))
		}
		slices.Sort(lines)
		got = append(got, shortName(f.Function)+" "+strings.Join(lines, ","))
	}
	slices.Sort(got)
	want := []string{"(*visitor) 891,966", "(*visitor).evalField 333,336"}
	if !slices.Equal(got, want) {
		t.Errorf("allocation findings %q, want %q", got, want)
	}
}

// TestEncoderIsEncoding: a call into an encoder, compressor or hash is
// its library's cost, named for it and with its advice, whatever its time
// below is spent on (encoding/json sorts a map's keys; the time shows as
// sorting), in every benchmark alike; the function's small calls around
// it (each below CPUMin) join that cause.
func TestEncoderIsEncoding(t *testing.T) {
	for _, tc := range []struct {
		callee, cat string
		kind        document.Kind
		words       string
		related     int
	}{
		{"encoding/json.(*Encoder).Encode", "sort", document.KindLibrary, "encoding and decoding (json.(*Encoder).Encode)", 4},
		{"compress/flate.(*Writer).Write", "strings", document.KindLibrary, "compress", 4},
		// A function's own call: its cause, which leaves out the small
		// calls of a benchmark it costs CPUMin in.
		{"sort.Strings", "sort", document.KindCPU, "sorting (sort.Strings)", 1},
	} {
		const format = mod + ".(*JSONFormatter).Format"
		d := doc(benchmark("BenchmarkLarge", 3e-6, 0, 0), benchmark("BenchmarkSmall", 1e-6, 0, 0))
		line := func(b string, n int64, callee, cat string, cum float64) document.LineCost {
			return document.LineCost{Benchmark: b, Package: mod, Function: format, File: "json.go", Line: n,
				Callee: callee, Category: document.Category(cat), Self: 0.02, Cum: cum}
		}
		d.Lines = []document.LineCost{
			line("BenchmarkLarge", 123, tc.callee, tc.cat, 0.74),
			line("BenchmarkSmall", 123, tc.callee, calleeCategory(tc.callee), 0.5),
			line("BenchmarkLarge", 93, "time.Time.Format", "other", 0.05),
			line("BenchmarkLarge", 72, "runtime.mapIterStart", "maps", 0.05),
			line("BenchmarkLarge", 64, "runtime.makemap", "other", 0.05),
			line("BenchmarkLarge", 66, "", "application", 0.03),
		}
		fs, _ := Derive(d, Options{})
		if len(fs) != 1 || fs[0].Kind != tc.kind || !strings.Contains(fs[0].Message, tc.words) || len(fs[0].Related) != tc.related {
			t.Errorf("%s with its time in %s: %v, want one %s finding saying %q, with %d small calls", tc.callee, tc.cat, fs, tc.kind, tc.words, tc.related)
		}
	}
}

// TestBrokenByItsCode: a benchmark measured broken whose source perfloop
// lint faults too is told the fixes of those mistakes, at their lines,
// not only the symptom's generic fix.
func TestBrokenByItsCode(t *testing.T) {
	idle := benchmark("BenchmarkGetMany", 90e-9, 0, 0)
	idle.ModuleCPUShare, idle.CalleeCPUShare = f64(0), f64(0)
	d := doc(idle)
	lint := func(line int, msg, fix string) document.LintFinding {
		return document.LintFinding{Analyzer: "parallel", Package: mod, Benchmark: "BenchmarkGetMany", File: "c_test.go", Line: line, Message: msg, Why: "why", Fix: fix}
	}
	d.Lint = []document.LintFinding{
		lint(1558, "strconv.Itoa(n) formats the loop's bound n, not its index i", "format the index: strconv.Itoa(i)"),
		lint(1562, "b.N / n splits the iterations among goroutines with truncation", "use b.RunParallel"),
		lint(1566, "workers started before the timer starts", "start the timer before the go statements, or use b.RunParallel"),
	}
	fs, _ := Derive(d, Options{})
	if len(fs) != 1 || fs[0].Rule != document.RuleBrokenNoWork {
		t.Fatalf("findings %v, want the measured broken benchmark", kinds(fs))
	}
	f := fs[0]
	for _, want := range []string{"strconv.Itoa(i)", "use b.RunParallel", "start the timer before the go statements"} {
		if !strings.Contains(f.Suggestion, want) {
			t.Errorf("suggestion %q: want the lint's fix %q", f.Suggestion, want)
		}
	}
	if got := lines(&f); !slices.Contains(got, 1562) || !slices.Contains(got, 1566) {
		t.Errorf("related lines %v, want the lint's lines 1562 and 1566", got)
	}

	// Measured healthy, its code still broken: one finding for the
	// benchmark, with the fix of every mistake, not only the first's.
	busy := benchmark("BenchmarkGetMany", 90e-9, 0, 0)
	busy.ModuleCPUShare, busy.CalleeCPUShare = f64(0.6), f64(0.6)
	d.Benchmarks = doc(busy).Benchmarks
	fs, _ = Derive(d, Options{})
	if len(fs) != 1 || fs[0].Rule != document.RuleBrokenLint {
		t.Fatalf("findings %v, want one broken benchmark from its code", kinds(fs))
	}
	for _, want := range []string{"strconv.Itoa(i)", "use b.RunParallel", "start the timer before the go statements"} {
		if !strings.Contains(fs[0].Suggestion, want) {
			t.Errorf("suggestion %q: want the lint's fix %q", fs[0].Suggestion, want)
		}
	}
}

// withAlloc gives a line cost the part of it that is allocation.
func withAlloc(l document.LineCost, alloc float64) document.LineCost { l.Alloc = alloc; return l }

// TestAllocFromCPU: a run whose heap profile was written without a final
// collection misses the run's last collection cycles, so a line that
// allocates only in them is no site of the profile; the CPU profile's
// allocation time under the line (a call into the runtime's allocator)
// makes it an allocation cause, from SiteMin of the run's allocation and
// collection CPU, ranked with the heap profile's sites; a map
// assignment's time is mostly the map's, and only its allocation counts. A heap profile
// that holds the whole run, a line the heap profile names and a library
// call whose time below is allocation add none.
func TestAllocFromCPU(t *testing.T) {
	line := func(fn string, n int64, callee, cat string, self float64) document.LineCost {
		return document.LineCost{Benchmark: "run", Package: mod, Function: mod + "." + fn, File: "x.go", Line: n, Callee: callee, Category: document.Category(cat), Self: self, Cum: self}
	}
	lines := []document.LineCost{
		// next: boxing and appending in the run's last phase, 2.8%
		// together against a threshold of 5% of 30%.
		line("(*env).next", 76, "runtime.convTslice", "memory", 0.018),
		line("(*env).next", 76, "runtime.growslice", "memory", 0.007),
		line("(*env).next", 320, "runtime.convTslice", "memory", 0.003),
		// decode: a heap profile's site.
		line("decode", 20, "runtime.makeslice", "memory", 0.05),
		// sortKeys: sort.Slice's swapper allocates; the sort's cost.
		line("sortKeys", 40, "sort.Slice", "memory", 0.03),
		// small: under the threshold, 5% of the allocator's 20% (the
		// collector's time is mostly its own workers', no line's).
		line("small", 50, "runtime.newobject", "memory", 0.008),
		// boxed: over it, 1.2%.
		line("boxed", 60, "runtime.convT64", "memory", 0.012),
		// fill: a map assignment, mostly the map's time, 2% of it
		// allocation as the map grows.
		withAlloc(line("fill", 90, "runtime.mapassign_faststr", "maps", 0.05), 0.02),
	}
	for _, tc := range []struct {
		name    string
		finalGC string
		held    int64 // the heap profile's bytes of the 100 MB allocated
		want    []string
	}{
		{"partial", "skipped", 50e6, []string{"(*env).next x.go:76", "fill x.go:90", "boxed x.go:60"}},
		{"off", "off", 50e6, []string{"(*env).next x.go:76", "fill x.go:90", "boxed x.go:60"}},
		{"whole run", "collected", 50e6, nil},
		{"whole run, -finalgc on", "on", 99e6, nil},
		{"most of the run", "skipped", 95e6, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(benchmark("run", 1, 1e6, 100e6))
			d.Op = document.OpRun
			d.Run = &document.Run{Variants: []document.RunVariant{{Name: "run", FinalGC: tc.finalGC, AllocBytes: 100e6, HeapProfileBytes: tc.held}}}
			d.Categories = []document.CategoryShare{{Benchmark: "run", Package: mod, Category: "memory", Share: 0.2}, {Benchmark: "run", Package: mod, Category: "gc", Share: 0.1}}
			d.Allocations = []document.Allocation{{Benchmark: "run", Package: mod, Function: mod + ".decode", File: "x.go", Line: 20, Bytes: 50e6, Objects: 1e5, BytesShare: 1, ObjectsShare: 1}}
			d.Lines = lines
			fs, _ := Derive(d, Options{})
			var got []string
			for _, f := range fs {
				if f.Rule == document.RuleAllocCPU && shortName(f.Function) == "fill" {
					got = append(got, fmt.Sprintf("%s %s:%d", shortName(f.Function), f.File, f.Line))
					if c := f.Costs[0].CPUShare; c < 0.0199 || c > 0.0201 || !strings.Contains(f.Suggestion, "reuse one with clear(m)") {
						t.Errorf("fill: CPU share %v, fix %q: want 2%% (the allocation, not the map's time) and reusing the map", c, f.Suggestion)
					}
				} else if f.Rule == document.RuleAllocCPU && shortName(f.Function) == "boxed" {
					got = append(got, fmt.Sprintf("%s %s:%d", shortName(f.Function), f.File, f.Line))
				} else if f.Rule == document.RuleAllocCPU {
					got = append(got, fmt.Sprintf("%s %s:%d", shortName(f.Function), f.File, f.Line))
					if f.Kind != document.KindAlloc || f.Section != document.SectionFix {
						t.Errorf("%s: kind %s, section %s, want an allocation cause to fix", f.Function, f.Kind, f.Section)
					}
					if len(f.Related) != 1 || f.Related[0].Line != 320 {
						t.Errorf("%s: related %+v, want its other line 320", f.Function, f.Related)
					}
					// The advice is its costliest call's: boxing.
					for _, w := range []string{"2.8% of the run's CPU", "allocat", "heap profile", "-finalgc on", "avoid boxing"} {
						if !strings.Contains(f.Message+" "+f.Suggestion, w) {
							t.Errorf("%s: %q, fix %q: want %q", f.Function, f.Message, f.Suggestion, w)
						}
					}
					if c := f.Costs[0].CPUShare; c < 0.0279 || c > 0.0281 {
						t.Errorf("%s: CPU share %v, want 2.8%%", f.Function, c)
					}
				}
				if fn := shortName(f.Function); f.Kind == document.KindAlloc && (fn == "small" || fn == "sortKeys") {
					t.Errorf("%s: allocation finding %q, want none", fn, f.Message)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("allocation causes from the CPU profile: %v, want %v", got, tc.want)
			}
		})
	}
}

// TestAllocFromCPUJoined: a run's allocation known from the CPU profile
// that joins a costlier CPU cause of its function (map access at the same
// line) is said with its CPU share in that cause's words, never as a
// heap profile's zero bytes.
func TestAllocFromCPUJoined(t *testing.T) {
	d := doc(benchmark("run", 1, 1e6, 100e6))
	d.Op = document.OpRun
	d.Run = &document.Run{Variants: []document.RunVariant{{Name: "run", FinalGC: "skipped", AllocBytes: 100e6, HeapProfileBytes: 50e6}}}
	d.Categories = []document.CategoryShare{{Benchmark: "run", Package: mod, Category: "memory", Share: 0.2}, {Benchmark: "run", Package: mod, Category: "gc", Share: 0.1}}
	d.Lines = []document.LineCost{
		{Benchmark: "run", Package: mod, Function: mod + ".next", File: "x.go", Line: 70, Callee: "runtime.mapassign_faststr", Category: "maps", Self: 0.05, Cum: 0.05, Alloc: 0.022},
		{Benchmark: "run", Package: mod, Function: mod + ".next", File: "x.go", Line: 69, Callee: "runtime.mapaccess2_faststr", Category: "maps", Self: 0.04, Cum: 0.04},
	}
	fs, _ := Derive(d, Options{})
	var next []document.Finding
	for _, f := range fs {
		if shortName(f.Function) == "next" {
			next = append(next, f)
		}
	}
	if len(next) != 1 {
		t.Fatalf("%d findings of next, want 1: %+v", len(next), next)
	}
	if m := next[0].Message; !strings.Contains(m, "it also allocates: 2.2% of the run's CPU is allocation at x.go:70") || strings.Contains(m, "0 B") || strings.Contains(m, "0 allocs") {
		t.Errorf("next: %q, want its allocation's CPU share and no bytes", m)
	}
}

// TestBrokenFailing: a benchmark named for success that makes an error
// value on every op measures the failure path (a misspelt field name in
// its input); its twin that makes none, a benchmark named for failure,
// and one whose error values are rare are not called so.
func TestBrokenFailing(t *testing.T) {
	fieldErr := func(bench string, allocs float64) document.Allocation {
		return document.Allocation{Benchmark: bench, Package: mod, Function: mod + ".(*validate).traverseField", File: "validator.go", Line: 484,
			BytesShare: 0.3, ObjectsShare: 0.2, AllocsPerOp: allocs, BytesPerOp: 144 * allocs,
			Escape: &document.Escape{Cause: "escapes", Sink: "call", Into: "append", Name: "&fieldError{...}"}}
	}
	d := doc(benchmark("BenchmarkStructExceptSuccess", 1e-6, 10, 520), benchmark("BenchmarkStructExceptSuccessParallel", 1e-6, 4, 272),
		benchmark("BenchmarkStructExceptFailure", 1e-6, 10, 520), benchmark("BenchmarkRareSuccess", 1e-6, 10, 520))
	d.Allocations = []document.Allocation{fieldErr("BenchmarkStructExceptSuccess", 1), fieldErr("BenchmarkStructExceptFailure", 1), fieldErr("BenchmarkRareSuccess", 0.05)}
	fs, _ := Derive(d, Options{})
	failing := map[string]bool{}
	for _, f := range fs {
		if f.Rule == document.RuleBrokenFailing {
			for _, b := range f.Benchmarks {
				failing[b] = true
			}
		}
	}
	for name, want := range map[string]bool{"BenchmarkStructExceptSuccess": true, "BenchmarkStructExceptSuccessParallel": false, "BenchmarkStructExceptFailure": false, "BenchmarkRareSuccess": false} {
		if failing[name] != want {
			t.Errorf("%s measures the failure path: %v, want %v", name, failing[name], want)
		}
	}
}

// TestBrokenDroppedError: a benchmark that drops the error of the call
// in its loop while the module builds an error on every op measures the
// failure path (hamba/avro's generic encode of a map whose "Name" key
// misses the schema's "name"): one broken finding at the benchmark's
// line, and the error's formatting is no change to the module. Named for
// a failure, or with its error checked (no shape), it is not broken.
func TestBrokenDroppedError(t *testing.T) {
	errorf := func(bench string) document.Allocation {
		return document.Allocation{Benchmark: bench, Package: mod, Function: mod + ".(*recordMapEncoder).Encode", File: "codec_record.go", Line: 388, Via: "fmt.Errorf",
			BytesShare: 1, ObjectsShare: 1, AllocsPerOp: 3, BytesPerOp: 80,
			Escape: &document.Escape{Cause: "interface", Sink: "call", Name: "field.name", Reason: "field.name escapes to the heap: converted to an interface that escapes: fmt.errorf(fmt.format, fmt.a...) (call parameter)",
				Flow: []string{`  from fmt.format, fmt.a := "avro: missing required field %s", ... argument (assign-pair) at codec_record.go:388:25`}}}
	}
	dropped := func(bench string, line int64) document.Shape {
		return document.Shape{Name: "error-discarded", File: "bench_test.go", Line: line, Function: mod + "_test." + bench,
			Says: bench + " drops the error avro.Marshal returns, to _, in its loop", Advice: "check the error once, before the loop"}
	}
	fmtLine := func(bench string) document.LineCost {
		return document.LineCost{Benchmark: bench, Package: mod, Function: mod + ".(*recordMapEncoder).Encode", File: "codec_record.go", Line: 388,
			Callee: "fmt.errorf", Category: "fmt", Self: 0.25, Cum: 0.25}
	}
	var parts []any
	for i, name := range []string{"BenchmarkGenericEncode", "BenchmarkEncodeInvalid", "BenchmarkChecked"} {
		parts = append(parts, benchmark(name, 4e-7, 3, 80), errorf(name), fmtLine(name))
		if name != "BenchmarkChecked" {
			parts = append(parts, dropped(name, int64(140+i)))
		}
	}
	fs, _ := Derive(specDoc(parts), Options{})
	failing := map[string]document.Finding{}
	fixAt := map[string]bool{}
	for _, f := range fs {
		if f.Rule == document.RuleBrokenFailing {
			for _, b := range f.Benchmarks {
				failing[b] = f
			}
		}
		if f.Section == document.SectionFix && f.File == "codec_record.go" {
			for _, b := range f.Benchmarks {
				fixAt[b] = true
			}
		}
	}
	f, ok := failing["BenchmarkGenericEncode"]
	if !ok || f.File != "bench_test.go" || f.Line != 140 || !strings.Contains(f.Message, `fmt.Errorf("avro: missing required field %s") at codec_record.go:388`) || !strings.Contains(f.Suggestion, "check the error") {
		t.Errorf("BenchmarkGenericEncode: %+v; want broken at bench_test.go:140, naming fmt.Errorf at codec_record.go:388 and the check", f)
	}
	if fixAt["BenchmarkGenericEncode"] {
		t.Error("the failure path's fmt.Errorf is still a fix of the module in the benchmark that fails")
	}
	for _, name := range []string{"BenchmarkEncodeInvalid", "BenchmarkChecked"} {
		if _, bad := failing[name]; bad {
			t.Errorf("%s is called broken; it measures its failure on purpose or checks its error", name)
		}
	}
}

// TestComponentBenchmarksWeighLess: a cache package's Get benchmark,
// whose profile stays in the cache, weighs less than the renderer's
// benchmark, whose profile reaches the renderer, the width functions and
// the same cache: its 70% lock cost ranks after the renderer's 30%.
func TestComponentBenchmarksWeighLess(t *testing.T) {
	get := benchmark("BenchmarkGet", 80e-9, 0, 0)
	get.Package = mod + "/cache"
	render := benchmark("BenchmarkRender", 1e-3, 0, 0)
	render.Package = mod + "/tests"
	d := doc(get, render)
	d.Lines = []document.LineCost{
		{Benchmark: "BenchmarkGet", Package: mod + "/cache", Function: mod + "/cache.(*LRU).Get", File: "cache/lru.go", Line: 10, Callee: "runtime.mapaccess2_faststr", Category: "maps", Self: 0.7, Cum: 0.7},
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + ".(*Table).render", File: "table.go", Line: 50, Callee: "strings.genSplit", Category: "strings", Self: 0.3, Cum: 0.3},
	}
	d.Hotspots = []document.Hotspot{
		{Benchmark: "BenchmarkGet", Package: mod + "/cache", Function: mod + "/cache.(*LRU).Get", Flat: 0.7, Cum: 0.9},
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + ".(*Table).render", Flat: 0.3, Cum: 0.9},
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + "/width.Width", Flat: 0.1, Cum: 0.2},
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + "/cache.(*LRU).Get", Flat: 0.1, Cum: 0.1},
	}
	fs, _ := Derive(d, Options{})
	if len(fs) < 2 || fs[0].File != "table.go" {
		var got []string
		for _, f := range fs {
			got = append(got, fmt.Sprintf("%s:%d (%.2f)", f.File, f.Line, f.Impact))
		}
		t.Fatalf("findings %v; want the renderer's table.go:50 first", got)
	}
}

// TestConsumedOneFinding: the same drained-container mistake in the
// helpers of two packages is one broken finding naming both places and
// both packages' benchmarks.
func TestConsumedOneFinding(t *testing.T) {
	d := doc(benchmark("BenchmarkListRemove", 5e-6, 0, 0), benchmark("BenchmarkTreeRemove", 5e-6, 0, 0))
	d.Benchmarks[1].Package = mod + "/tree"
	d.Lint = []document.LintFinding{
		{Analyzer: "consumed", Package: mod, Benchmark: "BenchmarkListRemove", Benchmarks: []string{"BenchmarkListRemove"}, File: "list_test.go", Line: 10,
			Message: "every iteration removes from list (Remove)", Why: "the first iteration empties it", Fix: "fill it again"},
		{Analyzer: "consumed", Package: mod + "/tree", Benchmark: "BenchmarkTreeRemove", Benchmarks: []string{"BenchmarkTreeRemove"}, File: "tree/tree_test.go", Line: 20,
			Message: "every iteration removes from tree (Remove)", Why: "the first iteration empties it", Fix: "fill it again"},
	}
	fs, _ := Derive(d, Options{})
	var broken []document.Finding
	for _, f := range fs {
		if f.Section == document.SectionBroken {
			broken = append(broken, f)
		}
	}
	if len(broken) != 1 || len(broken[0].Benchmarks) != 2 || !strings.Contains(broken[0].Message, "tree/tree_test.go:20") {
		t.Fatalf("broken findings %+v, want one naming both helpers and both benchmarks", broken)
	}
}

// TestShortNameVersionedPackage: a package whose path ends in a version
// element (gopkg.in/yaml.v3) names its functions without the package.
func TestShortNameVersionedPackage(t *testing.T) {
	for in, want := range map[string]string{
		"gopkg.in/yaml.v3.(*parser).node": "(*parser).node",
		"gopkg.in/yaml.v3.resolve":        "resolve",
		"example.com/m.(*T).Add":          "(*T).Add",
		"example.com/m.init.func1":        "a package-level func literal (init.func1)",
		"main":                            "main",
	} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
	if got := pkgOf("gopkg.in/yaml.v3.(*decoder).sequence"); got != "gopkg.in/yaml.v3" {
		t.Errorf("pkgOf = %q, want gopkg.in/yaml.v3", got)
	}
}

// TestErrorPathWeighsLess: a benchmark whose loop enters the module at an
// error's Error method measures the text of a failure: its 64%
// concatenation ranks after a request path's 30% formatting.
func TestErrorPathWeighsLess(t *testing.T) {
	errb := benchmark("BenchmarkSliceError", 4e-6, 8, 1900)
	logb := benchmark("BenchmarkLogger", 1e-6, 9, 252)
	d := doc(errb, logb)
	d.Benchmarks[0].CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkSliceError", mod + ".SliceError.Error", "runtime.concatstring4"}, Share: 0.9}
	d.Benchmarks[1].CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkLogger", mod + ".Logger", "fmt.Sprintf"}, Share: 0.9}
	d.Lines = []document.LineCost{
		{Benchmark: "BenchmarkSliceError", Package: mod, Function: mod + ".SliceError.Error", File: "errors.go", Line: 35, Callee: "runtime.concatstring4", Category: "strings", Self: 0.64, Cum: 0.64},
		{Benchmark: "BenchmarkLogger", Package: mod, Function: mod + ".Logger", File: "logger.go", Line: 185, Callee: "fmt.Sprintf", Category: "fmt", Self: 0.3, Cum: 0.3},
	}
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		if f.Section == document.SectionFix {
			got = append(got, fmt.Sprintf("%s:%d", f.File, f.Line))
		}
	}
	if len(got) < 2 || got[0] != "logger.go:185" {
		t.Fatalf("fixes %v; want the logger's logger.go:185 before the error's text", got)
	}
}

// TestSubNanosecondInBLoop: below 1 ns in a b.Loop loop is not "the
// compiler removed the work (use b.Loop)": the call is kept; what it does
// with a result nothing reads costs nothing, and a sink tells.
func TestSubNanosecondInBLoop(t *testing.T) {
	raw := shares(benchmark("BenchmarkStrToBytesRaw", 0.8e-9, 0, 0), 0.02, 0.9)
	d := doc(raw)
	d.Shapes = []document.Shape{{Name: "b-loop", File: "x_test.go", Line: 10, Function: mod + ".BenchmarkStrToBytesRaw", Says: "BenchmarkStrToBytesRaw loops with b.Loop"}}
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.Rule != document.RuleBrokenSubNs {
			continue
		}
		if !strings.Contains(f.Message, "though it loops with b.Loop") || strings.Contains(f.Suggestion, "or loop with b.Loop") || !strings.Contains(f.Suggestion, "sink") {
			t.Fatalf("sub-ns in b.Loop: %q / %q", f.Message, f.Suggestion)
		}
		return
	}
	t.Fatal("no sub-nanosecond finding")
}

// TestReflectTempNotDecoded: in a decoding benchmark, reflect.New's value
// is what decoding builds for the caller, the API's cost; a reflect.New
// temporary copied into a slot the decoder made (a reflect-temp shape at
// its line) is a fix.
func TestReflectTempNotDecoded(t *testing.T) {
	for _, withShape := range []bool{false, true} {
		b := benchmark("BenchmarkDeep", 1e-3, 4000, 70000)
		b.CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkDeep", mod + ".Unmarshal", mod + ".(*decoder).sequence", "reflect.New"}, Share: 0.9}
		d := doc(b)
		d.Allocations = []document.Allocation{{Benchmark: "BenchmarkDeep", Package: mod, Function: mod + ".(*decoder).sequence", File: "decode.go", Line: 752,
			Via: "reflect.New", BytesShare: 0.4, ObjectsShare: 0.4, AllocsPerOp: 3000, BytesPerOp: 48000, Escape: &document.Escape{}}}
		if withShape {
			d.Shapes = []document.Shape{{Name: "reflect-temp", File: "decode.go", Line: 752, Function: mod + ".(*decoder).sequence",
				Says: "sequence makes e with reflect.New(et) on every iteration", Advice: "work on out.Index(j) directly"}}
		}
		fs, _ := Derive(d, Options{})
		section := document.Section("")
		for _, f := range fs {
			if f.File == "decode.go" && f.Line == 752 {
				section = f.Section
			}
		}
		want := document.SectionAPI
		if withShape {
			want = document.SectionFix
		}
		if section != want {
			t.Errorf("reflect-temp shape %v: the allocation is in section %q, want %q", withShape, section, want)
		}
	}
}

// TestCompileWeighsLess: a benchmark whose loop enters the module at a
// package-level Compile measures what a program does once per pattern:
// its 60% concatenation ranks after a match path's 30% formatting, as a
// micro-benchmark's would; with no benchmark of running, it keeps its
// weight.
func TestCompileWeighsLess(t *testing.T) {
	for _, tc := range []struct {
		name  string
		match bool
		want  string
	}{
		{"beside a benchmark that runs", true, "match.go:20"},
		{"alone", false, "syntax.go:35"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			comp := benchmark("BenchmarkCompile", 4e-6, 8, 1900)
			runb := benchmark("BenchmarkMatch", 1e-6, 9, 252)
			d := doc(comp, runb)
			d.Benchmarks[0].CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkCompile", mod + ".Compile", mod + ".parse"}, Share: 0.9}
			d.Benchmarks[1].CallPath = &document.CallPath{Functions: []string{mod + ".BenchmarkMatch", mod + ".(*Regexp).MatchString", "fmt.Sprintf"}, Share: 0.9}
			d.Lines = []document.LineCost{
				{Benchmark: "BenchmarkCompile", Package: mod, Function: mod + ".parse", File: "syntax.go", Line: 35, Callee: "runtime.concatstring4", Category: "strings", Self: 0.6, Cum: 0.6},
				{Benchmark: "BenchmarkMatch", Package: mod, Function: mod + ".(*Regexp).MatchString", File: "match.go", Line: 20, Callee: "fmt.Sprintf", Category: "fmt", Self: 0.3, Cum: 0.3},
			}
			if !tc.match {
				d.Benchmarks[1].CallPath.Functions[1] = mod + ".MustCompile"
			}
			fs, _ := Derive(d, Options{})
			var got []string
			for _, f := range fs {
				if f.Section == document.SectionFix {
					got = append(got, fmt.Sprintf("%s:%d", f.File, f.Line))
				}
			}
			if len(got) < 2 || got[0] != tc.want {
				t.Fatalf("fixes %v; want %s first", got, tc.want)
			}
		})
	}
}

// TestAPIUnrun: when no benchmark runs the root package's API (no
// exported function of it in any profile, no benchmark calling one), each
// API type of the root package is named first among the notes on the
// benchmarks; a profile naming one of its methods, or a benchmark that
// calls the API, and there is no such finding.
func TestAPIUnrun(t *testing.T) {
	api := document.Shape{Name: "api-type", File: "cache.go", Line: 41, Function: "",
		Says:    "Cache's API: NewCache, (*Cache).Get, (*Cache).Set",
		Related: []document.Location{{File: "cache.go", Line: 50, Note: mod + ".NewCache"}, {File: "cache.go", Line: 60, Note: mod + ".(*Cache).Get"}, {File: "cache.go", Line: 70, Note: mod + ".(*Cache).Set"}}}
	internal := benchmark("BenchmarkStoreGet", 30e-9, 0, 0)
	line := document.LineCost{Benchmark: "BenchmarkStoreGet", Package: mod, Function: mod + ".(*lockedMap).get", File: "store.go", Line: 167, Callee: "runtime.mapaccess2_fast64", Category: "maps", Self: 0.4, Cum: 0.4}
	for _, tc := range []struct {
		name  string
		lines []document.LineCost
		extra []document.Shape
		want  bool
	}{
		{"only internals run", []document.LineCost{line}, nil, true},
		{"a method of the type runs", []document.LineCost{line, {Benchmark: "BenchmarkStoreGet", Package: mod, Function: mod + ".(*Cache[...]).processItems", File: "cache.go", Line: 540, Callee: "runtime.selectgo", Category: "scheduler", Self: 0.1, Cum: 0.1}}, nil, false},
		{"a benchmark calls the API", []document.LineCost{line}, []document.Shape{{Name: "api-benchmarked", File: "cache_test.go", Line: 10, Function: mod + ".BenchmarkCache", Says: "BenchmarkCache calls NewCache of the package it benchmarks"}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := doc(internal)
			d.Lines = tc.lines
			d.Shapes = append([]document.Shape{api}, tc.extra...)
			fs, _ := Derive(d, Options{})
			var got *document.Finding
			for i, f := range fs {
				if f.Rule == document.RuleAPIUnrun {
					got = &fs[i]
				}
			}
			if (got != nil) != tc.want {
				t.Fatalf("api-unrun finding %+v, want %v", got, tc.want)
			}
			if got != nil {
				if got.Section != document.SectionBenchmark || got.Kind != document.KindCoverage || !strings.Contains(got.Message, "no benchmark runs Cache: none of NewCache, (*Cache).Get, (*Cache).Set") {
					t.Errorf("finding %s %s %q", got.Section, got.Kind, got.Message)
				}
				for _, f := range fs {
					if f.Section == document.SectionBenchmark || f.Section == document.SectionBroken {
						if f.Rule != document.RuleAPIUnrun {
							t.Errorf("%s before the API's note; want the note first", f.Rule)
						}
						break
					}
				}
			}
		})
	}
}
