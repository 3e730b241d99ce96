package findings

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// specCase is one case of the specification: a small document built at
// the edge of one threshold, and what Derive makes of it, one line per
// finding in order, then one per gate row (see specLines).
type specCase struct {
	name string
	doc  []any // the document's parts (see specDoc)
	want []string
}

// specCases are the package doc's rules, each threshold at its edge: a
// case with the measured value at 1.3× the threshold and one at 0.7×
// (the rule fires on one side and not on the other), and, for the
// thresholds that grade or order rather than decide, a case whose order,
// severity, impact or named parts move with the threshold. A case is
// named after the fields it pins ("SevHigh+SevMedium/…"), then what it
// measures, against DefaultThresholds.
var specCases = []specCase{
	// Allocation causes.
	{name: "SiteMin/6.5% of the bytes is a cause",
		doc:  []any{bx(), gc(0.2), site("F", "x.go", 10, 0.065)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 1.3%"}},
	{name: "SiteMin/3.5% of the bytes is not",
		doc:  []any{bx(), gc(0.2), site("F", "x.go", 10, 0.035)},
		want: nil},
	{name: "SiteMin/a run's allocation its partial heap profile misses, 6.5% of the allocator's time, is a cause",
		doc:  []any{bx(), category("memory", 0.2), gc(0.4), partialHeap(), allocLine("F", "x.go", 10, 0.065*0.2)},
		want: []string{"alloc-cpu fix low x.go:10 BenchmarkX 1.3%", "gate reduce-allocations-first first - 60.0%"}},
	{name: "SiteMin/3.5% is not",
		doc:  []any{bx(), category("memory", 0.2), gc(0.4), partialHeap(), allocLine("F", "x.go", 10, 0.035*0.2)},
		want: []string{"gate reduce-allocations-first first - 60.0%"}},
	{name: "SiteMin/a heap profile of the whole run says what the line allocates",
		doc:  []any{bx(), category("memory", 0.2), wholeHeap(), allocLine("F", "x.go", 10, 0.065*0.2)},
		want: nil},
	{name: "ShapedSiteMin/3.25% of the bytes is a cause where a shape at the line names a change",
		doc:  []any{bx(), gc(0.2), copied(site("F", "x.go", 10, 0.0325)), copyOverride("x.go", 10)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 0.7% shape=copy-override gain:no-cpu"}},
	{name: "ShapedSiteMin/1.75% is not",
		doc:  []any{bx(), gc(0.2), copied(site("F", "x.go", 10, 0.0175)), copyOverride("x.go", 10)},
		want: nil},
	{name: "ShapedSiteMin/3.25% with no shape at the line is not",
		doc:  []any{bx(), gc(0.2), copied(site("F", "x.go", 10, 0.0325))},
		want: nil},
	{name: "RareAllocs+RareBytes/under once per 20 ops with 14% of the bytes is a rare branch",
		doc:  []any{bx(), gc(0.1), rare(site("F", "x.go", 10, 0.3), 0.035, 0.14)},
		want: nil},
	{name: "RareAllocs/once per 15 ops is not rare",
		doc:  []any{bx(), gc(0.1), rare(site("F", "x.go", 10, 0.3), 0.065, 0.14)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 2.2%"}},
	{name: "RareBytes/a rare site with 26% of the bytes is a cause",
		doc:  []any{bx(), gc(0.1), rare(site("F", "x.go", 10, 0.3), 0.035, 0.26)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 2.8%"}},
	{name: "RareBytesPerOp/under once per 20 ops with all the bytes, 179 B/op, is a rare branch (a pooled reader's buffer, made when the pool is fresh)",
		doc:  []any{bx(), gc(0.1), rareBytes(site("F", "x.go", 10, 0.3), 0.035, 1, 179)},
		want: nil},
	{name: "RareBytesPerOp/with 333 B/op it is a cause",
		doc:  []any{bx(), gc(0.1), rareBytes(site("F", "x.go", 10, 0.3), 0.035, 1, 333)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 6.5%"}},
	{name: "PartsMaxBytes/parts of 717 B an allocation are carved out of one allocation",
		doc:  []any{bx(), gc(0.2), partsSite(717), partsApart("x.go", 10)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 6.0% shape=parts-apart"}},
	{name: "PartsMaxBytes/parts of 1331 B an allocation cost their bytes: no carving",
		doc:  []any{bx(), gc(0.2), partsSite(1331), partsApart("x.go", 10)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 6.0%"}},
	{name: "InherentFactor/an exported function returning what it allocates ranks at half its cost",
		doc: []any{bx(), gc(0.6),
			escapesByResult(site("New", "a.go", 10, 0.5)), // 30% of the CPU, its impact 15%
			site("build", "b.go", 20, 0.34)},              // 20.4%
		want: []string{
			"alloc-site fix high b.go:20 BenchmarkX 20.4%",
			"alloc-site api low a.go:10 BenchmarkX 15.0%",
			"gate reduce-allocations-first first - 60.0%"}},

	{name: "InherentFactor/a String method's returned string ranks at half its cost",
		doc: []any{bx(), gc(0.6),
			converts(site("(level).String", "a.go", 10, 0.5)), // 30% of the CPU, its impact 15%
			site("build", "b.go", 20, 0.34)},                  // 20.4%
		want: []string{
			"alloc-site fix high b.go:20 BenchmarkX 20.4%",
			"alloc-site api low a.go:10 BenchmarkX 15.0%",
			"gate reduce-allocations-first first - 60.0%"}},
	{name: "InherentFactor/a function named String is no method: its conversion ranks at its cost",
		doc: []any{bx(), gc(0.6),
			converts(site("String", "a.go", 10, 0.5)), // 30%
			site("build", "b.go", 20, 0.34)},          // 20.4%
		want: []string{
			"alloc-site fix high a.go:10 BenchmarkX 30.0%",
			"alloc-site fix high b.go:20 BenchmarkX 20.4%",
			"gate reduce-allocations-first first - 60.0%"}},

	// CPU causes.
	{name: "AdviceShare/a shape at a line with 33% of the cause's cost gives its advice",
		doc: []any{bx(), call("F", "x.go", 10, "sort.Strings", "sort", 0.40), call("F", "x.go", 12, "regexp.(*Regexp).MatchString", "regexp", 0.20),
			document.Shape{Name: "regexp-twice", File: "x.go", Line: 12, Says: "the regexp runs twice", Advice: "run it once"}},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 60.0% +x.go:12 parts=40%,20% shape=regexp-twice"}},
	{name: "AdviceShare+AdvicePartShare/a shape at a line with 17% does not: it is a part, named first, the category's words for the rest",
		doc: []any{bx(), call("F", "x.go", 10, "sort.Strings", "sort", 0.50), call("F", "x.go", 12, "regexp.(*Regexp).MatchString", "regexp", 0.10),
			document.Shape{Name: "regexp-twice", File: "x.go", Line: 12, Says: "the regexp runs twice", Advice: "run it once"}},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 60.0% +x.go:12 parts=50%,10% shape=regexp-twice(part)"}},
	{name: "AdvicePartShare/a shape at a line with 13% is no part",
		doc: []any{bx(), call("F", "x.go", 10, "sort.Strings", "sort", 0.52), call("F", "x.go", 12, "regexp.(*Regexp).MatchString", "regexp", 0.08),
			document.Shape{Name: "regexp-twice", File: "x.go", Line: 12, Says: "the regexp runs twice", Advice: "run it once"}},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 60.0% +x.go:12 parts=52%,8%"}},
	{name: "AdviceUnnamedShare/its own code leads in no shape: a shape holding 10% of the cause gives the change",
		doc: []any{bx(), own("F", "x.go", 10, 0.80), call("F", "x.go", 12, "sync.(*Map).Load", "other", 0.085),
			document.Shape{Name: "registry-unset", File: "x.go", Line: 12, Says: "F looks its input up in a registry nothing fills", Advice: "skip the lookup while it is unset"}},
		want: []string{"cpu-own-code fix high x.go:10 BenchmarkX 88.5% +x.go:12 parts=80%,8% shape=registry-unset(part)"}},
	{name: "AdviceUnnamedShare/one holding 4.5% does not",
		doc: []any{bx(), benchmark("BenchmarkY", 1e-6, 10, 1000), own("F", "x.go", 10, 0.90), inBench("BenchmarkY", own("F", "x.go", 10, 0.90)), call("F", "x.go", 12, "sync.(*Map).Load", "other", 0.085),
			document.Shape{Name: "registry-unset", File: "x.go", Line: 12, Says: "F looks its input up in a registry nothing fills", Advice: "skip the lookup while it is unset"}},
		want: []string{"cpu-own-code fix high x.go:10 BenchmarkX,BenchmarkY 98.5% +x.go:12 parts=90%,8%"}},
	{name: "CPUMin/a library call of 10.4% is a part",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.104)},
		want: []string{"cpu-call fix medium x.go:10 BenchmarkX 10.4% parts=10%"}},
	{name: "DriverSelf/a library call with 54% below it, 15% with no module code below, costs 54%",
		doc:  []any{bx(), selfOf(call("F", "x.go", 10, "net/http.HandlerFunc.ServeHTTP", "other", 0.54), 0.15)},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 54.0% parts=54%"}},
	{name: "DriverSelf/with 7% it calls the module back: it costs its own 7%, no part",
		doc:  []any{bx(), selfOf(call("F", "x.go", 10, "net/http.HandlerFunc.ServeHTTP", "other", 0.54), 0.07)},
		want: nil},
	{name: "CPUMin/a library call of 5.6% is not",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.056)},
		want: nil},
	{name: "OwnCodeMin/own lines of 19.5% are the function's algorithm, low",
		doc:  []any{bx(), own("F", "x.go", 10, 0.1), own("F", "x.go", 11, 0.095)},
		want: []string{"cpu-own-code fix low x.go:10 BenchmarkX 19.5% +x.go:11 parts=20%"}},
	{name: "OwnCodeMin/own lines of 10.5% are not",
		doc:  []any{bx(), own("F", "x.go", 10, 0.06), own("F", "x.go", 11, 0.045)},
		want: nil},
	{name: "OwnJoinMin/an own line of 2.6% joins the function's call cause",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.2), own("F", "x.go", 12, 0.026)},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 22.6% +x.go:12 parts=20%"}},
	{name: "OwnJoinMin/an own line of 1.4% does not",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.2), own("F", "x.go", 12, 0.014)},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 20.0% parts=20%"}},
	{name: "PartMin/a second part of 9.1% is named",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.3), call("F", "x.go", 12, "strings.Index", "strings", 0.091)},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 39.1% +x.go:12 parts=30%,9%"}},
	{name: "PartMin/a second part of 3.5% is not named",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.3), own("F", "x.go", 12, 0.035)},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 33.5% +x.go:12 parts=30%"}},
	{name: "RepeatMin/the same call from two lines at 3.9% each is a repeated call",
		doc: []any{bx(),
			src(call("F", "x.go", 10, "strconv.Itoa", "other", 0.039), "a := strconv.Itoa(n)"),
			src(call("F", "x.go", 14, "strconv.Itoa", "other", 0.039), "b := strconv.Itoa(n)")},
		want: []string{"repeated-call fix medium x.go:10 BenchmarkX 7.8% +x.go:14"}},
	{name: "RepeatMin/at 2.1% each it is not",
		doc: []any{bx(),
			src(call("F", "x.go", 10, "strconv.Itoa", "other", 0.021), "a := strconv.Itoa(n)"),
			src(call("F", "x.go", 14, "strconv.Itoa", "other", 0.021), "b := strconv.Itoa(n)")},
		want: nil},
	{name: "SpreadMin/two different calls of 3.9% each are a cause over two lines",
		doc: []any{bx(),
			call("F", "x.go", 10, "strings.ToLower", "strings", 0.039),
			call("F", "x.go", 12, "strconv.ParseFloat", "other", 0.039)},
		want: []string{"cpu-spread fix medium x.go:10 BenchmarkX 7.8% +x.go:12 parts=8%"}},
	{name: "SpreadMin/at 2.1% each they are not",
		doc: []any{bx(),
			call("F", "x.go", 10, "strings.ToLower", "strings", 0.021),
			call("F", "x.go", 12, "strconv.ParseFloat", "other", 0.021)},
		want: nil},
	{name: "SpreadMin/a benchmark's function with 16% over five lines (three calls, two own lines), none at CPUMin, is a function-level cause",
		doc: []any{bx(),
			call("F", "x.go", 10, "strings.ToLower", "strings", 0.032),
			call("F", "x.go", 11, "strconv.ParseFloat", "other", 0.032),
			call("F", "x.go", 12, "bytes.Equal", "other", 0.032),
			own("F", "x.go", 13, 0.032), own("F", "x.go", 14, 0.032)},
		want: []string{"cpu-spread fix medium x.go:10 BenchmarkX 16.0% +x.go:11 +x.go:12 +x.go:13 +x.go:14 parts=10%,6%"}},
	{name: "PhaseMin/a phase of 13% of the run is a cause",
		doc:  []any{bx(), phase("print", 0.13, 0.1)},
		want: []string{"cpu-phase fix low m.go:5 BenchmarkX 13.0% parts="}},
	{name: "PhaseMin/a phase of 7% is not",
		doc:  []any{bx(), phase("print", 0.07, 0.1)},
		want: nil},
	{name: "PhaseMemory/a phase 52% in allocation sends the reader to the allocation causes",
		doc:  []any{bx(), phase("print", 0.3, 0.52)},
		want: []string{"cpu-phase fix low m.go:5 BenchmarkX 30.0% parts= memory"}},
	{name: "PhaseMemory/at 28% it does not",
		doc:  []any{bx(), phase("print", 0.3, 0.28)},
		want: []string{"cpu-phase fix low m.go:5 BenchmarkX 30.0% parts="}},
	{name: "PhaseRank/a phase of 30% ranks at 15%, below a call of 20%",
		doc:  []any{bx(), phase("print", 0.3, 0.1), call("G", "y.go", 10, "sort.Slice", "sort", 0.2), sortShape("G", "y.go", 10)},
		want: []string{"cpu-call fix high y.go:10 BenchmarkX 20.0% parts=20% shape=sort-slice", "cpu-phase fix low m.go:5 BenchmarkX 30.0% parts="}},
	{name: "PhaseRank/and above a call of 12%",
		doc:  []any{bx(), phase("print", 0.3, 0.1), call("G", "y.go", 10, "sort.Slice", "sort", 0.12), sortShape("G", "y.go", 10)},
		want: []string{"cpu-phase fix low m.go:5 BenchmarkX 30.0% parts=", "cpu-call fix medium y.go:10 BenchmarkX 12.0% parts=12% shape=sort-slice"}},
	{name: "MicroWeight/a cause of 60% in a 10 ns benchmark of an internal method ranks at 15%, below 20% in a benchmark of the API",
		doc: []any{micro(benchmark("BenchmarkIndex", 10e-9, 0, 0), "(*lit).index"), api(benchmark("BenchmarkMatch", 5e-6, 0, 0), "Match"),
			callIn("BenchmarkIndex", "(*lit).index", "l.go", 10, "strings.Count", "strings", 0.6),
			callIn("BenchmarkMatch", "Match", "m.go", 20, "sort.Slice", "sort", 0.2), reaches("BenchmarkMatch", "(*lit).index", "l.go", 11)},
		want: []string{"cpu-call fix high m.go:20 BenchmarkMatch 20.0% parts=20%", "cpu-call fix medium l.go:10 BenchmarkIndex 15.0% parts=60%"}},
	{name: "MicroWeight/a cause of 60% in a benchmark whose container grows with b.N (lint: accumulated) ranks at 15%, below 20% in a benchmark of the API",
		doc: []any{api(benchmark("BenchmarkSet", 5e-6, 0, 0), "(*Bitmap).Add"), api(benchmark("BenchmarkMatch", 5e-6, 0, 0), "Match"),
			callIn("BenchmarkSet", "(*Bitmap).Add", "b.go", 10, "strings.Count", "strings", 0.6),
			callIn("BenchmarkMatch", "Match", "m.go", 20, "sort.Slice", "sort", 0.2),
			document.LintFinding{Package: mod, Benchmark: "BenchmarkSet", Analyzer: "accumulated", File: "b_test.go", Line: 12,
				Message: "every iteration adds a new value to s (Add), and nothing in the loop removes from it or makes it again"}},
		want: []string{"cpu-call fix high m.go:20 BenchmarkMatch 20.0% parts=20%", "cpu-call fix medium b.go:10 BenchmarkSet 15.0% parts=60%", "broken-lint broken info b_test.go:12 BenchmarkSet 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "MicroWeight/a micro-benchmark weighs in full when the module has no benchmark of its API",
		doc: []any{micro(benchmark("BenchmarkIndex", 10e-9, 0, 0), "(*lit).index"),
			callIn("BenchmarkIndex", "(*lit).index", "l.go", 10, "strings.Count", "strings", 0.6)},
		want: []string{"cpu-call fix high l.go:10 BenchmarkIndex 60.0% parts=60%"}},
	{name: "MicroWeight/a fast benchmark of an exported function weighs in full",
		doc: []any{api(benchmark("BenchmarkGet", 10e-9, 0, 0), "(*Cache).Get"), api(benchmark("BenchmarkMatch", 5e-6, 0, 0), "Match"),
			callIn("BenchmarkGet", "(*Cache).Get", "c.go", 10, "strings.Count", "strings", 0.6),
			callIn("BenchmarkMatch", "Match", "m.go", 20, "sort.Slice", "sort", 0.2)},
		want: []string{"cpu-call fix high c.go:10 BenchmarkGet 60.0% parts=60%", "cpu-call fix high m.go:20 BenchmarkMatch 20.0% parts=20%"}},
	{name: "MicroWeight/a slow benchmark of an internal function weighs in full",
		doc: []any{micro(benchmark("BenchmarkIndex", 5e-6, 0, 0), "(*lit).index"), api(benchmark("BenchmarkMatch", 5e-6, 0, 0), "Match"),
			callIn("BenchmarkIndex", "(*lit).index", "l.go", 10, "strings.Count", "strings", 0.6),
			callIn("BenchmarkMatch", "Match", "m.go", 20, "sort.Slice", "sort", 0.2), reaches("BenchmarkMatch", "(*lit).index", "l.go", 11)},
		want: []string{"cpu-call fix high l.go:10 BenchmarkIndex 60.0% parts=60%", "cpu-call fix high m.go:20 BenchmarkMatch 20.0% parts=20%"}},
	{name: "MicroWeight/an internal function no benchmark of the API reaches is left to its own benchmark, slow or fast",
		doc: []any{micro(benchmark("BenchmarkIndex", 5e-6, 0, 0), "(*lit).index"), api(benchmark("BenchmarkMatch", 5e-6, 0, 0), "Match"),
			callIn("BenchmarkIndex", "(*lit).index", "l.go", 10, "strings.Count", "strings", 0.6),
			callIn("BenchmarkMatch", "Match", "m.go", 20, "sort.Slice", "sort", 0.2)},
		want: []string{"cpu-call fix high m.go:20 BenchmarkMatch 20.0% parts=20%", "leave-micro leave-alone info - BenchmarkIndex 0.0%"}},
	{name: "ComponentWeight/a cause of 90% in a cache package's own benchmark ranks at 9%, below 12% in the renderer's benchmark that reaches the cache",
		doc: []any{inPkg(benchmark("BenchmarkGet", 80e-9, 0, 0), "/cache"), inPkg(benchmark("BenchmarkRender", 1e-3, 0, 0), "/tests"),
			pkgCall(callIn("BenchmarkGet", "(*LRU).Get", "cache/lru.go", 10, "strings.Count", "strings", 0.9), "/cache", "/cache"),
			pkgCall(callIn("BenchmarkRender", "(*Table).render", "table.go", 50, "sort.Slice", "sort", 0.12), "/tests", ""),
			hot("BenchmarkGet", "/cache", "/cache.(*LRU).Get"), hot("BenchmarkRender", "/tests", ".(*Table).render"), hot("BenchmarkRender", "/tests", "/cache.(*LRU).Get")},
		want: []string{"cpu-call fix medium table.go:50 BenchmarkRender 12.0% parts=12%", "cpu-call fix medium cache/lru.go:10 BenchmarkGet 9.0% parts=90%"}},
	{name: "ComponentWeight/the same benchmark weighs in full when no other package's benchmark reaches more of the module",
		doc: []any{inPkg(benchmark("BenchmarkGet", 80e-9, 0, 0), "/cache"), inPkg(benchmark("BenchmarkRender", 1e-3, 0, 0), "/tests"),
			pkgCall(callIn("BenchmarkGet", "(*LRU).Get", "cache/lru.go", 10, "strings.Count", "strings", 0.9), "/cache", "/cache"),
			pkgCall(callIn("BenchmarkRender", "(*Table).render", "table.go", 50, "sort.Slice", "sort", 0.12), "/tests", ""),
			hot("BenchmarkGet", "/cache", "/cache.(*LRU).Get"), hot("BenchmarkRender", "/tests", ".(*Table).render")},
		want: []string{"cpu-call fix high cache/lru.go:10 BenchmarkGet 90.0% parts=90%", "cpu-call fix medium table.go:50 BenchmarkRender 12.0% parts=12%"}},
	{name: "TimedSetupShare/a timed setup at 1.3% of the time is a broken benchmark",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.5), setupLine(0.013), setupLint()},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 50.0% parts=50%", "broken-lint broken info x_test.go:5 BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupShare/at 0.7% it is a note about the benchmark's code",
		doc:  []any{bx(), call("F", "x.go", 10, "sort.Slice", "sort", 0.5), setupLine(0.007), setupLint()},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 50.0% parts=50%", "timed-setup-small benchmark info x_test.go:5 BenchmarkX 0.0%"}},
	{name: "InlineHot/a function not inlined with 3.9% flat is a cause",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 100, 80), flat("skip", 0.039)},
		want: []string{"cpu-not-inlined fix low x.go:20 BenchmarkX 1.9% parts=2%"}},
	{name: "InlineHot/a method called only through an interface is no inlining cause, however hot",
		doc: []any{bx(), notInlined("(*literal).Match", "x.go", 20, 100, 80), flat("(*literal).Match", 0.39),
			document.Shape{Name: "interface-only", File: "x.go", Line: 20, Function: mod + ".(*literal).Match", Says: "(*literal).Match is called only through an interface in its package"}},
		want: nil},
	{name: "InlineHot/with 2.1% flat it is not",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 100, 80), flat("skip", 0.021)},
		want: nil},
	{name: "InlineClose/a function 6 over the budget of 80 (0.75× of 8) is a change that comes before another's own algorithm",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 86, 80), flat("skip", 0.2), own("Own", "a.go", 1, 0.5)},
		want: []string{"cpu-not-inlined fix medium x.go:20 BenchmarkX 10.0% parts=10%", "cpu-own-code fix low a.go:1 BenchmarkX 50.0% parts=50%"}},
	{name: "InlineClose/10 over (1.25×) is its own algorithm, after the other",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 90, 80), flat("skip", 0.2), own("Own", "a.go", 1, 0.5)},
		want: []string{"cpu-own-code fix low a.go:1 BenchmarkX 50.0% parts=50%", "cpu-not-inlined fix medium x.go:20 BenchmarkX 10.0% parts=10%"}},
	{name: "ChunkMin/a tree of 100 nodes per op (1.6× of 64) is told to allocate them in chunks",
		doc:  []any{bx(), gc(0.4), nodes(100), nodeChunks()},
		want: []string{"alloc-site fix high tree.go:140 BenchmarkX 24.0% shape=node-chunks", "gate reduce-allocations-first first - 40.0%"}},
	{name: "ChunkMin/a tree of 40 nodes per op (0.6×) is what parsing builds, the API's cost",
		doc:  []any{bx(), gc(0.4), nodes(40), nodeChunks()},
		want: []string{"alloc-site api low tree.go:140 BenchmarkX 12.0% shape=node-chunks", "gate reduce-allocations-first first - 40.0%"}},
	{name: "CalleeBound/a function not inlined whose flat time is 30% of its cumulative is a cause",
		doc:  []any{bx(), notInlined("hashes", "x.go", 20, 84, 80), flatCum("hashes", 0.3, 1)},
		want: []string{"cpu-not-inlined fix medium x.go:20 BenchmarkX 15.0% parts=15%"}},
	{name: "CalleeBound/at 20% its time is in what it calls: no inlining cause",
		doc:  []any{bx(), notInlined("hashes", "x.go", 20, 84, 80), flatCum("hashes", 0.2, 1)},
		want: nil},
	{name: "InlineNear/cost 1.3× the budget is near it",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 104, 80), flat("skip", 0.3)},
		want: []string{"cpu-not-inlined fix medium x.go:20 BenchmarkX 15.0% parts=15%"}},
	{name: "InlineNear/cost 1.95× the budget is not",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 156, 80), flat("skip", 0.3)},
		want: nil},
	{name: "NotInlinedOwn/half the flat time of a function not inlined is its own code",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 90, 80), flat("skip", 0.26)},
		want: []string{"cpu-not-inlined fix medium x.go:20 BenchmarkX 13.0% parts=13%"}},
	{name: "NotInlinedOwn/not with an own-code part of its own",
		doc:  []any{bx(), notInlined("skip", "x.go", 20, 90, 80), flat("skip", 0.26), own("skip", "x.go", 21, 0.2)},
		want: []string{"cpu-not-inlined fix high x.go:21 BenchmarkX 20.0% +x.go:20 parts=20%"}},

	// The benchmark's own cost.
	{name: "FixtureBytes/a _test.go site with 26% of the bytes is the benchmark's own",
		doc:  []any{bx(), gc(0.1), fixture("x_test.go", 30, 0.26)},
		want: []string{"fixture-alloc benchmark low x_test.go:30 BenchmarkX 2.6%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "FixtureBytes/with 14% it is not",
		doc:  []any{bx(), gc(0.1), fixture("x_test.go", 30, 0.14)},
		want: nil},
	{name: "FixtureCPU/a loop's file opened with 13% of the CPU is the benchmark's own cost",
		doc:  []any{bx(), testLine("x_test.go", 30, 0.13), filePerOp("x_test.go", 30)},
		want: []string{"fixture-cpu benchmark medium x_test.go:30 BenchmarkX 13.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "FixtureCPU/with 7% it is not",
		doc:  []any{bx(), testLine("x_test.go", 30, 0.07), filePerOp("x_test.go", 30)},
		want: nil},
	{name: "FixtureCPU/an encoder its loop builds, 13% of the CPU under its constructor, is the benchmark's own cost",
		doc:  []any{bx(), builtPerOp("x_test.go", 30, "NewEncoder"), hotFn("NewEncoder", 0.13)},
		want: []string{"fixture-cpu benchmark medium x_test.go:30 BenchmarkX 13.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "FixtureCPU/with 7% under it, it is not",
		doc:  []any{bx(), builtPerOp("x_test.go", 30, "NewEncoder"), hotFn("NewEncoder", 0.07)},
		want: nil},
	{name: "FixtureModuleCPU/in a benchmark with 26% module CPU",
		doc:  []any{shares(bx(), 0.26, 0.9), gc(0.1), fixture("x_test.go", 30, 0.5)},
		want: []string{"fixture-alloc benchmark low x_test.go:30 BenchmarkX 5.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "FixtureModuleCPU/not in one with 14% (a baseline)",
		doc:  []any{shares(bx(), 0.14, 0.9), gc(0.1), fixture("x_test.go", 30, 0.5)},
		want: nil},

	// Broken benchmarks.
	{name: "BrokenSecPerOp/0.7 ns/op is broken",
		doc:  []any{shares(benchmark("BenchmarkX", 0.7e-9, 1, 16), 0.02, 0.9)},
		want: []string{"broken-sub-ns broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "BrokenSecPerOp/0.7 ns/op of a benchmark that stores its result in a package variable is the operation's own: not broken",
		doc: []any{benchmark("BenchmarkX", 0.7e-9, 1, 16),
			document.Shape{Name: "result-kept", File: "x_test.go", Line: 5, Function: mod + ".BenchmarkX", Says: "BenchmarkX stores what each loop computes in Sink"}},
		want: nil},
	{name: "BrokenSecPerOp/0.7 ns/op whose CPU profile is 20% the module's own code: the call runs, not broken",
		doc:  []any{shares(benchmark("BenchmarkX", 0.7e-9, 1, 16), 0.2, 0)},
		want: nil},
	{name: "BrokenSecPerOp/1.3 ns/op is not",
		doc:  []any{shares(benchmark("BenchmarkX", 1.3e-9, 1, 16), 0.02, 0.9)},
		want: nil},
	{name: "BrokenSecPerOp/0.7 ns/op of goroutines on 2 cores is 1.4 ns on each: not broken",
		doc:  []any{procs(parallel(shares(benchmark("BenchmarkX", 0.7e-9, 1, 16), 0.02, 0.9)), 2)},
		want: nil},
	{name: "BrokenSecPerOp/0.4 ns/op on 2 cores is 0.8 ns on each: broken",
		doc:  []any{procs(parallel(shares(benchmark("BenchmarkX", 0.4e-9, 1, 16), 0.02, 0.9)), 2)},
		want: []string{"broken-sub-ns broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimeoutLow+TimeoutHigh/1.02 s/op at the 1 s timeout the benchmark sets: it measures the clock",
		doc:  []any{shares(benchmark("BenchmarkX", 1.02, 1, 16), 0.9, 0.9), timeoutSet(1)},
		want: []string{"broken-timeout broken info x_test.go:12 BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimeoutLow/0.6 s/op at a 1 s timeout: it finishes first",
		doc:  []any{shares(benchmark("BenchmarkX", 0.6, 1, 16), 0.9, 0.9), timeoutSet(1)},
		want: nil},
	{name: "TimeoutHigh/1.7 s/op at a 1 s timeout: the work outlasts it, not the clock's",
		doc:  []any{shares(benchmark("BenchmarkX", 1.7, 1, 16), 0.9, 0.9), timeoutSet(1)},
		want: nil},
	{name: "NoModule+NoCallee/0.7% module code and 3.5% in callees: the loop does no work",
		doc:  []any{shares(benchmark("BenchmarkX", 2e-9, 0, 0), 0.007, 0.035)},
		want: []string{"broken-no-work broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "NoModule+NoCallee/no module code and no callee in 12 samples (a busy machine): no evidence of a loop over nothing, a tight loop",
		doc:  []any{sampled(shares(benchmark("BenchmarkX", 10e-9, 0, 0), 0, 0), 12)},
		want: []string{"leave-tight leave-alone info - BenchmarkX 0.0%"}},
	{name: "NoModule+NoCallee/none in 80 samples: the loop does no work",
		doc:  []any{sampled(shares(benchmark("BenchmarkX", 10e-9, 0, 0), 0, 0), 80)},
		want: []string{"broken-no-work broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "NoModule+NoCallee/a loop that allocates 16 B/op (a private sync.Pool that misses) does work",
		doc:  []any{shares(benchmark("BenchmarkX", 40e-9, 1, 16), 0.007, 0.035)},
		want: []string{"leave-baseline leave-alone info - BenchmarkX 0.0%"}},
	{name: "NoModule/a loop at 6 allocs/op whose CPU is 90% collecting and allocating does the module's work, whatever its profile names: no baseline",
		doc:  []any{shares(benchmark("BenchmarkX", 1e-6, 6, 472), 0, 0.008), document.CategoryShare{Benchmark: "BenchmarkX", Package: mod, Category: "gc", Share: 0.9}},
		want: []string{"gate reduce-allocations-first first - 90.0%"}},
	{name: "NoModule/1.3% module code is work",
		doc:  []any{shares(bx(), 0.013, 0.035)},
		want: nil},
	{name: "NoModule/a result lint saw discarded, with 1.3% module code in the loop: the call ran, a note",
		doc:  []any{shares(bx(), 0.013, 0.5), discardLint()},
		want: []string{"discard-kept benchmark info x_test.go:7 BenchmarkX 0.0%"}},
	{name: "NoModule/a discarded result of the benchmark's own helper (test code) that runs below it: the call ran, a note",
		doc:  []any{testPath(shares(bx(), 0, 0.5), "appendEncode", 0.9), discardLint()},
		want: []string{"discard-kept benchmark info x_test.go:7 BenchmarkX 0.0%"}},
	{name: "NoModule/a benchmark that leaves a package variable set for later ones: measured apart, a note, no gate",
		doc: []any{bx(), document.LintFinding{Analyzer: "globalset", Package: mod, Benchmark: "BenchmarkX", File: "x_test.go", Line: 7,
			Message: "sets MaxLength (MaxLength = 8) and never restores it", Why: "BenchmarkY, which runs after it in one go test process, reads it", Fix: "save and restore it"}},
		want: []string{"global-left benchmark info x_test.go:7 BenchmarkX 0.0%"}},
	{name: "NoModule/two benchmarks of one file named for functions they never call: one broken finding",
		doc: []any{bx(), benchmark("BenchmarkY", 1e-6, 10, 1000),
			document.LintFinding{Analyzer: "misnamed", Package: mod, Benchmark: "BenchmarkX", File: "x_test.go", Line: 7, Message: "named for X, which it never calls: it times Ugly", Fix: "call X"},
			document.LintFinding{Analyzer: "misnamed", Package: mod, Benchmark: "BenchmarkY", File: "x_test.go", Line: 15, Message: "named for Y, which it never calls: it times UglyInPlace", Fix: "call Y"}},
		want: []string{"broken-lint broken info x_test.go:7 BenchmarkX,BenchmarkY 0.0% +x_test.go:15", "gate fix-the-benchmarks-first first - 1"}},
	{name: "NoModule/with 0.7% module code the benchmark is broken",
		doc:  []any{shares(bx(), 0.007, 0.5), discardLint()},
		want: []string{"broken-lint broken info x_test.go:7 BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "OffCPU/a loop that sleeps, sampled at a fifth of a core beside one that computes, waits: neither broken nor a baseline",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.2), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 1)},
		want: []string{"leave-off-cpu leave-alone info - BenchmarkX 0.0%"}},
	{name: "HeapSetupShare/heap runs whose bytes per iteration fall (a one-time cost of 12.4 MB, 3.5% of B/op at 1s): a note, a warm-up or a setup",
		doc:  []any{heapIters(loopBytes(benchmark("BenchmarkX", 8.772e-6, 3, 3109), 3000), 500, 27800, 2000, 9200)},
		want: []string{"timed-setup-small benchmark info - BenchmarkX 0.0%"}},
	{name: "HeapSetupShare/one of 25.7 MB, 7%: broken",
		doc:  []any{heapIters(loopBytes(benchmark("BenchmarkX", 8.772e-6, 3, 3226), 3000), 500, 54480, 2000, 15870)},
		want: []string{"broken-drift-down broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "HeapSetupShare+TimedSetupBytes/a one-time cost of 2.7 KB over 300 iterations (9 B/op, the testing package's own in a waiting benchmark): nothing, however large its share",
		doc:  []any{benchtime("300x"), heapIters(benchmark("BenchmarkX", 1e-3, 0.1, 9), 30, 90, 120, 22.5)},
		want: nil},
	{name: "HeapSetupShare/a one-time cost of 19.7 KB from heap runs of 4 and 18 iterations, 66 B/op at 300 where the rounds reported 18 B/op in all: the process's start, nothing",
		doc:  []any{benchtime("300x"), heapIters(benchmark("BenchmarkX", 1e-3, 0.1, 18), 4, 4884, 18, 1044)},
		want: nil},
	{name: "OffCPU+SpareCores/the same with 1.2 cores idle meanwhile waits",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.2), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 1), spareCores(1.2)},
		want: []string{"leave-off-cpu leave-alone info - BenchmarkX 0.0%"}},
	{name: "OffCPU+SpareCores/with 0.1 cores idle, a loop at a fiftieth of a core beside one at 0.4, starved as much, waits",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.02), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.4), spareCores(0.1)},
		want: []string{"leave-off-cpu leave-alone info - BenchmarkX 0.0%"}},
	{name: "OffCPU+SpareCores/with 0.1 cores idle and every benchmark at a tenth of a core (other processes took them), nothing to say",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.1), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.12), spareCores(0.1)},
		want: nil},
	{name: "OffCPU+SpareCores/the same with 0.4 cores idle, nothing to say",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.1), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.12), spareCores(0.4)},
		want: nil},
	{name: "OffCPU+SpareCores/the same with 0.6 cores idle: against half a core, it waits",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.1), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.12), spareCores(0.6)},
		want: []string{"leave-off-cpu leave-alone info - BenchmarkX 0.0%"}},
	{name: "OffCPU+SpareCores/a saturated machine leaves a loop that samples a third of a core broken",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.33), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 1), spareCores(0.1)},
		want: []string{"broken-no-work broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "OffCPU/sampled at a third of a core, the same loop is broken",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.33), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 1)},
		want: []string{"broken-no-work broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "OffCPU/on a busy machine (the other at 0.4 of a core), what counts is half a core: a tenth waits",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.1), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.4)},
		want: []string{"leave-off-cpu leave-alone info - BenchmarkX 0.0%"}},
	{name: "OffCPU/and a fifth computes",
		doc:  []any{busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0, 0), 0.2), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.4)},
		want: []string{"broken-no-work broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "OffCPU/one sample of five in its code (20% ± 18%) and a tenth of a core beside one that computes: it waits, and its one sample is no cause",
		doc: []any{sampled(busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0.2, 0.2), 0.06), 5), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.44),
			call("Wait", "w.go", 6, "time.Sleep", "other", 0.2)},
		want: []string{"leave-off-cpu leave-alone info - BenchmarkX 0.0%"}},
	{name: "OffCPU/the same sampled at a third of a core computes: its call is a cause",
		doc: []any{sampled(busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0.2, 0.2), 0.33), 5), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.44),
			call("Wait", "w.go", 6, "time.Sleep", "other", 0.2)},
		want: []string{"cpu-call fix high w.go:6 BenchmarkX 20.0% parts=20%"}},
	{name: "OffCPU/on a loaded machine, a benchmark at a fifth of a core beside others at a fifth and one measured in a quiet moment computes: its call is a cause",
		doc: []any{sampled(busy(shares(benchmark("BenchmarkX", 1e-3, 0, 0), 0.2, 0.2), 0.2), 5), busy(benchmark("BenchmarkY", 1e-6, 0, 0), 0.22), busy(benchmark("BenchmarkZ", 1e-6, 0, 0), 0.18), busy(benchmark("BenchmarkW", 1e-6, 0, 0), 0.9),
			call("Wait", "w.go", 6, "time.Sleep", "other", 0.2)},
		want: []string{"cpu-call fix high w.go:6 BenchmarkX 20.0% parts=20%"}},
	{name: "OffCPU/a waiting benchmark with module code is neither",
		doc:  []any{busy(shares(bx(), 0.3, 0.5), 0.03)},
		want: nil},
	{name: "NoModule/no module code in 16 samples and no callee it measures instead: a 1 ns loop over an inlined function, no evidence of a baseline",
		doc:  []any{sampled(shares(benchmark("BenchmarkX", 1.2e-9, 0, 0), 0, 0.065), 16)},
		want: []string{"leave-tight leave-alone info - BenchmarkX 0.0%"}},
	{name: "NoModule/no module code in 16 samples, and the only call named is b.Loop's own (testing's loop slow path): the harness is no baseline",
		doc:  []any{sampled(shares(benchmark("BenchmarkX", 1.2e-9, 0, 0), 0, 0.065), 16), call("BenchmarkX", "x_test.go", 20, "testing.(*B).loopSlowPath", "other", 0.3)},
		want: []string{"leave-tight leave-alone info - BenchmarkX 0.0%"}},
	{name: "NoModule/none in 600 samples is one",
		doc:  []any{sampled(shares(benchmark("BenchmarkX", 1.2e-9, 0, 0), 0, 0.065), 600)},
		want: []string{"leave-baseline leave-alone info - BenchmarkX 0.0%"}},
	{name: "NoCallee/6.5% in callees is work, of another package: a baseline",
		doc:  []any{shares(benchmark("BenchmarkX", 2e-9, 0, 0), 0.007, 0.065)},
		want: []string{"leave-baseline leave-alone info - BenchmarkX 0.0%"}},
	{name: "DriftMin/B/op ×2.6 with the iteration count is broken",
		doc:  []any{drift(bx(), 2.6)},
		want: []string{"broken-drift-up broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "DriftMin/B/op ÷2.6 is broken the other way",
		doc:  []any{drift(bx(), 1/2.6)},
		want: []string{"broken-drift-down broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "DriftMin/×1.4 is noise",
		doc:  []any{drift(bx(), 1.4)},
		want: nil},
	{name: "DriftMin/runs whose B/op grows 2.6× in the iteration count's order are broken",
		doc:  []any{runs(bx(), []float64{100, 130, 170, 210, 260})},
		want: []string{"broken-drift-up broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "DriftMin/runs 1.4× apart are noise",
		doc:  []any{runs(bx(), []float64{100, 110, 120, 130, 140})},
		want: nil},
	{name: "DriftRho/runs whose B/op follows the iteration count but one swap (ρ 0.9) drift",
		doc:  []any{runs(bx(), []float64{100, 300, 200, 400, 500})},
		want: []string{"broken-drift-up broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "DriftRho/runs out of the iteration count's order (ρ 0.5) do not",
		doc:  []any{runs(bx(), []float64{100, 400, 200, 500, 300})},
		want: nil},
	{name: "TimedSetupShare/B/op that falls with b.N, its one-time bytes 1.3% of B/op at 1s, is broken",
		doc:  []any{runs(bx(), []float64{1417, 758.5, 539, 429.25, 363.4})}, // 100 B/op + 1.317 MB once
		want: []string{"broken-drift-down broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupShare/at 0.7% of B/op at 1s it is a note",
		doc:  []any{runs(bx(), []float64{805, 452.5, 335, 276.25, 241})}, // 100 B/op + 705 kB once
		want: []string{"timed-setup-small benchmark info - BenchmarkX 0.0%"}},
	{name: "TimedSetupShare/reporting 2.033 kB/op for a loop of 1 kB/op at -benchtime 1s is broken (51% once)",
		doc:  []any{benchtime("1s"), loopBytes(benchmark("BenchmarkX", 1e-6, 1, 2033), 1000)},
		want: []string{"broken-timed-setup broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupShare/at -benchtime 1000x, 1.3% of B/op once at 1s is broken",
		doc:  []any{benchtime("1000x"), loopBytes(benchmark("BenchmarkX", 1e-6, 1, 14170), 1000)}, // 13.17 MB once
		want: []string{"broken-timed-setup broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupShare/at -benchtime 1000x, 0.7% of B/op once at 1s is a note",
		doc:  []any{benchtime("1000x"), loopBytes(benchmark("BenchmarkX", 1e-6, 1, 8050), 1000)}, // 7.05 MB once
		want: []string{"timed-setup-small benchmark info - BenchmarkX 0.0%"}},
	{name: "TimedSetupShare/a timed setup lint found at 0.7% of the time whose bytes are 1.3% of B/op at 1s is broken",
		doc: []any{iterBytes(bx(), 2e5, 1065.85, 1e6, 1013.17), // 1000 B/op + 13.17 MB once
			call("F", "x.go", 10, "sort.Slice", "sort", 0.5), setupLine(0.007), setupLint()},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 50.0% parts=50%", "broken-lint broken info x_test.go:5 BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupShare/with 0.7% of the time and 0.7% of B/op at 1s it is a note",
		doc: []any{iterBytes(bx(), 2e5, 1035.25, 1e6, 1007.05), // 1000 B/op + 7.05 MB once
			call("F", "x.go", 10, "sort.Slice", "sort", 0.5), setupLine(0.007), setupLint()},
		want: []string{"cpu-call fix high x.go:10 BenchmarkX 50.0% parts=50%", "timed-setup-small benchmark info x_test.go:5 BenchmarkX 0.0%"}},
	{name: "TimedSetupRatio/reporting 1.3× (1.5 × the loop's 1000 B + 64) is setup in the timer",
		doc:  []any{loopBytes(benchmark("BenchmarkX", 1e-6, 1, 2033), 1000)},
		want: []string{"broken-timed-setup broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupRatio/0.7× is not",
		doc:  []any{loopBytes(benchmark("BenchmarkX", 1e-6, 1, 1095), 1000)},
		want: nil},
	{name: "TimedSetupBytes/reporting 1.3× (1.5 × the loop's 10 B + 64) is setup in the timer",
		doc:  []any{loopBytes(benchmark("BenchmarkX", 1e-6, 1, 103), 10)},
		want: []string{"broken-timed-setup broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},
	{name: "TimedSetupBytes/0.7× is not",
		doc:  []any{loopBytes(benchmark("BenchmarkX", 1e-6, 1, 55), 10)},
		want: nil},
	{name: "BytesSplit/rounds at one b.N at 1000 and 2033 B/op (1.3× of 1.5 × 1000 + 64) allocate apart: no setup in the timer",
		doc:  []any{loopBytes(sameIters(benchmark("BenchmarkX", 1e-6, 1, 1516), 5000, 1000, 2033, 1000, 2033), 10)},
		want: nil},
	{name: "BytesSplit/at 1000 and 1095 (0.7×) they agree: the setup is in the timer",
		doc:  []any{loopBytes(sameIters(benchmark("BenchmarkX", 1e-6, 1, 1047), 5000, 1000, 1095, 1000, 1095), 10)},
		want: []string{"broken-timed-setup broken info - BenchmarkX 0.0%", "gate fix-the-benchmarks-first first - 1"}},

	// Leave alone.
	{name: "TightSecPerOp/35 ns/op at 0 allocs/op is left alone",
		doc:  []any{benchmark("BenchmarkX", 35e-9, 0, 0)},
		want: []string{"leave-tight leave-alone info - BenchmarkX 0.0%"}},
	{name: "TightSecPerOp/65 ns/op is not",
		doc:  []any{benchmark("BenchmarkX", 65e-9, 0, 0)},
		want: nil},
	{name: "LeaveMin/a cause of 9.1% outside its algorithm keeps a tight benchmark",
		doc:  []any{benchmark("BenchmarkX", 30e-9, 0, 0), call("F", "x.go", 10, "encoding/binary.Read", "encoding", 0.091)},
		want: []string{"library-call fix medium x.go:10 BenchmarkX 9.1%", "gate library-or-format-choice consider BenchmarkX 9.1%"}},
	{name: "LeaveMin/a cause of 3.5% does not",
		doc:  []any{benchmark("BenchmarkX", 30e-9, 0, 0), notInlined("skip", "x.go", 20, 90, 80), flat("skip", 0.07)},
		want: []string{"cpu-not-inlined fix low x.go:20 BenchmarkX 3.5% parts=4%", "leave-tight leave-alone info - BenchmarkX 0.0%"}},

	// Contention.
	{name: "ContendMin/26% in the scheduler of a benchmark that starts goroutines",
		doc:  []any{parallel(bx()), sched(0.26)},
		want: []string{"scheduler-share fix high - BenchmarkX 26.0%", "gate contention first BenchmarkX 26.0%"}},
	{name: "ContendMin/14% is not",
		doc:  []any{parallel(bx()), sched(0.14)},
		want: nil},
	{name: "ContendMin/never in a benchmark that runs one goroutine",
		doc:  []any{bx(), sched(0.5)},
		want: nil},
	{name: "ScaleOK/efficiency 0.56: the read lock is a cause",
		doc:  []any{parallel(bx()), cores(0.56, 1.9, rlock(0.3))},
		want: []string{"lock-read fix high x.go:27 BenchmarkX 30.0% +x.go:29", "gate contention first BenchmarkX 30.0%"}},
	{name: "ScaleOK/efficiency 1.04 scales: no finding",
		doc:  []any{parallel(bx()), cores(1.04, 1.9, rlock(0.3))},
		want: nil},
	{name: "BusyCores/1.05 of 2 cores is a busy machine: the CPU profile decides",
		doc:  []any{parallel(bx()), cores(1.04, 1.05, rlock(0.3))},
		want: []string{"lock-read fix high x.go:27 BenchmarkX 30.0% +x.go:29", "gate contention first BenchmarkX 30.0%"}},
	{name: "BusyCores/1.95 of 2 cores is not",
		doc:  []any{parallel(bx()), cores(1.04, 1.95, rlock(0.3))},
		want: nil},
	{name: "InsideWork/a Lock held across 26% of the CPU",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, lock(0.26, 0))},
		want: []string{"lock-exclusive fix high x.go:54 BenchmarkX 20.6% +x.go:56 +x.go:59", "gate contention first BenchmarkX 20.6%"}},
	{name: "InsideWork/across 14% it is not",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, lock(0.14, 0))},
		want: nil},
	{name: "ReadLockCPU/read lock operations of 19.5% of the CPU",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, rlock(0.195))},
		want: []string{"lock-read fix medium x.go:27 BenchmarkX 19.5% +x.go:29", "gate contention first BenchmarkX 19.5%"}},
	{name: "ReadLockCPU/of 10.5% they are not",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, rlock(0.105))},
		want: nil},
	{name: "DelayMin/waits of 6.5% of the goroutines' time",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, lock(0, 13))},
		want: []string{"lock-wait fix low x.go:54 BenchmarkX 6.5% +x.go:59", "gate contention first BenchmarkX 6.5%"}},
	{name: "BusyCores/waits of 6.5% of the goroutines' time on a machine that gave 1.05 of 2 cores are the neighbours' too",
		doc:  []any{parallel(bx()), cores(0.5, 1.05, lock(0, 13))},
		want: nil},
	{name: "BusyCores/with 1.95 of 2 cores they are the lock's",
		doc:  []any{parallel(bx()), cores(0.5, 1.95, lock(0, 13))},
		want: []string{"lock-wait fix low x.go:54 BenchmarkX 6.5% +x.go:59", "gate contention first BenchmarkX 6.5%"}},
	{name: "InsideWork/a wrapper's Lock no lock profile saw take a sync lock holds nothing",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, wrapperLock(0.26))},
		want: nil},
	{name: "InsideWork/with a sync lock in the mutex profile, its section is held",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, wrapperLock(0.26), lock(0, 1))},
		want: []string{"lock-exclusive fix high x.go:287 BenchmarkX 20.6% +x.go:296", "gate contention first BenchmarkX 20.6%"}},
	{name: "DelayMin/of 3.5% they are not",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, lock(0, 7))},
		want: nil},
	{name: "GrowthFactor/an atomic whose CPU per op grows ×1.95 from 1 to 2 cores",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, growing(10, 19.5))},
		want: []string{"line-growth fix low x.go:40 BenchmarkX 5.0%", "gate contention first BenchmarkX 5.0%"}},
	{name: "OwnCodeRank/a sync.Pool's Put growing ×4 from 1 to 2 cores is the pool's price: after a shared atomic of more",
		doc: []any{parallel(bx()), cores(0.5, 1.9, poolGrowing(10, 40), func() document.LineGrowth {
			g := growing(10, 48)
			g.Line = 60
			return g
		}())},
		want: []string{"line-growth fix high x.go:60 BenchmarkX 20.0%", "line-growth fix low x.go:52 BenchmarkX 15.8%", "gate contention first BenchmarkX 20.0%"}},
	{name: "GrowthFactor/×1.05 is not growth",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, growing(10, 10.5))},
		want: nil},
	{name: "AtomicMin/atomic writes to shared state at 19.5% of the CPU",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, atomics(0.195))},
		want: []string{"shared-atomics fix medium x.go:165 BenchmarkX 19.5% +x.go:168", "gate contention first BenchmarkX 19.5%"}},
	{name: "AtomicMin/at 10.5% they are not",
		doc:  []any{parallel(bx()), cores(0.5, 1.9, atomics(0.105))},
		want: nil},

	// Ranking.
	{name: "SevHigh+SevMedium/26% is high, 15% and 9.1% medium, 4.9% low",
		doc: []any{bx(), gc(0.1),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.26),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.15),
			call("C", "c.go", 1, "sort.Slice", "sort", 0.091),
			site("D", "d.go", 1, 0.49)},
		want: []string{
			"cpu-call fix high a.go:1 BenchmarkX 26.0% parts=26%",
			"cpu-call fix medium b.go:1 BenchmarkX 15.0% parts=15%",
			"cpu-call fix medium c.go:1 BenchmarkX 9.1% parts=9%",
			"alloc-site fix low d.go:1 BenchmarkX 4.9%"}},
	{name: "RankBucket/impacts 1 point apart rank as equal: by file",
		doc: []any{bx(),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.20),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.21)},
		want: []string{
			"cpu-call fix high a.go:1 BenchmarkX 20.0% parts=20%",
			"cpu-call fix high b.go:1 BenchmarkX 21.0% parts=21%"}},
	{name: "RankBucket/impacts 1.5 points apart do not",
		doc: []any{bx(),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.20),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.215)},
		want: []string{
			"cpu-call fix high b.go:1 BenchmarkX 21.5% parts=22%",
			"cpu-call fix high a.go:1 BenchmarkX 20.0% parts=20%"}},
	{name: "RankBucket/a cause's line is its costliest, within a bucket the first",
		doc: []any{bx(),
			call("F", "x.go", 10, "sort.Slice", "sort", 0.20),
			call("F", "x.go", 20, "sort.Strings", "sort", 0.21),
			call("G", "y.go", 10, "sort.Slice", "sort", 0.20),
			call("G", "y.go", 20, "sort.Strings", "sort", 0.215)},
		want: []string{
			"cpu-call fix high y.go:20 BenchmarkX 41.5% +y.go:10 parts=22%,20%",
			"cpu-call fix high x.go:10 BenchmarkX 41.0% +x.go:20 parts=21%,20%"}},
	{name: "RankZ/with 400 samples, 20% and 25% are within the noise: by file",
		doc: []any{sampled(bx(), 400),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.20),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.25)},
		want: []string{
			"cpu-call fix high a.go:1 BenchmarkX 20.0% parts=20%",
			"cpu-call fix high b.go:1 BenchmarkX 25.0% parts=25%"}},
	{name: "RankZ/with 400 samples, 20% and 30% are not",
		doc: []any{sampled(bx(), 400),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.20),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.30)},
		want: []string{
			"cpu-call fix high b.go:1 BenchmarkX 30.0% parts=30%",
			"cpu-call fix high a.go:1 BenchmarkX 20.0% parts=20%"}},
	{name: "RankRel/with 100,000 samples, 20% and 26% are within a run's variation (a tenth of a share): by file",
		doc: []any{sampled(bx(), 100000),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.20),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.26)},
		want: []string{
			"cpu-call fix high a.go:1 BenchmarkX 20.0% parts=20%",
			"cpu-call fix high b.go:1 BenchmarkX 26.0% parts=26%"}},
	{name: "RankRel/20% and 33% are not",
		doc: []any{sampled(bx(), 100000),
			call("A", "a.go", 1, "sort.Slice", "sort", 0.20),
			call("B", "b.go", 1, "sort.Slice", "sort", 0.33)},
		want: []string{
			"cpu-call fix high b.go:1 BenchmarkX 33.0% parts=33%",
			"cpu-call fix high a.go:1 BenchmarkX 20.0% parts=20%"}},
	{name: "GenericMin/an allocation in its category's words at 13% comes before a function's own algorithm",
		doc:  []any{bx(), gc(0.2), site("F", "x.go", 10, 0.65), own("Own", "a.go", 1, 0.5)},
		want: []string{"alloc-site fix medium x.go:10 BenchmarkX 13.0%", "cpu-own-code fix low a.go:1 BenchmarkX 50.0% parts=50%"}},
	{name: "NamedMin/a function 6 over the inlining budget at 4% follows an allocation in its category's words at 13%",
		doc:  []any{bx(), gc(0.2), site("F", "a.go", 10, 0.65), notInlined("skip", "x.go", 20, 86, 80), flat("skip", 0.08)},
		want: []string{"alloc-site fix medium a.go:10 BenchmarkX 13.0%", "cpu-not-inlined fix low x.go:20 BenchmarkX 4.0% parts=4%"}},
	{name: "NamedMin/at 6% it leads it",
		doc:  []any{bx(), gc(0.2), site("F", "a.go", 10, 0.65), notInlined("skip", "x.go", 20, 86, 80), flat("skip", 0.12)},
		want: []string{"cpu-not-inlined fix low x.go:20 BenchmarkX 6.0% parts=6%", "alloc-site fix medium a.go:10 BenchmarkX 13.0%"}},
	{name: "GenericMin/at 7% it follows it",
		doc:  []any{bx(), gc(0.2), site("F", "x.go", 10, 0.35), own("Own", "a.go", 1, 0.5)},
		want: []string{"cpu-own-code fix low a.go:1 BenchmarkX 50.0% parts=50%", "alloc-site fix low x.go:10 BenchmarkX 7.0%"}},
	{name: "OwnCodeRank/an algorithm of 50% whose code names a change ranks as 15%: after 20%, before 12%",
		doc: []any{bx(),
			own("Own", "a.go", 1, 0.5), dispatchShape("Own", "a.go", 1),
			call("Y", "y.go", 1, "sort.Slice", "sort", 0.2), sortShape("Y", "y.go", 1),
			call("Z", "z.go", 1, "sort.Slice", "sort", 0.12), sortShape("Z", "z.go", 1)},
		want: []string{
			"cpu-call fix high y.go:1 BenchmarkX 20.0% parts=20% shape=sort-slice",
			"cpu-own-code fix low a.go:1 BenchmarkX 50.0% parts=50% shape=interface-dispatch",
			"cpu-call fix medium z.go:1 BenchmarkX 12.0% parts=12% shape=sort-slice"}},
	{name: "CPUMin/a call of 30% in its category's words follows every fix the code names (20%, 12%)",
		doc: []any{bx(),
			call("G", "g.go", 1, "sort.Slice", "sort", 0.3),
			call("Y", "y.go", 1, "sort.Slice", "sort", 0.2), sortShape("Y", "y.go", 1),
			call("Z", "z.go", 1, "sort.Slice", "sort", 0.12), sortShape("Z", "z.go", 1)},
		want: []string{
			"cpu-call fix high y.go:1 BenchmarkX 20.0% parts=20% shape=sort-slice",
			"cpu-call fix medium z.go:1 BenchmarkX 12.0% parts=12% shape=sort-slice",
			"cpu-call fix high g.go:1 BenchmarkX 30.0% parts=30%"}},
	{name: "NamedFloor/an allocation of 0.8% whose code names a change follows a call of 30% in its category's words",
		doc:  []any{bx(), gc(0.02), call("G", "g.go", 1, "sort.Slice", "sort", 0.3), site("F", "a.go", 10, 0.4), madeTogether("a.go", 10)},
		want: []string{"cpu-call fix high g.go:1 BenchmarkX 30.0% parts=30%", "alloc-site fix low a.go:10 BenchmarkX 0.8% shape=made-together gain:no-cpu"}},
	{name: "NamedFloor/at 1.6% it leads it",
		doc:  []any{bx(), gc(0.04), call("G", "g.go", 1, "sort.Slice", "sort", 0.3), site("F", "a.go", 10, 0.4), madeTogether("a.go", 10)},
		want: []string{"alloc-site fix low a.go:10 BenchmarkX 1.6% shape=made-together", "cpu-call fix high g.go:1 BenchmarkX 30.0% parts=30%"}},
	{name: "an algorithm of 50% in its category's words names no change: after every cause that names one",
		doc: []any{bx(),
			own("Own", "a.go", 1, 0.5),
			call("Y", "y.go", 1, "sort.Slice", "sort", 0.2),
			call("Z", "z.go", 1, "sort.Slice", "sort", 0.12)},
		want: []string{
			"cpu-call fix high y.go:1 BenchmarkX 20.0% parts=20%",
			"cpu-call fix medium z.go:1 BenchmarkX 12.0% parts=12%",
			"cpu-own-code fix low a.go:1 BenchmarkX 50.0% parts=50%"}},
	{name: "GainMin/a cause of 1.3% of the CPU states it in its gain",
		doc:  []any{bx(), gc(0.026), site("F", "x.go", 10, 0.5)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 1.3%"}},
	{name: "GainMin/one of 0.7% does not",
		doc:  []any{bx(), gc(0.014), site("F", "x.go", 10, 0.5)},
		want: []string{"alloc-site fix low x.go:10 BenchmarkX 0.7% gain:no-cpu"}},

	// The decision gate.
	{name: "GateAllocs/gc + memory at 26%: allocations first",
		doc:  []any{bx(), gc(0.26)},
		want: []string{"gate reduce-allocations-first first - 26.0%"}},
	{name: "GateAllocs/at 14% not",
		doc:  []any{bx(), gc(0.14)},
		want: nil},
	{name: "GateSyscall/system calls at 52%: I/O strategy first",
		doc:  []any{bx(), category("syscall", 0.52)},
		want: []string{"gate I/O-strategy first BenchmarkX 52.0%"}},
	{name: "GateSyscall/at 52% reading crypto/rand's randomness not: the values' bytes, no I/O to buffer",
		doc:  []any{bx(), category("syscall", 0.52), document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: "crypto/internal/sysrand.Read", Cum: 0.45}},
		want: nil},
	{name: "GateSyscall/at 28% not",
		doc:  []any{bx(), category("syscall", 0.28)},
		want: nil},
	{name: "PGOGoShare/a main package and 13% of the CPU in the module's Go code: consider PGO",
		doc:  []any{bx(), own("F", "x.go", 10, 0.13), mainPackage},
		want: []string{"gate profile-guided-optimization consider - 0"}},
	{name: "PGOGoShare/at 7% not",
		doc:  []any{bx(), own("F", "x.go", 10, 0.07), mainPackage},
		want: nil},
}

