package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// Options tune Derive.
type Options struct {
	// Module is the module path whose functions count as the module's
	// code; empty means the document's Module.
	Module string
	// Weights gives a benchmark's importance by name (with the Benchmark
	// prefix); a benchmark not listed weighs 1.
	Weights map[string]float64
}

// Thresholds of the rules; the package doc says what each means.
const (
	siteMin         = 0.10  // rule 1: smallest site share reported
	siteMedium      = 0.20  // rule 1: medium severity
	siteHigh        = 0.50  // rule 1: high severity
	testShareMin    = 0.50  // rule 2
	tightSecPerOp   = 50e-9 // rule 3
	tightOwnCPU     = 0.90  // rule 3: flat share of _test.go hotspots
	cpuHigh         = 0.50  // rule 4: high severity
	gateAllocs      = 0.20  // rule 5: gc + memory
	gateScheduler   = 0.20  // rule 5
	gateSyscall     = 0.40  // rule 5
	gateLibrary     = 0.30  // rule 5: compression, crypto, encoding
	gateConsiderGap = 0.05  // rule 5: "consider" this close below a threshold
)

// Gate rule names.
const (
	ruleAllocs    = "reduce allocations first"
	ruleContend   = "contention"
	ruleIO        = "I/O strategy"
	ruleLibrary   = "library or format choice"
	ruleFixture   = "fix the benchmark first"
	ruleTight     = "already tight"
	rulePGO       = "profile-guided optimization"
	kindEscape    = "escape"
	kindAlloc     = "alloc"
	kindTestCode  = "test-code"
	kindTight     = "tight"
	kindCPU       = "cpu"
	causeUnknown  = "unknown"
	causeCallee   = "callee"
	shareUnit     = "share"
	secPerOp      = "sec/op"
	allocsPerOp   = "allocs/op"
	testFileSufix = "_test.go"
)

// cpuRule is one row of rule 4.
type cpuRule struct {
	category   string
	threshold  float64
	what       string // "map access"
	suggestion string
}

var cpuRules = []cpuRule{
	{"maps", 0.30, "map access", "a slice indexed by a small dense int key, a struct key instead of a concatenated string, or fewer lookups"},
	{"fmt", 0.20, "fmt formatting", "use strconv.Append* into a reused []byte or a strings.Builder instead of fmt in the hot path"},
	{"strings", 0.20, "string building and copying", "reuse buffers: append into a reused []byte or a strings.Builder with Grow instead of building new strings per call"},
	{"reflect", 0.30, "reflection", "library or format choice: a code-generated or hand-written encoder instead of a reflection-based one, or reflect once and cache"},
	{"encoding", 0.30, "encoding and decoding", "library or format choice: a faster encoder, a binary format, or encode less"},
}

// ranked is a finding with what ranks it.
type ranked struct {
	f    document.Finding
	gain float64
}

// deriver holds what the rules share.
type deriver struct {
	doc     *document.Report
	opts    Options
	module  string
	cats    map[string]map[string]float64 // benchmark → category → share
	sites   map[string][]*document.Allocation
	hots    map[string][]*document.Hotspot
	found   []ranked
	gate    []document.Gate
	tight   map[string]bool
	fixture map[string]bool
}

// Derive applies the rules to doc and returns the findings, most valuable
// first, and the decision gate.
func Derive(doc *document.Report, opts Options) (findings []document.Finding, gate []document.Gate) {
	if doc == nil {
		return nil, nil
	}
	d := &deriver{
		doc: doc, opts: opts, module: cmp.Or(opts.Module, doc.Module),
		cats:  map[string]map[string]float64{},
		sites: map[string][]*document.Allocation{},
		hots:  map[string][]*document.Hotspot{},
		tight: map[string]bool{}, fixture: map[string]bool{},
	}
	for i := range doc.Categories {
		c := &doc.Categories[i]
		if d.cats[c.Benchmark] == nil {
			d.cats[c.Benchmark] = map[string]float64{}
		}
		d.cats[c.Benchmark][c.Category] += c.Share
	}
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		d.sites[a.Benchmark] = append(d.sites[a.Benchmark], a)
	}
	for i := range doc.Hotspots {
		h := &doc.Hotspots[i]
		d.hots[h.Benchmark] = append(d.hots[h.Benchmark], h)
	}
	for i := range doc.Benchmarks {
		b := &doc.Benchmarks[i]
		if b.Status != "" && b.Status != "ok" {
			continue
		}
		if d.tightRule(b) {
			continue
		}
		d.fixtureRule(b)
		d.siteRule(b)
		d.cpuRule(b)
		d.gateRules(b)
	}
	if len(doc.Benchmarks) > 0 {
		d.gate = append(d.gate, document.Gate{
			Rule: rulePGO, Metric: "pgo", Unit: shareUnit, Verdict: document.VerdictConsider,
			Message: "typically 2–7% from profile-guided optimization: go build -pgo=cpu.pprof with a CPU profile of a representative run (default.pgo in the main package is used automatically)",
		})
	}
	return d.ranked(), d.sortedGate()
}