// TestSpec derives the findings of every specCase and compares them with
// what the package doc says they are.
func TestSpec(t *testing.T) {
	for _, tc := range specCases {
		t.Run(tc.name, func(t *testing.T) {
			got := specLines(specDoc(tc.doc), nil)
			if !slices.Equal(got, tc.want) {
				t.Errorf("got:\n\t%s\nwant:\n\t%s\nas Go: %#v", strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"), got)
			}
		})
	}
}

// TestEveryThresholdMatters doubles and halves each field of Thresholds,
// one at a time, and requires a specCase named after the field ("SiteMin/…",
// or "SevHigh+SevMedium/…") to come out differently: a threshold no case
// pins at its edge is not specified. It names every field that fails.
func TestEveryThresholdMatters(t *testing.T) {
	base := make([][]string, len(specCases))
	for i, tc := range specCases {
		base[i] = specLines(specDoc(tc.doc), nil)
	}
	typ := reflect.TypeOf(Thresholds{})
	var unpinned []string
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		for _, factor := range []float64{2, 0.5} {
			th := DefaultThresholds
			v := reflect.ValueOf(&th).Elem().Field(i)
			switch v.Kind() {
			case reflect.Float64:
				v.SetFloat(v.Float() * factor)
			case reflect.Int, reflect.Int64:
				v.SetInt(int64(float64(v.Int()) * factor))
			default:
				t.Fatalf("Thresholds.%s is a %s: teach this test to scale it", name, v.Kind())
			}
			changed := false
			for j, tc := range specCases {
				if pins(tc.name, name) && !slices.Equal(specLines(specDoc(tc.doc), &th), base[j]) {
					changed = true
					break
				}
			}
			if !changed {
				unpinned = append(unpinned, fmt.Sprintf("%s ×%g", name, factor))
			}
		}
	}
	if len(unpinned) > 0 {
		t.Errorf("no case of TestSpec named after these thresholds changes when they move; add one at the edge:\n\t%s", strings.Join(unpinned, "\n\t"))
	}
}

// pins reports whether a specCase's name says it is about field: the
// fields before the first "/", joined by "+".
func pins(caseName, field string) bool {
	fields, _, _ := strings.Cut(caseName, "/")
	return slices.Contains(strings.Split(fields, "+"), field)
}

// dispatchShape is an interface-dispatch shape at file:line of fn: advice
// from the code for a cause that is its function's own code.
func sortShape(fn, file string, line int64) document.Shape {
	return document.Shape{Name: "sort-slice", File: file, Line: line, Function: mod + "." + fn,
		Says: "sort.Slice swaps through reflection", Advice: "slices.SortFunc"}
}

func dispatchShape(fn, file string, line int64) document.Shape {
	return document.Shape{Name: "interface-dispatch", File: file, Line: line, Function: mod + "." + fn,
		Says: "n.Eval(x) calls through an interface", Advice: "a type switch over the common node types before the dynamic call"}
}

// specLines is what Derive makes of doc, one line per finding in order,
// then one per gate row:
//
//	rule section severity file:line benchmarks impact [+related lines] [parts=…] [gain:no-cpu]
//	gate rule verdict benchmark measured
//
// parts are the figures of the parts a CPU cause's message names (the
// parts PartMin lets through); gain:no-cpu marks a "fix" finding with a
// CPU share whose gain names none (GainMin). A gate row's threshold is
// left out: it repeats the threshold, not what the rule decided.
func specLines(doc *document.Report, th *Thresholds) []string {
	fs, gate := Derive(doc, Options{Thresholds: th})
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%s %s %s %s %s %.1f%%", f.Rule, f.Section, f.Severity, orDash(where(f.File, f.Line)), orDash(strings.Join(f.Benchmarks, ",")), 100*f.Impact)
		for _, r := range f.Related {
			s += " +" + where(r.File, r.Line)
		}
		if f.Kind == document.KindCPU {
			s += " parts=" + strings.Join(namedParts(f.Message), ",")
		}
		if f.Rule == document.RuleCPUPhase && strings.Contains(f.Message, "allocation and garbage collection") {
			s += " memory"
		}
		if f.Shape != "" {
			s += " shape=" + f.Shape
			if f.Generic || strings.Contains(f.Suggestion, "% of it): ") {
				// The shape speaks for a part of the cause.
				s += "(part)"
			}
		}
		if f.Section == document.SectionFix && f.Impact > 0 && !strings.Contains(f.Gain, "of its time") {
			s += " gain:no-cpu"
		}
		out = append(out, s)
	}
	for _, g := range gate {
		measured := fmt.Sprintf("%.1f%%", 100*g.Measured)
		if g.Unit != "share" {
			measured = fmt.Sprint(g.Measured)
		}
		out = append(out, fmt.Sprintf("gate %s %s %s %s", strings.ReplaceAll(g.Rule, " ", "-"), g.Verdict, orDash(g.Benchmark), measured))
	}
	return out
}