// importance is a benchmark's weight.
func (d *deriver) importance(name string) float64 {
	if w, ok := d.opts.Weights[name]; ok {
		return w
	}
	return 1
}

func (d *deriver) add(f document.Finding, share float64) {
	d.found = append(d.found, ranked{f, share * d.importance(f.Benchmark)})
}

// tightRule is rule 3; it reports whether the benchmark is tight.
func (d *deriver) tightRule(b *document.Benchmark) bool {
	allocs, ok := median(b, allocsPerOp)
	if !ok || allocs != 0 {
		return false
	}
	sec, hasSec := median(b, secPerOp)
	fast := hasSec && sec < tightSecPerOp
	own := 0.0
	for _, h := range d.hots[b.Name] {
		if strings.HasSuffix(h.File, testFileSufix) {
			own += h.Flat
		}
	}
	if !fast && own < tightOwnCPU {
		return false
	}
	d.tight[b.Name] = true
	why := fmt.Sprintf("0 allocs/op and %s/op", duration(sec))
	if !fast {
		why = fmt.Sprintf("0 allocs/op and %.0f%% of its CPU in the benchmark's own code", own*100)
	}
	d.add(document.Finding{
		Kind: kindTight, Severity: document.SeverityInfo, Benchmark: b.Name,
		Message:    fmt.Sprintf("%s: %s: nothing to gain here — don't optimize", b.Name, why),
		Suggestion: "leave it as it is; spend the effort on the benchmarks the gate marks first",
	}, 0)
	d.gate = append(d.gate, document.Gate{
		Rule: ruleTight, Benchmark: b.Name, Metric: secPerOp, Unit: secPerOp,
		Measured: sec, Threshold: tightSecPerOp, Verdict: document.VerdictDontTouch,
		Message: fmt.Sprintf("%s: changing it buys nothing measurable and costs clarity", why),
	})
	return true
}

// fixtureRule is rule 2.
func (d *deriver) fixtureRule(b *document.Benchmark) {
	if b.TestAllocShare == nil || *b.TestAllocShare < testShareMin {
		return
	}
	// A benchmark whose timed loop allocates nothing measures none of its
	// fixture: the setup before b.Loop (or b.ResetTimer) is all there is.
	if d.loopAllocatesNothing(b) {
		return
	}
	share := *b.TestAllocShare
	d.fixture[b.Name] = true
	var top *document.Allocation
	for _, a := range d.sites[b.Name] {
		if d.inTest(a) && (top == nil || a.BytesShare > top.BytesShare) {
			top = a
		}
	}
	f := document.Finding{
		Kind: kindTestCode, Severity: document.SeverityHigh, Benchmark: b.Name,
		Message:    fmt.Sprintf("fix the benchmark first: %s of its bytes are allocated in _test.go", pct(share)),
		Suggestion: "build the fixture before b.ResetTimer / outside the b.Loop body, or reuse it across iterations",
	}
	if top != nil {
		f.Function, f.File, f.Line = top.Function, top.File, top.Line
		f.Message += fmt.Sprintf(" (%s:%d)", top.File, top.Line)
	}
	d.add(f, share)
	d.gate = append(d.gate, document.Gate{
		Rule: ruleFixture, Benchmark: b.Name, Metric: "test_alloc_share", Unit: shareUnit,
		Measured: share, Threshold: testShareMin, Verdict: document.VerdictFirst,
		Message: fmt.Sprintf("%s of the benchmark's bytes are the fixture's: its numbers measure the test, not the code", pct(share)),
	})
}