var partFigure = regexp.MustCompile(`(<?[0-9]+%)$`)

// namedParts are the figures of the parts a CPU cause's message names
// ("F: sorting (sort.Slice) 30%; string search (strings.Index) 9%"):
// which parts are named is the one thing PartMin decides, and the message
// is where it shows.
func namedParts(msg string) []string {
	_, list, _ := strings.Cut(msg, ": ")
	var out []string
	for _, clause := range strings.Split(list, "; ") {
		if m := partFigure.FindString(clause); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// specDoc builds a document of BenchmarkX's module from its parts:
// benchmarks, categories, allocation sites, line costs, hotspots,
// not-inlined functions, core-scaling rows and main packages.
// inPkg puts a benchmark in the module's package mod+sub.
func inPkg(b document.Benchmark, sub string) document.Benchmark { b.Package = mod + sub; return b }

// pkgCall puts a line cost's benchmark in the module's package mod+sub,
// and its function in package mod+fnSub.
func pkgCall(l document.LineCost, sub, fnSub string) document.LineCost {
	l.Package = mod + sub
	l.Function = mod + fnSub + strings.TrimPrefix(l.Function, mod)
	return l
}

// hot is a hotspot of fn (mod+fn) in benchmark bench of package mod+sub.
func hot(bench, sub, fn string) document.Hotspot {
	return document.Hotspot{Benchmark: bench, Package: mod + sub, Function: mod + fn, Flat: 0.1, Cum: 0.5}
}

func specDoc(parts []any) *document.Report {
	d := doc()
	for _, p := range parts {
		switch p := p.(type) {
		case document.Benchmark:
			d.Benchmarks = append(d.Benchmarks, p)
		case document.CategoryShare:
			d.Categories = append(d.Categories, p)
		case document.Allocation:
			d.Allocations = append(d.Allocations, p)
		case document.LineCost:
			d.Lines = append(d.Lines, p)
		case document.Shape:
			d.Shapes = append(d.Shapes, p)
		case document.LintFinding:
			d.Lint = append(d.Lint, p)
		case document.Hotspot:
			d.Hotspots = append(d.Hotspots, p)
		case document.NotInlined:
			d.NotInlined = append(d.NotInlined, p)
		case document.Scaling:
			d.Scaling = append(d.Scaling, p)
		case document.Phase:
			d.Phases = append(d.Phases, p)
		case document.RunVariant:
			// A program's run: the benchmark is its variant.
			d.Op = document.OpRun
			if d.Run == nil {
				d.Run = &document.Run{}
			}
			d.Run.Variants = append(d.Run.Variants, p)
		case mainPkg:
			d.MainPackages = append(d.MainPackages, string(p))
		case benchtime:
			d.Benchtime = string(p)
		case spareCores:
			v := float64(p)
			d.SpareCores = &v
		default:
			panic(fmt.Sprintf("specDoc: %T", p))
		}
	}
	return d
}

// mainPkg is a main package of the module that imports the measured
// code.
type mainPkg string

const mainPackage = mainPkg(mod + "/cmd/m")

// bx is the benchmark most cases measure: 1 µs/op, 10 allocs/op,
// 1000 B/op, mostly module code.
func bx() document.Benchmark { return benchmark("BenchmarkX", 1e-6, 10, 1000) }

// timeoutSet is BenchmarkX's timeout-set shape: a constant timeout of
// seconds it sets before its loop.
func timeoutSet(seconds float64) document.Shape {
	return document.Shape{Name: "timeout-set", File: "x_test.go", Line: 12, Function: mod + ".BenchmarkX", Seconds: seconds,
		Says: "BenchmarkX sets d.Timeout to 1s, a constant"}
}

// nodes is newNode's allocation of n tree nodes per op, returned.
func nodes(n float64) document.Allocation {
	a := escapesByResult(site("newNode", "tree.go", 140, 0.6))
	a.AllocsPerOp, a.BytesPerOp = n, 104*n
	return a
}

// nodeChunks is a node-chunks shape at newNode's allocation.
func nodeChunks() document.Shape {
	return document.Shape{Name: "node-chunks", File: "tree.go", Line: 140, Function: mod + ".newNode",
		Says:   "newNode makes every Node of the tree with an allocation of its own (&Node{…}, 104 bytes, with its Children): one allocation per node of the input",
		Advice: "allocate the nodes in chunks the code that builds the tree owns"}
}

// sampled gives the benchmark's CPU profile n samples.
func sampled(b document.Benchmark, n int64) document.Benchmark { b.CPUSamples = n; return b }

func procs(b document.Benchmark, n int) document.Benchmark { b.Procs = n; return b }

func parallel(b document.Benchmark) document.Benchmark { b.Parallel = true; return b }

// busy sets the share of a core the benchmark's CPU profile sampled.
func busy(b document.Benchmark, share float64) document.Benchmark { b.CPUBusy = f64(share); return b }

// shares sets the benchmark's module and callee CPU shares.
func shares(b document.Benchmark, module, callee float64) document.Benchmark {
	b.ModuleCPUShare, b.CalleeCPUShare = f64(module), f64(callee)
	return b
}

func drift(b document.Benchmark, factor float64) document.Benchmark { b.BytesDrift = factor; return b }

// runs gives the benchmark runs at 1,000, 2,000, … iterations with these
// B/op.
func runs(b document.Benchmark, bytes []float64) document.Benchmark {
	for i, v := range bytes {
		b.BytesByIters = append(b.BytesByIters, document.IterSample{Iters: float64(1000 * (i + 1)), Value: v})
	}
	return b
}

// iterBytes gives the benchmark two runs: n1 iterations at b1 B/op, n2
// at b2.
func iterBytes(b document.Benchmark, n1, b1, n2, b2 float64) document.Benchmark {
	b.BytesByIters = []document.IterSample{{Iters: n1, Value: b1}, {Iters: n2, Value: b2}}
	return b
}

// benchtime is the report's -benchtime (see specDoc).
type benchtime string

// spareCores is how many cores sat idle while the report's benchmarks ran.
type spareCores float64

// heapIters gives the heap runs' bytes per iteration at two counts.
func heapIters(b document.Benchmark, n1, v1, n2, v2 float64) document.Benchmark {
	b.HeapBytesByIters = []document.IterSample{{Iters: n1, Value: v1}, {Iters: n2, Value: v2}}
	return b
}

// sameIters gives b rounds run at one iteration count, with these B/op.
func sameIters(b document.Benchmark, iters float64, values ...float64) document.Benchmark {
	for _, v := range values {
		b.BytesByIters = append(b.BytesByIters, document.IterSample{Iters: iters, Value: v})
	}
	return b
}

func loopBytes(b document.Benchmark, bytes float64) document.Benchmark {
	b.LoopBytesPerOp = f64(bytes)
	return b
}

func category(name string, share float64) document.CategoryShare {
	return document.CategoryShare{Benchmark: "BenchmarkX", Package: mod, Category: document.Category(name), Share: share}
}

func gc(share float64) document.CategoryShare    { return category("gc", share) }
func sched(share float64) document.CategoryShare { return category("scheduler", share) }

// site is an allocation site of function fn in BenchmarkX with share of
// its bytes and objects, once per op, made by a make of variable size.
func site(fn, file string, line int64, share float64) document.Allocation {
	return document.Allocation{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, File: file, Line: line,
		BytesShare: share, ObjectsShare: share, AllocsPerOp: 1, BytesPerOp: 100, Escape: &document.Escape{Cause: "variable-make"}}
}

// copied makes a site a local copy moved to the heap by its address.
func copied(a document.Allocation) document.Allocation {
	a.Escape = &document.Escape{Cause: "moved-to-heap", Name: "v"}
	return a
}

// madeTogether is a made-together shape at file:line of F.
func madeTogether(file string, line int64) document.Shape {
	return document.Shape{Name: "made-together", File: file, Line: line, Function: mod + ".F",
		Says: "F makes a and b, two []int of length n, one after the other at every call", Advice: "make them as one and cut it in two"}
}

// copyOverride is a copy-override shape at file:line of F.
func copyOverride(file string, line int64) document.Shape {
	return document.Shape{Name: "copy-override", File: file, Line: line, Function: mod + ".F",
		Says: "F copies *m into v on every call so that a branch can change a field", Advice: "copy it only in the branch that changes a field"}
}

// rare sets a site's allocations per op and share of the bytes.
func rare(a document.Allocation, allocsPerOp, bytesShare float64) document.Allocation {
	a.AllocsPerOp, a.BytesShare, a.BytesPerOp = allocsPerOp, bytesShare, 1000
	return a
}

// rareBytes is rare with bytesPerOp bytes per op.
func rareBytes(a document.Allocation, allocsPerOp, bytesShare, bytesPerOp float64) document.Allocation {
	a = rare(a, allocsPerOp, bytesShare)
	a.BytesPerOp = bytesPerOp
	return a
}

// escapesByResult makes a site's value leave through the function's result.
func escapesByResult(a document.Allocation) document.Allocation {
	a.Escape = &document.Escape{Cause: "escapes", Name: "&T{...}", Sink: "return"}
	return a
}

// converts makes a site a string↔[]byte conversion.
func converts(a document.Allocation) document.Allocation {
	a.Escape = &document.Escape{Cause: "conversion", Name: "string(b)"}
	return a
}

// fixture is an allocation of BenchmarkX's own _test.go code.
func fixture(file string, line int64, bytesShare float64) document.Allocation {
	return document.Allocation{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".BenchmarkX", File: file, Line: line,
		BytesShare: bytesShare, ObjectsShare: bytesShare, AllocsPerOp: 1, BytesPerOp: 100, InTest: true}
}

// testLine is a line of BenchmarkX's own code calling os.OpenFile, with
// the time below it.
func testLine(file string, line int64, cum float64) document.LineCost {
	return document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".BenchmarkX", File: file, Line: line,
		InTest: true, Callee: "os.OpenFile", Category: document.CategorySyscall, Self: cum, Cum: cum}
}

// filePerOp is a file-per-op shape at a line of BenchmarkX's loop.
func filePerOp(file string, line int64) document.Shape {
	return document.Shape{Name: "file-per-op", File: file, Line: line, Function: mod + ".BenchmarkX",
		Says: "BenchmarkX calls os.Open(name) in its loop", Advice: "read the file once, before the loop"}
}

// builtPerOp is a built-per-op shape at a line of BenchmarkX's loop, its
// constructor ctor.
func builtPerOp(file string, line int64, ctor string) document.Shape {
	return document.Shape{Name: "built-per-op", File: file, Line: line, Function: mod + ".BenchmarkX.func1",
		Says:    "BenchmarkX builds enc with " + ctor + "() on every iteration of its loop, then calls its methods: its numbers include the construction",
		Advice:  "build enc once, before the loop",
		Related: []document.Location{{File: "enc.go", Line: 5, Note: document.ConstructorNote + mod + "." + ctor}}}
}

// hotFn is BenchmarkX's hottest-functions row for fn, cum its share.
func hotFn(fn string, cum float64) document.Hotspot {
	return document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, Flat: cum / 4, Cum: cum}
}