// siteRule is rule 1.
func (d *deriver) siteRule(b *document.Benchmark) {
	allocs, hasAllocs := median(b, allocsPerOp)
	if hasAllocs && allocs <= 0 {
		return
	}
	for _, a := range d.sites[b.Name] {
		if a.Package != "" && b.Package != "" && a.Package != b.Package {
			continue
		}
		share, unit := a.BytesShare, "bytes"
		if a.ObjectsShare > share {
			share, unit = a.ObjectsShare, "objects"
		}
		if share < siteMin {
			continue
		}
		test := d.inTest(a)
		if test && d.fixture[b.Name] {
			continue
		}
		sev := document.SeverityLow
		switch {
		case share >= siteHigh && hasAllocs && allocs >= 1 && !test && d.isModule(a.Function):
			sev = document.SeverityHigh
		case share >= siteMedium:
			sev = document.SeverityMedium
		}
		cause := ""
		if a.Escape != nil {
			cause = a.Escape.Cause
		}
		kind := kindAlloc
		if cause != "" && cause != causeUnknown && cause != causeCallee {
			kind = kindEscape
		}
		d.add(document.Finding{
			Kind: kind, Severity: sev, Benchmark: b.Name, Function: a.Function,
			File: a.File, Line: a.Line,
			Message:    fmt.Sprintf("%s; %s of %s", siteReason(a), pct(share), unit),
			Suggestion: siteFix(a),
		}, share)
	}
}

// siteReason says in plain words why a site allocates.
func siteReason(a *document.Allocation) string {
	e := a.Escape
	if e != nil && e.Reason != "" {
		return e.Reason
	}
	name := ""
	cause := ""
	if e != nil {
		name, cause = e.Name, e.Cause
	}
	subject := cmp.Or(name, "a value made here")
	switch cause {
	case "moved-to-heap":
		return subject + " is moved to the heap because its address outlives the function"
	case "interface":
		return subject + " is converted to an interface (boxed) on the heap"
	case "variable-make":
		return cmp.Or(name, "a make") + " has a non-constant size, so it is allocated on the heap when it does not fit a 32-byte stack buffer"
	case "append":
		return "append grows " + cmp.Or(name, "the slice") + ": each time its capacity runs out it allocates a larger array and copies"
	case "concat":
		return "string concatenation allocates a new string"
	case "conversion":
		return "a string↔[]byte conversion copies into a new allocation"
	case "map":
		return "the map" + cond(name != "", " "+name, "") + " grows as entries are added and allocates new storage"
	case "closure":
		return "a func literal escapes, so its closure and captured variables are on the heap"
	case "escapes":
		return subject + " escapes to the heap"
	}
	if a.Via != "" {
		return "the allocation is inside " + a.Via + ", called on this line"
	}
	if e != nil && e.Verdict != "" {
		return e.Verdict
	}
	return "allocates; no compiler verdict explains it"
}

// siteFix names the fix pattern for a site's cause and code.
func siteFix(a *document.Allocation) string {
	var e document.Escape
	if a.Escape != nil {
		e = *a.Escape
	}
	if strings.HasPrefix(a.Via, "fmt.") || e.Cause == "interface" && mentions(e, "fmt.") {
		return "use strconv.Append* into a reused []byte, or a strings.Builder, instead of fmt"
	}
	switch e.Cause {
	case "moved-to-heap", "escapes":
		switch {
		case mentions(e, "captured by a closure"):
			return "avoid capturing by reference: pass the value to the func literal as an argument, or use a method on a struct"
		case mentions(e, ".Write(", "io.Writer", "Writer)"):
			return "keep the buffer in the enclosing struct and reuse it, or use a fixed-size array field"
		}
		return cmp.Or(e.Fix, "keep its address from outliving the call: don't pass it through an interface or store it; let the caller provide the memory")
	case "variable-make":
		return "hoist the buffer into the enclosing struct and reuse it (buf = buf[:0]); sync.Pool for large per-call buffers; a fixed-size array when n has a small bound"
	case "append":
		return "preallocate with make([]T, 0, n) or reuse a slice (s = s[:0])"
	case "concat":
		return "append into a reused []byte or a strings.Builder with Grow"
	case "conversion":
		return "keep one representation; strconv.Append*, or the []byte form throughout"
	case "interface":
		return cmp.Or(e.Fix, "avoid boxing in the hot path: concrete-typed calls instead of interface or ...any arguments")
	case "map":
		return "size the map (make(map[K]V, n)); a slice indexed by a small dense int key instead of a map"
	case "closure":
		return "avoid capturing by reference / pass arguments to the func literal"
	case "callee":
		return fmt.Sprintf("the allocation is inside %s: call it less, or use an API that takes a buffer", cmp.Or(a.Via, e.Name, "the callee"))
	}
	if a.Via != "" {
		return fmt.Sprintf("the allocation is inside %s: call it less, or use an API that takes a buffer", a.Via)
	}
	return cmp.Or(e.Fix, "allocate less here: reuse the value across calls or let the caller provide the memory")
}