// call is a line of fn calling callee, with the time below it.
func call(fn, file string, line int64, callee, cat string, cum float64) document.LineCost {
	return document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, File: file, Line: line,
		Callee: callee, Category: document.Category(cat), Self: cum, Cum: cum}
}

// selfOf gives a call's line self of its time with no module code below.
// inBench moves a line's cost to another benchmark.
func inBench(bench string, l document.LineCost) document.LineCost { l.Benchmark = bench; return l }

func selfOf(l document.LineCost, self float64) document.LineCost { l.Self = self; return l }

// callIn is call in benchmark bench.
func callIn(bench, fn, file string, line int64, callee, cat string, cum float64) document.LineCost {
	l := call(fn, file, line, callee, cat, cum)
	l.Benchmark = bench
	return l
}

// micro and api give a benchmark its dominant call path: the benchmark
// calling fn of the module directly.
func micro(b document.Benchmark, fn string) document.Benchmark {
	b.CallPath = &document.CallPath{Functions: []string{mod + "." + b.Name, mod + "." + fn, "strings.Count"}, Share: 0.9}
	return b
}

func api(b document.Benchmark, fn string) document.Benchmark { return micro(b, fn) }

// phase is a phase of BenchmarkX's run: function fn of the module called
// from main at m.go:5, with share of the CPU and memory of that in
// allocation and collection.
// partialHeap makes BenchmarkX a program's run whose heap profile holds
// 40% of the bytes allocated (written without a final collection);
// wholeHeap one written after it.
func partialHeap() document.RunVariant {
	return document.RunVariant{Name: "BenchmarkX", FinalGC: "skipped", AllocBytes: 1000, HeapProfileBytes: 400}
}