// mentions reports whether the escape's reason, verdict, name or flow
// contains any of words.
func mentions(e document.Escape, words ...string) bool {
	texts := append([]string{e.Reason, e.Verdict, e.Name}, e.Flow...)
	for _, t := range texts {
		for _, w := range words {
			if strings.Contains(t, w) {
				return true
			}
		}
	}
	return false
}

// cpuRule is rule 4.
func (d *deriver) cpuRule(b *document.Benchmark) {
	cats := d.cats[b.Name]
	for _, r := range cpuRules {
		share := cats[r.category]
		if share < r.threshold {
			continue
		}
		sev := document.SeverityMedium
		if share >= cpuHigh {
			sev = document.SeverityHigh
		}
		f := document.Finding{
			Kind: kindCPU, Severity: sev, Benchmark: b.Name,
			Message:    fmt.Sprintf("%s is %s of CPU in %s", r.what, pct(share), b.Name),
			Suggestion: r.suggestion,
		}
		if h := d.hotspot(b); h != nil {
			f.Function, f.File, f.Line = h.Function, h.File, h.Line
			f.Message = fmt.Sprintf("%s is %s of CPU in %s, under %s", r.what, pct(share), b.Name, shortName(h.Function))
		}
		d.add(f, share)
	}
}

// hotspot is the hottest module-code hotspot on the benchmark's call path:
// the innermost module frame of the path with a hotspot, else the module
// hotspot with the largest flat share.
func (d *deriver) hotspot(b *document.Benchmark) *document.Hotspot {
	var module []*document.Hotspot
	for _, h := range d.hots[b.Name] {
		if d.isModule(h.Function) && !strings.HasSuffix(h.File, testFileSufix) {
			module = append(module, h)
		}
	}
	if b.CallPath != nil {
		fns := b.CallPath.Functions
		for i := len(fns) - 1; i >= 0; i-- {
			for _, h := range module {
				if h.Function == fns[i] {
					return h
				}
			}
		}
	}
	var best *document.Hotspot
	for _, h := range module {
		if best == nil || h.Flat > best.Flat {
			best = h
		}
	}
	return best
}

// gateRules is rule 5 for one benchmark (rules 2 and 3 add their own rows).
func (d *deriver) gateRules(b *document.Benchmark) {
	cats := d.cats[b.Name]
	if cats == nil {
		return
	}
	d.threshold(b.Name, ruleAllocs, "gc+memory", cats["gc"]+cats["memory"], gateAllocs, document.VerdictFirst,
		"garbage collection and allocation take %s of CPU: reduce allocations before tuning code")
	d.threshold(b.Name, ruleContend, "scheduler", cats["scheduler"], gateScheduler, document.VerdictFirst,
		"the scheduler takes %s of CPU: goroutines contend or hand off too often (locks, channels); batch work, shard state")
	d.threshold(b.Name, ruleIO, "syscall", cats["syscall"], gateSyscall, document.VerdictFirst,
		"system calls take %s of CPU: buffer I/O (bufio), batch writes, or read larger blocks")
	top, topShare := "", 0.0
	for c, s := range cats {
		if s > topShare || s == topShare && c < top {
			top, topShare = c, s
		}
	}
	if top == "compression" || top == "crypto" || top == "encoding" {
		d.threshold(b.Name, ruleLibrary, top, topShare, gateLibrary, document.VerdictConsider,
			top+" is the largest category at %s of CPU: the library or the format decides; compare implementations, levels, or formats")
	}
}

// threshold adds a gate row when measured exceeds threshold (verdict), or
// is within gateConsiderGap below it (consider).
func (d *deriver) threshold(bench, rule, metric string, measured, threshold float64, verdict, msg string) {
	switch {
	case measured >= threshold && (measured > threshold || verdict == document.VerdictConsider):
	case measured > 0 && measured > threshold-gateConsiderGap-1e-9:
		verdict = document.VerdictConsider
	default:
		return
	}
	d.gate = append(d.gate, document.Gate{
		Rule: rule, Benchmark: bench, Metric: metric, Unit: shareUnit,
		Measured: measured, Threshold: threshold, Verdict: verdict,
		Message: fmt.Sprintf(msg, pct(measured)),
	})
}