func wholeHeap() document.RunVariant {
	return document.RunVariant{Name: "BenchmarkX", FinalGC: "collected", AllocBytes: 1000, HeapProfileBytes: 1000}
}

// allocLine is a line of function fn whose call into the runtime's
// allocator (growing a slice) takes share of BenchmarkX's CPU.
func allocLine(fn, file string, line int64, share float64) document.LineCost {
	return document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, File: file, Line: line,
		Callee: "runtime.growslice", Category: "memory", Self: share, Cum: share}
}

func phase(fn string, share, memory float64) document.Phase {
	return document.Phase{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, Caller: mod + ".main", File: "m.go", Line: 5, Share: share, MemoryShare: memory}
}

// setupLint is perfloop lint's timed setup at x_test.go:5 in BenchmarkX.
func setupLint() document.LintFinding {
	return document.LintFinding{Analyzer: "setup", Package: mod, Benchmark: "BenchmarkX", File: "x_test.go", Line: 5,
		Message: "setup runs before the b.N loop with the timer on", Why: "it is timed", Fix: "call b.ResetTimer after the setup"}
}

// testPath gives b a dominant call path into its own helper fn (test
// code), share of its CPU.
func testPath(b document.Benchmark, fn string, share float64) document.Benchmark {
	b.CallPath = &document.CallPath{Functions: []string{mod + "." + b.Name, mod + "." + fn}, Share: share}
	return b
}

// discardLint is perfloop lint's discarded result at x_test.go:7 in
// BenchmarkX.
func discardLint() document.LintFinding {
	return document.LintFinding{Analyzer: "discard", Package: mod, Benchmark: "BenchmarkX", File: "x_test.go", Line: 7,
		Message: "the result of Run is discarded in the b.N loop", Why: "the compiler may delete the call", Fix: "loop with for b.Loop()"}
}

// setupLine is BenchmarkX's setup line x_test.go:5 with cum of its CPU.
func setupLine(cum float64) document.LineCost {
	return document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + ".BenchmarkX", File: "x_test.go", Line: 5,
		Callee: mod + ".Setup", Category: "application", Cum: cum, InTest: true}
}

// own is a line of fn that calls nothing.
func own(fn, file string, line int64, self float64) document.LineCost {
	return document.LineCost{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, File: file, Line: line,
		Category: "application", Self: self, Cum: self}
}

func src(l document.LineCost, source string) document.LineCost { l.Source = source; return l }

func notInlined(fn, file string, line int64, cost, budget int) document.NotInlined {
	return document.NotInlined{Function: mod + "." + fn, File: file, Line: line, Cost: cost, Budget: budget}
}

// reaches is a line of fn in bench's profile at 2.1%, just over
// OwnJoinMin, below any cause's threshold: the benchmark reaches the
// function.
func reaches(bench, fn, file string, line int64) document.LineCost {
	return callIn(bench, fn, file, line, "", "application", 0.021)
}