// ranked sorts and deduplicates the findings (rule 6).
func (d *deriver) ranked() []document.Finding {
	slices.SortStableFunc(d.found, func(a, b ranked) int {
		return cmp.Or(
			cmp.Compare(severityRank(a.f.Severity), severityRank(b.f.Severity)),
			cmp.Compare(b.gain, a.gain),
		)
	})
	type key struct {
		bench, file string
		line        int64
		kind        string
	}
	seen := map[key]bool{}
	var out []document.Finding
	for _, r := range d.found {
		k := key{r.f.Benchmark, r.f.File, r.f.Line, r.f.Kind}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, r.f)
	}
	return out
}

// sortedGate orders the gate: first, consider, don't touch, then by
// measured share, largest first.
func (d *deriver) sortedGate() []document.Gate {
	slices.SortStableFunc(d.gate, func(a, b document.Gate) int {
		return cmp.Or(
			cmp.Compare(verdictRank(a.Verdict), verdictRank(b.Verdict)),
			cmp.Compare(b.Measured, a.Measured),
		)
	})
	return d.gate
}

func severityRank(s string) int {
	switch s {
	case document.SeverityHigh:
		return 0
	case document.SeverityMedium:
		return 1
	case document.SeverityLow:
		return 2
	}
	return 3
}

func verdictRank(v string) int {
	switch v {
	case document.VerdictFirst:
		return 0
	case document.VerdictConsider:
		return 1
	}
	return 2
}

// inTest reports whether a site is the benchmark's own test code.
func (d *deriver) inTest(a *document.Allocation) bool {
	return a.InTest || strings.HasSuffix(a.File, testFileSufix)
}

// isModule reports whether fn is the module's code and not a benchmark
// function.
func (d *deriver) isModule(fn string) bool {
	if strings.HasPrefix(shortName(fn), "Benchmark") {
		return false
	}
	if d.module != "" {
		return strings.HasPrefix(fn, d.module+".") || strings.HasPrefix(fn, d.module+"/")
	}
	i := strings.Index(fn, "/")
	return i > 0 && strings.Contains(fn[:i], ".")
}

// shortName drops the import path: "example.com/m.(*T).Add" → "(*T).Add".
func shortName(fn string) string {
	i := strings.LastIndex(fn, "/")
	rest := fn[i+1:]
	if _, after, ok := strings.Cut(rest, "."); ok {
		return after
	}
	return rest
}

// median returns a benchmark's median for unit.
// loopAllocatesNothing reports whether b's timed loop allocates nothing:
// its allocs/op median is 0, or, for a benchmark profiled as a whole whose
// sub-benchmarks carry the metrics ("BenchmarkX/n=10"), every
// sub-benchmark's is.
func (d *deriver) loopAllocatesNothing(b *document.Benchmark) bool {
	if allocs, ok := median(b, allocsPerOp); ok {
		return allocs == 0
	}
	subs := 0
	for i := range d.doc.Benchmarks {
		sub := &d.doc.Benchmarks[i]
		if sub.Package != b.Package || !strings.HasPrefix(sub.Name, b.Name+"/") {
			continue
		}
		allocs, ok := median(sub, allocsPerOp)
		if !ok || allocs != 0 {
			return false
		}
		subs++
	}
	return subs > 0
}

func median(b *document.Benchmark, unit string) (float64, bool) {
	m := b.Metrics[unit]
	if m == nil {
		return 0, false
	}
	return m.Median, true
}

func pct(x float64) string { return fmt.Sprintf("%.0f%%", x*100) }

// duration formats seconds the way benchmarks print them.
func duration(sec float64) string {
	switch {
	case sec < 1e-6:
		return fmt.Sprintf("%.3gns", sec*1e9)
	case sec < 1e-3:
		return fmt.Sprintf("%.3gµs", sec*1e6)
	case sec < 1:
		return fmt.Sprintf("%.3gms", sec*1e3)
	}
	return fmt.Sprintf("%.3gs", sec)
}

func cond(ok bool, a, b string) string {
	if ok {
		return a
	}
	return b
}