// flatCum is a hotspot of fn with flat and cumulative shares.
func flatCum(fn string, flat, cum float64) document.Hotspot {
	return document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, Flat: flat, Cum: cum}
}

// flat is fn's flat share of BenchmarkX's CPU.
func flat(fn string, share float64) document.Hotspot {
	return document.Hotspot{Benchmark: "BenchmarkX", Package: mod, Function: mod + "." + fn, Flat: share, Cum: share}
}

// cores is BenchmarkX's core-scaling row at 1 and 2 cores: 100 ns/op at
// 2 cores, efficiency eff, cores used in the profiled run, and what the
// profiles found (lock sites, growing lines, atomics).
func cores(eff, used float64, found ...any) document.Scaling {
	s := document.Scaling{Benchmark: "BenchmarkX", Package: mod, Parameter: "cpu",
		CPU: []int{1, 2}, NsPerOp: []float64{200 * eff, 100}, Efficiency: eff, CoresUsed: used}
	for _, f := range found {
		switch f := f.(type) {
		case document.LockSite:
			s.Locks = append(s.Locks, f)
		case document.LineGrowth:
			s.Growing = append(s.Growing, f)
		case []document.LineInside:
			s.Atomics, s.Shared = f, []string{"m"}
		}
	}
	return s
}

// rlock is an RWMutex read path whose lock operations take lockCPU.
func rlock(lockCPU float64) document.LockSite {
	return document.LockSite{File: "x.go", Line: 27, Function: mod + ".(*Store).Get", Op: "sync.(*RWMutex).RLock", Profile: "cpu",
		HeldTo: 29, CPUInside: 0.1, LockCPU: lockCPU, Source: "s.mu.RLock()"}
}

// lock is an exclusive lock holding inside of the CPU, whose waits take
// delay ns/op.
// wrapperLock is a section opened by a module type's Lock method (a
// logger's MutexWrap, which takes no lock when disabled), seen only in
// the CPU profile.
func wrapperLock(inside float64) document.LockSite {
	return document.LockSite{File: "x.go", Line: 287, Function: mod + ".(*Entry).write", Op: "entry.Logger.mu.Lock", Profile: "cpu",
		HeldTo: 296, CPUInside: inside, Source: "entry.Logger.mu.Lock()"}
}

func lock(inside, delay float64) document.LockSite {
	l := document.LockSite{File: "x.go", Line: 54, Function: mod + ".(*Registry).Add", Op: "sync.(*Mutex).Lock", Profile: "block",
		DelayPerOp: delay, HeldTo: 59, CPUInside: inside, Source: "r.mu.Lock()"}
	if inside > 0 {
		l.Inside = []document.LineInside{{Line: 56, Callee: "crypto/sha256.Sum256", Category: "crypto", Share: inside, Source: "sum := sha256.Sum256(p)"}}
	}
	return l
}

// growing is an atomic update whose CPU per op goes from ns1 at one core
// to nsN at two.
func poolGrowing(ns1, nsN float64) document.LineGrowth {
	return document.LineGrowth{File: "x.go", Line: 52, Function: mod + ".putEvent", NsPerOp1: ns1, NsPerOpN: nsN,
		Samples1: 100, SamplesN: 200, Mechanism: "pool", Source: "eventPool.Put(e)"}
}

func growing(ns1, nsN float64) document.LineGrowth {
	return document.LineGrowth{File: "x.go", Line: 40, Function: mod + ".(*Counter).Add", NsPerOp1: ns1, NsPerOpN: nsN,
		Samples1: 100, SamplesN: 200, Mechanism: "atomic", Source: "atomic.AddInt64(&c.n, 1)"}
}

// atomics are a function's atomic writes to the shared object m, share
// of the CPU in all.
func atomics(share float64) []document.LineInside {
	return []document.LineInside{
		{File: "x.go", Function: mod + ".(*Meter).Mark", Line: 165, Share: share * 0.6, Source: "atomic.AddInt64(&m.count, n)"},
		{File: "x.go", Function: mod + ".(*Meter).Mark", Line: 168, Share: share * 0.4, Source: "atomic.AddInt64(&m.rate, n)"},
	}
}

// partsSite is a site of F at x.go:10 storing a slice it makes into a
// field, two allocations per op of perAlloc bytes each.
func partsSite(perAlloc float64) document.Allocation {
	a := site("F", "x.go", 10, 0.3)
	a.AllocsPerOp, a.BytesPerOp = 2, 2*perAlloc
	a.Escape = &document.Escape{Cause: "escapes", Sink: "heap", Name: "make([]byte, n)"}
	return a
}

// partsApart is a parts-apart shape at file:line of F.
func partsApart(file string, line int64) document.Shape {
	return document.Shape{Name: "parts-apart", File: file, Line: line, Function: mod + ".F",
		Says: "T's parts are allocated one by one: a and b (F, line 10)", Advice: "carve a and b out of one []byte made with T"}
}
