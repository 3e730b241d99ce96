package findings

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
)

// fixtureCauses finds the benchmark's own cost: _test.go sites and lines
// that grow with b.N in a benchmark that measures the module.
func (d *deriver) fixtureCauses(b *bench) {
	if b.entry.ModuleCPUShare != nil && *b.entry.ModuleCPUShare < d.t.FixtureModuleCPU {
		return // a baseline or broken benchmark: its own code is all it measures
	}
	d.filePerOp(b)
	for _, a := range b.allocs {
		if !(a.InTest || strings.HasSuffix(a.File, "_test.go")) || a.BytesShare < d.t.FixtureBytes {
			continue
		}
		if a.AllocsPerOp == 0 && a.BytesPerOp == 0 {
			continue // no per-op profile: cannot tell setup from the loop
		}
		if strings.HasPrefix(a.Via, "testing.") {
			continue // b.Run, b.RunParallel: the harness, not the fixture
		}
		if a.Via != "" && !d.isModule(a.Via) && d.discardedAt(b, a.File, a.Line, a.Via) {
			// _ = id.String() on another package's value: the call the
			// (sub-)benchmark measures, a baseline beside the module's,
			// not a fixture it builds.
			continue
		}
		if s := d.baselineOf(a.Function); s != nil && a.Via != "" && !d.isModule(a.Via) {
			// A helper that runs another library and nothing of the
			// module: a comparison's cost, not a fixture to hoist.
			d.baselineCause(b, a, s)
			continue
		}
		if e := a.Escape; e != nil && e.Name == "... argument" && e.Into != "" && (e.Cause == "interface" || e.Sink == "call") {
			// s.Contains(v) through an interface: the slice of a
			// variadic parameter, which the caller's line builds and
			// the call keeps. The signature's cost, made where any
			// caller calls it, not the benchmark's fixture.
			group := "variadic " + where(a.File, a.Line) // one cause for every benchmark that runs the line
			c := d.find(document.KindAlloc, a.Function, group)
			if c == nil {
				c = d.newCause(document.KindAlloc, group, a.Function, a.File, a.Line)
				c.section, c.inherent, c.rule = document.SectionAPI, true, document.RuleAllocSite
				d.causes = append(d.causes, c)
			}
			if _, top := c.impact(); top != nil && c.costs[top.key].BytesPerOp > a.BytesPerOp {
				// The costliest benchmark's figures speak.
				c.cost(b).AllocsPerOp += a.AllocsPerOp
				c.cost(b).BytesPerOp += a.BytesPerOp
				continue
			}
			cs := c.cost(b)
			cs.AllocsPerOp += a.AllocsPerOp
			cs.BytesPerOp += a.BytesPerOp
			cs.AllocShare = min(1, cs.AllocShare+a.BytesShare)
			c.addLine(a.File, a.Line, a.Function, "")
			c.message = fmt.Sprintf("%s(…) builds its variadic argument's slice at %s and the call keeps it (%s: an interface method or a call the compiler cannot see into): %s allocs/op (%s/op) in %s, made at every caller's line", e.Into, where(a.File, a.Line), clean(e.Reason), num(a.AllocsPerOp), bytesText(a.BytesPerOp), b.name())
			c.suggestion = "a cost of the signature (a ...T parameter behind an interface): callers of one value use a form that takes one (a ContainsOne beside a Contains), or call the concrete type"
			c.addEvidence(fmt.Sprintf("heap profile, per op with setup subtracted: %s in %s; compiler: %s", where(a.File, a.Line), b.name(), clean(e.Verdict)))
			continue
		}
		// A callback: test code the module calls (the caller frame
		// is the module's), or a method of a test type, which the
		// module calls through an interface (a Valuer's Value).
		callback := a.Parent != "" && a.ParentFile != "" && !strings.HasSuffix(a.ParentFile, "_test.go") && d.isModule(document.PlainFunc(a.Parent)) ||
			receiver(document.PlainFunc(a.Function)) != "" && !strings.HasSuffix(a.ParentFile, "_test.go")
		var c *cause
		if callback {
			// Test code the module calls per op (a custom type
			// function the benchmark registers): one cause per
			// benchmark and callback, whatever its lines.
			c = d.benchCause(document.KindFixture, b, a.Function, a.File, 0)
		} else {
			c = d.benchCause(document.KindFixture, b, a.Function, a.File, a.Line)
		}
		c.rule = document.RuleFixtureAlloc
		c.addLine(a.File, a.Line, a.Function, "")
		cs := c.cost(b)
		cs.AllocsPerOp += a.AllocsPerOp
		cs.BytesPerOp += a.BytesPerOp
		cs.AllocShare = min(1, cs.AllocShare+a.BytesShare)
		cs.CPUShare = min(1, cs.CPUShare+b.memGC()*a.BytesShare)
		if callback {
			if c.line == 0 {
				c.line = a.Line
			}
			by := "the module calls"
			if a.Parent != "" && !strings.HasSuffix(a.ParentFile, "_test.go") {
				by = "the module's " + shortName(a.Parent) + " calls"
			}
			c.message = fmt.Sprintf("the benchmark's own %s, which %s on every op, allocates %s B/op (%s of the bytes per op): its numbers include it", shortName(a.Function), by, num(cs.BytesPerOp), pct(cs.AllocShare))
			c.suggestion = "the callback is the benchmark's input, not a fixture to hoist: keep it if real callers allocate so too; an allocation-free callback measures the module alone"
		} else if e := a.Escape; e != nil && e.Cause == "conversion" && e.Name != "" {
			// The benchmark converts what it gets (each segment to
			// []rune): its own work on the module's output, per op.
			c.message = fmt.Sprintf("the benchmark's own conversion at %s, %s, allocates %s B/op (%s of the bytes per op) on every op: its numbers include it", where(a.File, a.Line), e.Name, num(a.BytesPerOp), pct(a.BytesShare))
			c.suggestion = "the conversion is the benchmark's work on what the module returns, not a fixture to hoist: store the module's result in the sink as it is to measure the module alone, or keep the conversion where real callers make it too and read B/op as theirs"
		} else {
			c.message = fmt.Sprintf("the benchmark's own code at %s allocates %s B/op (%s of the bytes per op): its numbers include it", where(a.File, a.Line), num(a.BytesPerOp), pct(a.BytesShare))
			c.suggestion = "build the fixture once, before b.ResetTimer or outside the b.Loop body, and reuse it (reset a recorder or output buffer each iteration instead of growing it)"
		}
		c.addEvidence(fmt.Sprintf("heap profile, per op with setup subtracted: %s in %s", where(a.File, a.Line), b.name()))
	}
}

// filePerOp makes a fixture cause of each line of b's loop that opens or
// reads a file (a file-per-op shape), or builds the value it measures
// (built-per-op), and holds at least FixtureCPU of its CPU profile, the
// calls below it included: json-iterator's large_file opens its file on
// every iteration, os.OpenFile alone 20% of its CPU; zap's
// BenchmarkZapConsole builds its encoder per iteration. The line's share
// is its cum, summed over the callees the profile splits it by.
func (d *deriver) filePerOp(b *bench) {
	share := map[string]float64{}
	for _, l := range b.lines {
		if l.InTest {
			share[where(l.File, l.Line)] += l.Cum
		}
	}
	for _, s := range d.doc.Shapes {
		if s.Name != "file-per-op" && s.Name != "built-per-op" || !ofBenchmark(s.Function, b.entry.Name) {
			continue
		}
		at := share[where(s.File, s.Line)]
		ctor := ""
		if s.Name == "built-per-op" {
			// The constructor's own time, below the line: a call of
			// the module is no line cost of the benchmark's.
			for _, r := range s.Related {
				if fn, ok := strings.CutPrefix(r.Note, document.ConstructorNote); ok {
					ctor = fn
					at = max(at, d.cumOf(b, fn))
				}
			}
		}
		if at < d.t.FixtureCPU {
			continue
		}
		if ctor != "" {
			d.builtPerOp(b, s, ctor, at)
			continue
		}
		c := d.benchCause(document.KindFixture, b, "", s.File, s.Line)
		c.rule = document.RuleFixtureCPU
		c.addLine(s.File, s.Line, s.Function, s.Says)
		c.cost(b).CPUShare = min(1, at)
		c.message = fmt.Sprintf("%s: %s of its CPU at that line: its numbers include it", s.Says, pct(at))
		c.suggestion = s.Advice
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s (cum) at %s", b.name(), pct(at), where(s.File, s.Line)))
	}
}

// builtPerOp files benchmark b's construction of what it measures in its
// loop (shape s, constructor ctor, share of b's CPU under it) under one
// fixture cause per constructor: zap's benchmarks that build a JSON
// encoder per iteration are one mistake, each benchmark and line named.
func (d *deriver) builtPerOp(b *bench, s document.Shape, ctor string, at float64) {
	group := "built-per-op " + ctor
	c := d.find(document.KindFixture, "", group)
	if c == nil {
		c = d.newCause(document.KindFixture, group, "", s.File, s.Line)
		c.section, c.rule = document.SectionBenchmark, document.RuleFixtureCPU
		c.suggestion = s.Advice
		d.causes = append(d.causes, c)
	}
	c.addLine(s.File, s.Line, s.Function, s.Says)
	c.cost(b).CPUShare = min(1, at)
	c.addEvidence(fmt.Sprintf("CPU profile of %s: %s (cum) under %s, called at %s", b.name(), pct(at), pkgFunc(ctor), where(s.File, s.Line)))
	var names []string
	for _, k := range slices.Sorted(maps.Keys(c.costs)) {
		names = append(names, fmt.Sprintf("%s %s", d.byKey[k].name(), pct(c.costs[k].CPUShare)))
	}
	if len(names) == 1 {
		c.message = fmt.Sprintf("%s: %s of its CPU under that line", s.Says, pct(at))
		return
	}
	c.message = fmt.Sprintf("%d benchmarks build what they measure with %s on every iteration of their loops, then call its methods: their numbers include the construction (%s of the CPU under it)", len(names), pkgFunc(ctor), strings.Join(names, ", "))
}

// ofBenchmark reports whether fn, a shape's function, is benchmark
// bench's own code: the benchmark function, or a closure in it (the body
// b.RunParallel runs), for the benchmark or any of its sub-benchmarks.
func ofBenchmark(fn, bench string) bool {
	base, _, _ := strings.Cut(bench, "/")
	plain := document.PlainFunc(fn)
	i := strings.LastIndex(plain, "."+base)
	if i < 0 {
		return false
	}
	rest := plain[i+1+len(base):]
	return rest == "" || strings.HasPrefix(rest, ".func")
}

// cumOf is the cumulative share of b's CPU profile in function fn (its
// full name), 0 when the profile's hottest functions do not hold it.
func (d *deriver) cumOf(b *bench, fn string) float64 {
	cum := 0.0
	for _, h := range d.doc.Hotspots {
		if h.Benchmark == b.entry.Name && h.Package == b.entry.Package && document.PlainFunc(h.Function) == fn {
			cum = max(cum, h.Cum)
		}
	}
	return cum
}

// baselineOf returns the baseline-call shape of the test helper fn (one
// that runs another library and nothing of the module), or nil.
func (d *deriver) baselineOf(fn string) *document.Shape {
	plain := document.PlainFunc(fn)
	for i, s := range d.doc.Shapes {
		if s.Name == "baseline-call" && document.PlainFunc(s.Function) == plain {
			return &d.doc.Shapes[i]
		}
	}
	return nil
}

// baselineCause files allocation a, made by another library under the
// comparison helper of shape s, as one leave-alone finding per helper:
// what the comparison costs, beside the module's own numbers in the
// benchmark's profile.
func (d *deriver) baselineCause(b *bench, a *document.Allocation, s *document.Shape) {
	group := "baseline " + document.PlainFunc(s.Function)
	c := d.find(document.KindLeaveAlone, "", group)
	if c == nil {
		c = d.newCause(document.KindLeaveAlone, group, "", s.File, s.Line)
		c.section, c.rule = document.SectionLeaveAlone, document.RuleLeaveBaseline
		c.suggestion = s.Advice
		d.causes = append(d.causes, c)
	}
	cs := c.cost(b)
	cs.AllocsPerOp += a.AllocsPerOp
	cs.BytesPerOp += a.BytesPerOp
	cs.AllocShare = min(1, cs.AllocShare+a.BytesShare)
	c.addLine(a.File, a.Line, a.Function, "")
	c.message = fmt.Sprintf("%s: %s allocates %s of %s's bytes under %s, in the profile %s shares with the module's code", s.Says, pkgFunc(a.Via), pct(cs.AllocShare), b.name(), where(a.File, a.Line), b.name())
	c.addEvidence(fmt.Sprintf("heap profile, per op with setup subtracted: %s in %s, through %s", where(a.File, a.Line), b.name(), a.Via))
}

// benchCause returns the cause of kind for benchmark b at file:line.
func (d *deriver) benchCause(kind document.Kind, b *bench, fn, file string, line int64) *cause {
	group := b.key + " " + where(file, line)
	if c := d.find(kind, fn, group); c != nil {
		return c
	}
	c := d.newCause(kind, group, fn, file, line)
	c.section = document.SectionBenchmark
	d.causes = append(d.causes, c)
	return c
}

// contention is the scheduler's share in a benchmark that starts
// goroutines; never in one that does not.
func (d *deriver) contention(b *bench) {
	if !b.entry.Parallel || d.scaled[b.key] {
		return // run at several core counts: scalingCauses judges it
	}
	share := b.cats["scheduler"]
	if share < d.t.ContendMin {
		return
	}
	c := d.find(document.KindContention, b.key, "scheduler")
	if c == nil {
		c = d.newCause(document.KindContention, "scheduler", b.key, "", 0)
		c.rule = document.RuleSchedulerShare
		d.causes = append(d.causes, c)
	}
	c.fn = ""
	c.cost(b).CPUShare = share
	c.message = fmt.Sprintf("%s starts goroutines and spends %s of its CPU in the scheduler (preemption excluded): they block on each other or hand off too often", b.name(), pct(share))
	c.suggestion = "find the lock or channel they wait on (perfloop profile with -mutexprofile/-blockprofile, or a trace); shard the shared state or batch the hand-offs"
	c.addEvidence(fmt.Sprintf("CPU profile of %s: scheduler %s; the benchmark calls b.RunParallel or starts goroutines", b.name(), pct(share)))
}

// benchmarkVerdicts adds the broken benchmarks and those to leave alone.
// A benchmark broken both by its numbers and by its source (perfloop
// lint) is one cause: the measured symptom, with the line that makes it.
func (d *deriver) benchmarkVerdicts() {
	d.skipped()
	d.apiUnrun()
	used := map[int]bool{}
	byLint := map[int]*cause{}
	byExec := map[string]*cause{} // leave-alone benchmarks by the command line they run
	for _, b := range d.benches {
		lints := d.lintsOf(b)
		rule, why := d.broken(b)
		if rule == document.RuleTimedSetupSmall {
			// Measured too small to distort it: a note about the
			// benchmark's code, with the timed setup lint found there.
			c := d.newCause(document.KindFixture, b.key+" setup", "", "", 0)
			c.section, c.rule, c.lowOnly = document.SectionBenchmark, rule, true
			c.cost(b)
			c.message = fmt.Sprintf("%s: %s", b.name(), why)
			c.suggestion = "move the one-time work before b.ResetTimer (or outside the b.Loop body)"
			c.addEvidence(why)
			for _, i := range lints {
				l := d.doc.Lint[i]
				used[i] = true
				if c.file == "" {
					c.file, c.line = l.File, int64(l.Line)
				}
				c.addLine(l.File, int64(l.Line), "", l.Message)
				c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s: %s", l.Analyzer, where(l.File, int64(l.Line)), l.Message))
				c.analyzers = append(c.analyzers, l.Analyzer)
			}
			d.causes = append(d.causes, c)
			continue
		}
		if why != "" {
			// Benchmarks broken by one helper's code are one cause.
			var shared *cause
			for _, i := range lints {
				if byLint[i] != nil {
					shared = byLint[i]
					break
				}
			}
			if shared != nil {
				shared.cost(b)
				shared.addEvidence(fmt.Sprintf("%s: %s", b.name(), why))
				continue
			}
			c := d.newCause(document.KindBroken, b.key, "", "", 0)
			c.section, c.rule = document.SectionBroken, rule
			c.cost(b)
			c.message = fmt.Sprintf("%s: %s", b.name(), why)
			c.suggestion = brokenFix(rule)
			if s := d.shapeOf(b, "timeout-set"); rule == document.RuleBrokenTimeout && s != nil {
				c.file, c.line = s.File, s.Line
				c.addLine(s.File, s.Line, "", s.Says)
			}
			if rule == document.RuleBrokenSubNs && d.hasShape(b, "b-loop") {
				c.suggestion = "assign the result to a package-level sink and re-measure: b.Loop keeps the call, not the work the call's own code can skip when nothing reads its result; what stays under a nanosecond with the sink is free by design (an unsafe conversion), a baseline that measures nothing"
			}
			c.addEvidence(why)
			site, dropped, fails := d.failsDropped(b)
			if rule == document.RuleBrokenFailing && fails {
				// The call it drops the error of is the line to fix,
				// and the error's cost in the module is this mistake's,
				// not a change to the module.
				c.file, c.line = dropped.File, dropped.Line
				c.addLine(dropped.File, dropped.Line, "", dropped.Says)
				c.suggestion = dropped.Advice
				d.dropFailurePath(b, site.File, site.Line)
			}
			// The mistakes lint found in its code are what to fix: their
			// fixes, at their lines, say more than the symptom's.
			var fixes []string
			for _, i := range lints {
				l := d.doc.Lint[i]
				used[i] = true
				if rule == document.RuleBrokenFailing && fails && l.Analyzer == "discard" {
					continue // the dropped error says more than the dropped result
				}
				byLint[i] = c
				// A helper's mistake breaks every benchmark that calls
				// it, whatever each one's numbers showed.
				for _, o := range d.benches {
					if o != b && slices.Contains(l.Benchmarks, o.name()) {
						c.cost(o)
					}
				}
				if c.file == "" {
					c.file, c.line = l.File, int64(l.Line)
				}
				c.addLine(l.File, int64(l.Line), "", l.Message)
				if l.Fix != "" && !slices.Contains(fixes, l.Fix) {
					fixes = append(fixes, l.Fix)
				}
				c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s: %s", l.Analyzer, where(l.File, int64(l.Line)), l.Message))
				c.analyzers = append(c.analyzers, l.Analyzer)
			}
			if len(fixes) > 0 {
				c.suggestion = strings.Join(fixes, "; ")
			}
			d.causes = append(d.causes, c)
			continue
		}
		if len(lints) > 0 {
			continue // broken by its source: never "leave alone"
		}
		rule, why = d.leaveAlone(b)
		if s := d.shapeOf(b, "exec-per-op"); s != nil && (b.entry.ModuleCPUShare == nil || *b.entry.ModuleCPUShare < d.t.NoModule) {
			// A child process's time: the parent's profile holds the
			// fork and the wait, or no sample at all.
			rule, why = document.RuleLeaveOffCPU, cmpOr(why, cmpOr(b.entry.ProfileError, "no module code in its profile"))
		}
		if why != "" {
			d.dropOwnCode(b)
			if s := d.shapeOf(b, "exec-per-op"); s != nil && rule == document.RuleLeaveOffCPU && len(s.Related) > 0 {
				// Benchmarks that run one command through one line:
				// one finding, the command named once.
				key := "exec " + where(s.Related[0].File, s.Related[0].Line)
				c := byExec[key]
				if c == nil {
					c = d.newCause(document.KindLeaveAlone, key, "", s.File, s.Line)
					c.section, c.rule = document.SectionLeaveAlone, rule
					c.suggestion = s.Advice
					c.addLine(s.Related[0].File, s.Related[0].Line, "", s.Related[0].Note)
					byExec[key] = c
					d.causes = append(d.causes, c)
				}
				c.cost(b)
				c.addEvidence(fmt.Sprintf("%s: %s", b.name(), why))
				c.message = fmt.Sprintf("%s: %s, so its time is the child's and its CPU profile only the wait", b.name(), s.Says)
				if n := len(c.costs); n > 1 {
					c.message = fmt.Sprintf("%d benchmarks (%s, …) each %s: their time is the child's and their CPU profiles only the wait", n, firstName(c), strings.TrimPrefix(s.Says, b.name()+" "))
				}
				continue
			}
			c := d.newCause(document.KindLeaveAlone, b.key, "", "", 0)
			c.section, c.rule = document.SectionLeaveAlone, rule
			c.cost(b)
			c.message = fmt.Sprintf("%s: %s", b.name(), why)
			c.suggestion = "leave it as it is; spend the effort on the causes above"
			d.causes = append(d.causes, c)
		}
	}
	d.linted(used)
	d.sameMistake()
	// A note that a benchmark's one-time cost is too small to matter
	// says nothing once the benchmark is broken (a helper's mistake
	// another benchmark's numbers showed).
	broken := map[string]bool{}
	for _, c := range d.causes {
		if c.section == document.SectionBroken {
			for k := range c.costs {
				broken[k] = true
			}
		}
	}
	d.causes = slices.DeleteFunc(d.causes, func(c *cause) bool {
		if c.rule != document.RuleTimedSetupSmall || len(c.costs) == 0 {
			return false
		}
		for k := range c.costs {
			if !broken[k] {
				return false
			}
		}
		return true
	})
}

// sameMistake joins the benchmarks one rule finds broken the same way —
// the same measured symptom, or the same lint message, with the same fix
// — into one cause: one mistake made in several benchmarks is one finding
// that names each benchmark and each line. Skips stay one cause per line:
// each misses its own data.
func (d *deriver) sameMistake() {
	byKey := map[string]*cause{}
	gone := map[*cause]bool{}
	for _, c := range d.causes {
		if c.kind != document.KindBroken || c.section != document.SectionBroken || c.rule == document.RuleBrokenSkip {
			continue
		}
		key := string(c.rule) + "\x00" + c.suggestion
		if pkg, ok := d.onBN(c); ok {
			key = "b.N\x00" + pkg
		}
		into := byKey[key]
		if into == nil {
			byKey[key] = c
			continue
		}
		joinBroken(into, c)
		gone[c] = true
	}
	out := d.causes[:0]
	for _, c := range d.causes {
		if !gone[c] {
			out = append(out, c)
		}
	}
	d.causes = out
}

// onBN reports whether broken cause c says its benchmarks' numbers
// depend on b.N — a one-time cost timed with them (setup inside the
// timer, B/op that falls as b.N grows), state that grows with b.N, or
// b.N used as a size — and the package of its benchmarks. The benchmarks
// of one package broken that way are one finding: bigcache's write
// benchmarks time New, sized by b.N in most, through two helpers, which
// the numbers show as timed setup on two, a falling B/op on a third and
// the source as b.N given to the helpers and caches that grow: one
// mistake, with the fix of each part.
func (d *deriver) onBN(c *cause) (string, bool) {
	switch c.rule {
	case document.RuleBrokenDriftDown, document.RuleBrokenDriftUp, document.RuleBrokenTimedSetup:
	case document.RuleBrokenLint:
		for _, a := range c.analyzers {
			if a != "bnsize" && a != "setup" && a != "accumulated" {
				return "", false
			}
		}
		if len(c.analyzers) == 0 {
			return "", false
		}
	default:
		return "", false
	}
	pkg := ""
	for _, b := range c.benches {
		if pkg != "" && b.entry.Package != pkg {
			return "", false
		}
		pkg = b.entry.Package
	}
	return pkg, pkg != ""
}

// dispatchedFrom returns the CPU cause at an interface-dispatch shape
// (a function whose whole body calls a method through an interface)
// that calls c's method by its name, when c's function is a method of
// a type of the same package, or nil.
func (d *deriver) dispatchedFrom(c *cause, gone map[*cause]bool) *cause {
	fn := document.PlainFunc(c.fn)
	dot := strings.LastIndex(fn, ".")
	if dot < 0 || receiver(fn) == "" {
		return nil
	}
	calls := " calls " + fn[dot+1:] + " through "
	for _, s := range d.doc.Shapes {
		if s.Name != "interface-dispatch" || !strings.Contains(s.Says, calls) {
			continue
		}
		for _, o := range d.causes {
			if o != c && !gone[o] && o.kind == document.KindCPU && o.group == "function" && pkgOf(o.fn) == pkgOf(c.fn) && o.hasLine(s.File, s.Line) {
				return o
			}
		}
	}
	return nil
}

// goLine is a line a message names: " (x_test.go:12)".
var goLine = regexp.MustCompile(` \([^()]*\.go:[0-9]+\)`)

// joinBroken adds from's benchmarks, lines and evidence to into: the
// names of both before the one text when they say the same, each its own
// text otherwise.
func joinBroken(into, from *cause) {
	if into.file == "" && from.file != "" {
		into.file, into.line = from.file, from.line
	} else if from.file != "" {
		into.addLine(from.file, from.line, from.fn, from.message)
	}
	for _, l := range from.lines {
		into.addLine(l.File, l.Line, l.Function, l.Note)
	}
	for k, cs := range from.costs {
		if into.costs[k] == nil {
			into.costs[k], into.benches[k] = cs, from.benches[k]
		}
	}
	for _, e := range from.evidence {
		into.addEvidence(e)
	}
	into.analyzers = append(into.analyzers, from.analyzers...)
	for _, s := range strings.Split(from.suggestion, "; ") {
		if s != "" && !strings.Contains(into.suggestion, s) {
			into.suggestion += "; " + s
		}
	}
	names, why, ok := strings.Cut(into.message, ": ")
	fromNames, fromWhy, fromOK := strings.Cut(from.message, ": ")
	if ok && fromOK && goLine.ReplaceAllString(why, "") == goLine.ReplaceAllString(fromWhy, "") {
		// The same words about other lines: the lines are related.
		into.message = names + ", " + fromNames + ": " + why
		return
	}
	into.message += "; " + from.message
}

// growsPastHeapRuns reports whether the benchmark's B/op at its rounds'
// iteration count is well above what its two heap runs predict there: a
// one-time cost S and a per-iteration cost c (the runs' difference) give
// S/N + c at N iterations, which a timed setup never exceeds. A table
// that gains two rows per iteration and renders them all does: its
// iterations at N cost far more than those at 1 and 4.
func (d *deriver) growsPastHeapRuns(b *bench) (string, bool) {
	e := b.entry
	if e.LoopBytesPerOp == nil || len(e.HeapBytesByIters) != 2 || len(e.BytesByIters) == 0 {
		return "", false
	}
	c := *e.LoopBytesPerOp
	hi := e.HeapBytesByIters[1]
	setup := max(0, hi.Value*hi.Iters-c*hi.Iters)
	var ns, bs []float64
	for _, r := range e.BytesByIters {
		ns, bs = append(ns, r.Iters), append(bs, r.Value)
	}
	n, got := middle(ns), middle(bs)
	if n < 4*hi.Iters || c <= 0 {
		return "", false // the rounds ran too few iterations to tell
	}
	want := setup/n + c
	if got < d.t.DriftMin*want || got-want < d.t.TimedSetupBytes {
		return "", false
	}
	return fmt.Sprintf("it reports %s B/op at %d iterations, but its heap profiles at %d and %d iterations allocate %s per iteration and %s once, which predicts %s at %d: its iterations cost more the more of them run — state kept across iterations, such as rows appended and never cleared — so its numbers depend on b.N",
		num(got), int(n), int(e.HeapBytesByIters[0].Iters), int(hi.Iters), bytesText(c), bytesText(setup), bytesText(want), int(n)), true
}

// resultKept reports whether a shape says every loop of the benchmark
// stores its result in a package-level variable (a result-kept shape): the
// compiler cannot have removed the work, so a time below a nanosecond is
// the operation's own on that input.
func (d *deriver) resultKept(b *bench) bool { return d.hasShape(b, "result-kept") }

// hasShape reports whether a shape of the given name is at the benchmark's
// own function.
func (d *deriver) hasShape(b *bench, name string) bool { return d.shapeOf(b, name) != nil }

// shapeOf returns the shape of that name at benchmark b's own function,
// or nil.
func (d *deriver) shapeOf(b *bench, name string) *document.Shape {
	for i, s := range d.doc.Shapes {
		if s.Name == name && strings.HasSuffix(document.PlainFunc(s.Function), "."+b.entry.Name) {
			return &d.doc.Shapes[i]
		}
	}
	return nil
}

// moduleRuns reports whether b's CPU profile shows the module's own code
// running in the loop (at least FixtureModuleCPU of it): a call the
// compiler kept, however fast (a devirtualized Cardinality at 0.8 ns),
// not work it removed.
func (d *deriver) moduleRuns(b *bench) bool {
	return b.entry.ModuleCPUShare != nil && *b.entry.ModuleCPUShare >= d.t.FixtureModuleCPU
}

// middle is the median of xs (0 for none).
func middle(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// broken says why a benchmark measures nothing useful, and the rule, or
// "".
func (d *deriver) broken(b *bench) (document.Rule, string) {
	for _, i := range d.lintsOf(b) {
		switch d.doc.Lint[i].Analyzer {
		case "noloop", "consumed", "drained":
			// The source says why the numbers are off (no loop over
			// b.N, a container or reader the first iteration
			// empties): that finding speaks, not the symptom's
			// guess (sub-nanosecond "removed work", "setup inside the
			// timer").
			return "", ""
		}
	}
	for _, m := range b.metrics {
		v, ok := median(m, secPerOp)
		perCore := v
		if ok && b.entry.Parallel && m.Procs > 1 {
			// Wall time per op of goroutines on Procs cores: each op
			// took Procs times as long on its core.
			perCore = v * float64(m.Procs)
		}
		if ok && d.t.SubNanosecond(perCore) && !d.resultKept(b) && !d.moduleRuns(b) {
			if d.hasShape(b, "b-loop") {
				// b.Loop keeps the call; a call under a nanosecond
				// does next to nothing there (gin's []byte(s)
				// baseline: a conversion whose result does not
				// escape is not copied).
				return document.RuleBrokenSubNs, fmt.Sprintf("%s runs at %s/op, below 1 ns, though it loops with b.Loop, which keeps the call: what the call does with a result nothing reads costs next to nothing (a copy whose result does not escape is not made), so it measures no work, or work that is free by design", strings.TrimPrefix(m.Name, "Benchmark"), duration(v))
			}
			return document.RuleBrokenSubNs, fmt.Sprintf("%s runs at %s/op, below 1 ns: the compiler removed the work (use the result, or use b.Loop)", strings.TrimPrefix(m.Name, "Benchmark"), duration(v))
		}
		if s := d.shapeOf(b, "timeout-set"); ok && s != nil && d.t.TimeoutBound(v, s.Seconds) {
			// A call that stops when its time runs out takes the
			// timeout whatever its speed (go-diff's DiffMain at its
			// 1 s DiffTimeout).
			return document.RuleBrokenTimeout, fmt.Sprintf("%s runs at %s/op, the %s timeout it sets at %s: it measures the clock, not the work: a faster implementation does more work in the same time, and ns/op does not move",
				strings.TrimPrefix(m.Name, "Benchmark"), duration(v), duration(s.Seconds), where(s.File, s.Line))
		}
		drift := m.BytesDrift
		if len(m.BytesByIters) > 0 {
			f, drifts := d.t.BytesDrift(m.BytesByIters)
			drift = 0
			if drifts {
				drift = f
			}
		} else if drift > 0 && drift < d.t.DriftMin && 1/drift < d.t.DriftMin {
			continue
		}
		if drift > 1 {
			return document.RuleBrokenDriftUp, fmt.Sprintf("%s's B/op grows with the iteration count (×%.1f across runs): it keeps what it allocates, so its numbers depend on b.N", strings.TrimPrefix(m.Name, "Benchmark"), drift)
		}
		if drift > 0 {
			if share, at, ok := d.bytesSetupShare(m); ok && share < d.t.TimedSetupShare {
				return document.RuleTimedSetupSmall, fmt.Sprintf("%s's B/op falls as the iteration count grows (×%.1f across runs): a one-time cost inside the timer, %s of its B/op%s and %s at 1s: too small to distort it; it matters with a short -benchtime such as 1x",
					strings.TrimPrefix(m.Name, "Benchmark"), 1/drift, pctFine(at), d.atBenchtime(), pctFine(share))
			}
			return document.RuleBrokenDriftDown, fmt.Sprintf("%s's B/op falls as the iteration count grows (×%.1f across runs): a one-time cost is inside the timed loop, spread over b.N", strings.TrimPrefix(m.Name, "Benchmark"), 1/drift)
		}
	}
	e := b.entry
	if f, drifts := d.t.BytesDrift(e.HeapBytesByIters); drifts && f > 1 && len(e.HeapBytesByIters) == 2 {
		// The heap runs' bytes per iteration grow with their count:
		// each iteration does more than the one before, which a
		// one-time cost never makes (it falls).
		lo, hi := e.HeapBytesByIters[0], e.HeapBytesByIters[1]
		return document.RuleBrokenDriftUp, fmt.Sprintf("its bytes per iteration grow with the iteration count (%s at %d iterations, %s at %d, heap profiles): each iteration does more than the one before — state kept across iterations, such as rows appended and never cleared — so its numbers depend on b.N",
			bytesText(lo.Value), int(lo.Iters), bytesText(hi.Value), int(hi.Iters))
	}
	if why, ok := d.growsPastHeapRuns(b); ok {
		return document.RuleBrokenDriftUp, why
	}
	if lb := e.LoopBytesPerOp; lb != nil && b.bytesPerOp > d.t.TimedSetupRatio**lb+d.t.TimedSetupBytes && !d.bytesSplit(b) {
		if share, ok := d.loopSetupShare(b, *lb); ok && share < d.t.TimedSetupShare {
			return document.RuleTimedSetupSmall, fmt.Sprintf("it reports %s B/op but its loop allocates %s per op: a one-time cost inside the timer, %s of its B/op%s and %s at 1s: too small to distort it; it matters with a short -benchtime such as 1x",
				num(b.bytesPerOp), bytesText(*lb), pct(1-*lb/b.bytesPerOp), d.atBenchtime(), pctFine(share))
		}
		return document.RuleBrokenTimedSetup, fmt.Sprintf("it reports %s B/op but its loop allocates %s per op: setup runs inside the timer (%s of the reported bytes are a one-time cost spread over b.N)",
			num(b.bytesPerOp), bytesText(*lb), pct(1-*lb/b.bytesPerOp))
	}
	if f, drifts := d.t.BytesDrift(e.HeapBytesByIters); drifts && f < 1 && len(e.HeapBytesByIters) == 2 && b.hasSec && b.hasAllocs && b.bytesPerOp > 0 && d.timedFalls(e) {
		// (A benchmark that reports 0 B/op carries no one-time cost
		// in its numbers: what the heap runs saw at their few
		// iterations is the testing package's own, or the runtime's.)
		// The heap runs' bytes per iteration fall as their count
		// grows: a one-time cost inside the timer, spread over b.N
		// (the rounds, at one fixed b.N, cannot show it).
		lo, hi := e.HeapBytesByIters[0], e.HeapBytesByIters[1]
		if at1s, at, ok := d.setupShareOf(e.HeapBytesByIters, b.secPerOp); ok {
			runs := fmt.Sprintf("%s at %d iterations, %s at %d, heap profiles", bytesText(lo.Value), int(lo.Iters), bytesText(hi.Value), int(hi.Iters))
			if per := oneTime(lo, hi) / d.reportIters(b.secPerOp); per < d.t.TimedSetupBytes || per > b.bytesPerOp {
				// A few bytes per op (the testing package's own
				// allocations over a fixed count), or more than the
				// rounds reported in all (heap runs of a handful of
				// iterations, dominated by the process's start): not
				// in the numbers the report shows.
				return "", ""
			}
			if at < d.t.HeapSetupShare {
				return document.RuleTimedSetupSmall, fmt.Sprintf("its bytes per iteration fall as the iteration count grows (%s): a one-time cost inside the timer — a setup, or the code's own warm-up — %s of its B/op%s and %s at 1s: too small to distort it; it matters with a short -benchtime such as 1x",
					runs, pctFine(at), d.atBenchtime(), pctFine(at1s))
			}
			return document.RuleBrokenDriftDown, fmt.Sprintf("its bytes per iteration fall as the iteration count grows (%s): a one-time cost inside the timer is %s of its B/op%s (%s at 1s), spread over b.N",
				runs, pct(at), d.atBenchtime(), pct(at1s))
		}
	}
	if site, ok := d.failing(b); ok {
		return document.RuleBrokenFailing, fmt.Sprintf("its name says it succeeds, but it builds %s on every op (%s, %s/op): it measures the failure path", site.Escape.Name, where(site.File, site.Line), bytesText(site.BytesPerOp))
	}
	if site, s, ok := d.failsDropped(b); ok {
		made := cmpOr(site.Via, "an error value")
		if site.Escape != nil && errorValue.MatchString(site.Escape.Name) {
			made = site.Escape.Name
		} else if f := errorFormat(site.Escape); f != "" {
			made += "(" + f + ")"
		}
		says := s.Says
		if rest, ok := strings.CutPrefix(says, b.entry.Name+" "); ok {
			says = "it " + rest
		}
		return document.RuleBrokenFailing, fmt.Sprintf("%s (%s), and the module builds an error on every op, %s at %s (%s allocs/op): the call fails on every iteration, so the benchmark measures the failure path",
			says, where(s.File, s.Line), made, where(site.File, site.Line), num(site.AllocsPerOp))
	}
	// A loop that allocates on every op does work, whatever the profile
	// attributes it to (a private sync.Pool that misses: its time is the
	// runtime's allocation).
	allocates := b.hasAllocs && (b.allocsPerOp > 0 || b.bytesPerOp > 0)
	if e.ModuleCPUShare != nil && e.CalleeCPUShare != nil && *e.ModuleCPUShare < d.t.NoModule && *e.CalleeCPUShare < d.t.NoCallee && !allocates && !d.offCPU(b) && !d.starved(b) && d.surelyNoWork(e) {
		return document.RuleBrokenNoWork, fmt.Sprintf("its CPU profile shows no module code and no call out of the benchmark (%s in callees): its loop does no work — does it run over an empty input?", pct(*e.CalleeCPUShare))
	}
	return "", ""
}

// bytesSplit reports whether b's rounds at one iteration count disagree
// on B/op (Thresholds.BytesSplit): what the loop does not allocate on
// every op is then an allocation some rounds make, not a setup.
func (d *deriver) bytesSplit(b *bench) bool {
	for _, m := range b.metrics {
		if _, _, split := d.t.BytesSplit(m.BytesByIters); split {
			return true
		}
	}
	return false
}

// timedFalls reports whether the B/op the testing package reported in
// the heap runs falls with their iteration count as their whole runs'
// bytes do: only then is the one-time cost inside the timer. yaml.v3's
// benchmarks allocate their inputs when the package initializes: the heap
// runs' totals fall from 22.8 MiB per iteration at 1 to 10.9 MiB at 4,
// while the B/op the timer saw is 5.49 MB at both. A document from before
// the heap runs reported their B/op has nothing to say against it.
func (d *deriver) timedFalls(e *document.Benchmark) bool {
	if len(e.HeapTimedBytes) != 2 {
		return true
	}
	f, drifts := d.t.BytesDrift(e.HeapTimedBytes)
	return drifts && f < 1
}

// errorValue matches the value an error type's constructor makes
// (&fieldError{...}, &PathError{...}): Go names its error types *Error.
var errorValue = regexp.MustCompile(`^&?[\pL_][\pL\pN_.]*[Ee]rror\{`)

// successName matches a benchmark named for success.
var successName = regexp.MustCompile(`(Success|Succeed|Valid|Ok|OK)([A-Z0-9_/]|$)`)

// failing returns the module site where a benchmark named for success
// (BenchmarkStructExceptSuccess) makes an error value on every op.
func (d *deriver) failing(b *bench) (document.Allocation, bool) {
	if !successName.MatchString(b.name()) || strings.Contains(b.name(), "Invalid") {
		return document.Allocation{}, false
	}
	for _, a := range b.allocs {
		if a.InTest || strings.HasSuffix(a.File, "_test.go") || a.Escape == nil || a.AllocsPerOp < 0.9 {
			continue
		}
		if errorValue.MatchString(a.Escape.Name) {
			return *a, true
		}
	}
	return document.Allocation{}, false
}

// formatFlow matches the format string the compiler's escape flow shows
// passed to fmt.Errorf.
var formatFlow = regexp.MustCompile(`fmt\.format, fmt\.a := ("(?:[^"\\]|\\.)*")`)

// errorFormat returns the format string of the fmt.Errorf call whose
// argument escape e explains, quoted, or "".
func errorFormat(e *document.Escape) string {
	if e == nil {
		return ""
	}
	for _, f := range e.Flow {
		if m := formatFlow.FindStringSubmatch(f); m != nil {
			return m[1]
		}
	}
	return ""
}

// dropFailurePath takes b's cost out of the fix causes at file:line, the
// module's line that builds the error b's dropped call fails with: what
// the failure path costs is the benchmark's mistake. A cause left with no
// benchmark goes.
func (d *deriver) dropFailurePath(b *bench, file string, line int64) {
	d.causes = slices.DeleteFunc(d.causes, func(c *cause) bool {
		if c.section != document.SectionFix || c.costs[b.key] == nil || !c.hasLine(file, line) {
			return false
		}
		delete(c.costs, b.key)
		delete(c.benches, b.key)
		return len(c.costs) == 0
	})
}

// failureName matches a benchmark named for the failure it measures.
var failureName = regexp.MustCompile(`Invalid|Error|Err[A-Z_/]|Err$|Fail|Bad|Missing|Malformed|Wrong|NotFound|Unknown|Reject|Corrupt`)

// errorMakers are the calls whose allocation is an error value.
var errorMakers = map[string]bool{"fmt.Errorf": true, "errors.New": true, "errors.Join": true}

// failsDropped returns the module site that makes an error on every op
// of a benchmark that drops the error of the call in its loop (the
// error-discarded shape), and that shape: hamba/avro's
// BenchmarkSuperheroGenericEncode discards Marshal's error while
// fmt.Errorf at codec_record.go:388 runs on every op (a map key "Name"
// where the schema says "name"). A benchmark named for a failure
// measures it on purpose.
func (d *deriver) failsDropped(b *bench) (document.Allocation, *document.Shape, bool) {
	s := d.shapeOf(b, "error-discarded")
	if s == nil || failureName.MatchString(b.name()) {
		return document.Allocation{}, nil, false
	}
	for _, a := range b.allocs {
		if a.InTest || strings.HasSuffix(a.File, "_test.go") || a.AllocsPerOp < 0.9 {
			continue
		}
		if errorMakers[a.Via] || a.Escape != nil && errorValue.MatchString(a.Escape.Name) {
			return *a, s, true
		}
	}
	return document.Allocation{}, nil, false
}

// bytesSetupShare measures a one-time cost inside the timer from the B/op
// of runs at several iteration counts (B/op = L + S/n, fitted at the
// smallest and the largest count): S's share of the B/op at the report's
// iteration count and at go test's default -benchtime of 1s. ok is false
// without two counts and a time per op, or when nothing falls with n.
func (d *deriver) bytesSetupShare(m *document.Benchmark) (at1s, atReport float64, ok bool) {
	sec, hasSec := median(m, secPerOp)
	if !hasSec {
		return 0, 0, false
	}
	return d.setupShareOf(m.BytesByIters, sec)
}

// oneTime is the one-time bytes two runs' bytes per iteration give
// (v = once/n + loop at each count n).
func oneTime(lo, hi document.IterSample) float64 {
	if lo.Iters <= 0 || hi.Iters == lo.Iters {
		return 0
	}
	return (lo.Value - hi.Value) / (1/lo.Iters - 1/hi.Iters)
}

// setupShareOf is bytesSetupShare of runs at several iteration counts
// (the rounds', or the heap profiles') for a benchmark of sec per op.
func (d *deriver) setupShareOf(runs []document.IterSample, sec float64) (at1s, atReport float64, ok bool) {
	if sec <= 0 || len(runs) < 2 {
		return 0, 0, false
	}
	lo, hi := runs[0], runs[0]
	for _, r := range runs[1:] {
		if r.Iters < lo.Iters {
			lo = r
		}
		if r.Iters > hi.Iters {
			hi = r
		}
	}
	if lo.Iters <= 0 || hi.Iters <= lo.Iters {
		return 0, 0, false
	}
	once := (lo.Value - hi.Value) / (1/lo.Iters - 1/hi.Iters)
	if once <= 0 {
		return 0, 0, false
	}
	loop := max(hi.Value-once/hi.Iters, 0)
	share := func(n float64) float64 { return once / n / (loop + once/n) }
	return share(1 / sec), share(d.reportIters(sec)), true
}

// loopSetupShare is the share of the B/op at 1s of the one-time bytes a
// benchmark reports beyond what its loop allocates per op (loop), from
// the iteration count of the report's run.
func (d *deriver) loopSetupShare(b *bench, loop float64) (float64, bool) {
	if !b.hasSec || b.secPerOp <= 0 {
		return 0, false
	}
	once := (b.bytesPerOp - loop) * d.reportIters(b.secPerOp)
	n := 1 / b.secPerOp
	return once / n / (loop + once/n), true
}

// reportIters is the iteration count of the report's runs of a benchmark
// at sec per op: from its -benchtime, a duration or a count ("100x"), or
// go test's default of 1s.
func (d *deriver) reportIters(sec float64) float64 {
	bt := d.doc.Benchtime
	if n, ok := strings.CutSuffix(bt, "x"); ok {
		if v, err := strconv.ParseFloat(n, 64); err == nil && v > 0 {
			return v
		}
	}
	if t, err := time.ParseDuration(bt); err == nil && t > 0 {
		return t.Seconds() / sec
	}
	return 1 / sec
}

// atBenchtime says at which -benchtime the report measured, if it says.
func (d *deriver) atBenchtime() string {
	if d.doc.Benchtime == "" {
		return ""
	}
	return " at -benchtime " + d.doc.Benchtime
}

// pctFine formats a small share with the precision it needs: "0.02%".
func pctFine(x float64) string {
	if x > 0 && x < 0.01 {
		return fmt.Sprintf("%.2g%%", 100*x)
	}
	return pct(x)
}

// brokenFix is the fix of a broken benchmark, by the rule that found it.
func brokenFix(rule document.Rule) string {
	switch rule {
	case document.RuleBrokenFailing:
		return "check the benchmark's input against what it means to measure (a misspelt field name, a value that fails validation): fix the input, or rename it for the failure it measures"
	case document.RuleBrokenTimeout:
		return "give it a timeout its input never reaches (or none, where zero means none), or an input that finishes well within it, so that ns/op measures the work, not the clock"
	case document.RuleBrokenSubNs:
		return "keep the result alive (assign it to a package-level sink) or loop with b.Loop, which keeps results; then re-measure"
	case document.RuleBrokenDriftUp:
		return "each op must do the same work whatever b.N is: give the fixture a fixed size (a setup that fills it with b.N elements makes every op work on a larger input as b.N grows), and reset what the loop appends to on every iteration, or allocate it per iteration"
	case document.RuleBrokenDriftDown, document.RuleBrokenTimedSetup:
		return "call b.ResetTimer after the setup (before b.RunParallel or the loop), or move the setup out of the b.Loop body"
	}
	return "make sure the loop runs over real input (check the fixture is not empty) and calls the module"
}

// offCPU reports whether b's CPU profile sampled less than OffCPU of what
// a benchmark that computes got over the time it ran: it waits more than
// it computes. What computing gets is the most any of the report's
// benchmarks got, up to a core, and at least half of one: on a busy
// machine a benchmark that never waits gets a share of a core (0.4 with
// six processes on two cores), which a lone benchmark cannot show.
func (d *deriver) offCPU(b *bench) bool {
	ref, ok := d.busyRef(b)
	return ok && b.entry.CPUBusy != nil && *b.entry.CPUBusy < d.t.OffCPU*ref
}

// busyRef is what a benchmark that computes gets: the median of the
// others (not their most: on a loaded machine one measured in a quiet
// moment would make every other look idle), half a core at least. On a
// saturated machine (fewer than SpareCores idle) the others, starved as
// much, are the reference, with no floor, and a lone benchmark has none.
func (d *deriver) busyRef(b *bench) (float64, bool) {
	var others []float64
	for _, o := range d.benches {
		if o != b && o.entry.CPUBusy != nil {
			others = append(others, min(1, *o.entry.CPUBusy))
		}
	}
	m := 0.0
	if len(others) > 0 {
		slices.Sort(others)
		m = others[len(others)/2]
		if len(others)%2 == 0 {
			m = (others[len(others)/2-1] + m) / 2
		}
	}
	if d.saturated() {
		return m, len(others) > 0
	}
	return max(0.5, m), true
}

// saturated reports whether the machine had fewer than SpareCores idle
// while the benchmarks ran.
func (d *deriver) saturated() bool {
	return d.doc.SpareCores != nil && *d.doc.SpareCores < d.t.SpareCores
}

// starved reports whether, on a saturated machine, a benchmark's profile
// sampled too little of a core to say whether it computes, though no
// less than the others did: neither waiting nor broken nor a baseline
// can be told.
func (d *deriver) starved(b *bench) bool {
	return d.saturated() && b.entry.CPUBusy != nil && !d.offCPU(b) && *b.entry.CPUBusy < d.t.OffCPU*0.5
}

// noModuleWithin reports whether a benchmark's CPU profile has no module
// code within its sampling error: its module share under NoModule, or,
// when its sample count is known, under NoModule plus twice the share's
// binomial error (one sample of five in the module's code, 20% ± 18%,
// is no evidence of module work).
func (d *deriver) noModuleWithin(e *document.Benchmark) bool {
	p := *e.ModuleCPUShare
	if p < d.t.NoModule {
		return true
	}
	if e.CPUSamples <= 0 {
		return false
	}
	return p-2*math.Sqrt(p*(1-p)/float64(e.CPUSamples)) < d.t.NoModule
}

// surelyNoWork reports whether a profile's samples say "no module code
// and no call out of the benchmark" beyond their error: the upper bound
// of the share of samples in module code or callees is under NoCallee.
// A loop of 10 ns calling a module function the compiler inlined, on a
// machine so busy that its profile took a dozen samples, may show none
// of them in the module: no evidence of a loop over nothing (77 samples
// with none in the module or callees are). An unknown count is taken
// at its shares.
func (d *deriver) surelyNoWork(e *document.Benchmark) bool {
	n := e.CPUSamples
	return n <= 0 || wilsonUpper(*e.ModuleCPUShare+*e.CalleeCPUShare, float64(n)) < d.t.NoCallee
}

// wilsonUpper is the upper end of the Wilson interval (two standard
// errors) of a share p seen in n samples: for p = 0, about 4/(n+4).
func wilsonUpper(p, n float64) float64 {
	const z2 = 4.0
	return (p + z2/(2*n) + 2*math.Sqrt(p*(1-p)/n+z2/(4*n*n))) / (1 + z2/n)
}

// leaveAlone says why a benchmark is best left alone, and the rule, or
// "".
func (d *deriver) leaveAlone(b *bench) (document.Rule, string) {
	e := b.entry
	if fn, ok := d.micro[b.key]; ok && !d.hasCause(b) {
		return document.RuleLeaveMicro, fmt.Sprintf("measures the internal function %s directly, and its time is %s's own code: change it only where the API that calls it shows the cost", fn, fn)
	}
	if s := d.shapeOf(b, "exec-per-op"); s != nil && e.ModuleCPUShare != nil && d.noModuleWithin(e) && d.offCPU(b) {
		return document.RuleLeaveOffCPU, fmt.Sprintf("its CPU profile sampled %s of a core over the time it ran: %s, so its %s/op is the child's and its samples are the wait; %s",
			pct(*e.CPUBusy), s.Says, duration(b.secPerOp), s.Advice)
	}
	if e.ModuleCPUShare != nil && d.noModuleWithin(e) && d.offCPU(b) {
		return document.RuleLeaveOffCPU, fmt.Sprintf("its CPU profile sampled %s of a core over the time it ran: it spends most of its time waiting (a sleep, a channel, a lock, I/O), which a CPU profile does not see, so its samples say little of its %s/op; -blockprofile or perfloop trace shows where it waits",
			pct(*e.CPUBusy), duration(b.secPerOp))
	}
	if e.ModuleCPUShare != nil && *e.ModuleCPUShare < d.t.NoModule && !d.starved(b) && !(b.hasAllocs && b.allocsPerOp >= 1 && b.memGC() >= 0.5) {
		// A loop that allocates on every op and spends its CPU on
		// allocating and collecting does the module's work, whatever
		// its profile names: no baseline.
		callee := ""
		for _, l := range b.lines {
			if l.Callee != "" && !harness(l.Callee) {
				// (The testing package's own loop, b.Loop's slow
				// path, is no library a benchmark measures: a loop
				// of a few nanoseconds can leave it the only named
				// call in a dozen samples.)
				callee = pkgFunc(l.Callee)
				break
			}
		}
		if callee != "" {
			return document.RuleLeaveBaseline, fmt.Sprintf("measures %s, not the module (no module code in its profile): a baseline for comparison", callee)
		}
		// Nothing named that it measures instead: its samples must say
		// "no module code" beyond their error. A module function the
		// compiler inlined into a loop of a nanosecond, a fifth of the
		// loop's time, gets none of sixteen samples one run in
		// thirty: no evidence of a baseline.
		if n := e.CPUSamples; n <= 0 || wilsonUpper(*e.ModuleCPUShare, float64(n)) < d.t.NoModule {
			return document.RuleLeaveBaseline, "measures no module code: a baseline for comparison"
		}
	}
	if !b.hasAllocs || b.allocsPerOp > 0 || b.bytesPerOp > 0 {
		return "", ""
	}
	if row := d.cores[b.key]; row != nil && row.Efficiency < d.t.ScaleOK {
		return "", "" // fast on one core, but it does not scale
	}
	if !b.hasSec || b.secPerOp >= d.t.TightSecPerOp {
		// Hot code of its own may still hold a better algorithm: only a
		// benchmark this fast is known to have nothing left to gain.
		return "", ""
	}
	for _, c := range d.causes {
		if c.section != document.SectionFix || c.lowOnly {
			continue
		}
		if cs := c.costs[b.key]; cs != nil && cs.CPUShare >= d.t.LeaveMin {
			return "", ""
		}
	}
	why := "0 allocs/op"
	if b.hasSec {
		why += fmt.Sprintf(" and %s/op", duration(b.secPerOp))
	}
	top, share := "", 0.0
	for _, l := range b.lines {
		if !l.InTest && l.Callee == "" && l.Self > share {
			top, share = l.Function, l.Self
		}
	}
	if top != "" {
		why += fmt.Sprintf(", its time in the module's own code (%s %s)", shortName(top), pct(share))
	}
	return document.RuleLeaveTight, why + ": no allocation or library call to remove"
}

// merge joins a CPU cause and an allocation cause that share a line into
// one root cause (fmt.Sprintf that boxes its arguments and formats them):
// the costlier one keeps its words and kind, and says what the other adds.
func (d *deriver) merge() {
	for _, c := range d.causes {
		if c.kind == document.KindAlloc && c.message == "" {
			c.message = allocMessage(c)
		}
	}
	gone := map[*cause]bool{}
	// Allocations made on one path from one caller are one cause: the
	// cause of a helper that only one function calls joins that
	// function's cause.
	byParent := map[string]*cause{}
	for _, c := range d.causes {
		if c.kind == document.KindAlloc {
			byParent[c.fn] = c
		}
	}
	for _, c := range d.causes {
		if c.kind != document.KindAlloc || gone[c] {
			continue
		}
		p := mainParent(c)
		if p == "" || p == c.fn || !c.inherent && !onlyCaller(c, p) {
			// A constructor (what it allocates is its result) joins
			// the caller that makes most of its values; any other
			// function only the caller of nearly all of them.
			continue
		}
		into := byParent[p]
		if into == nil || into == c || gone[into] {
			continue
		}
		if d.shapeAt("grown-to-peak", c.file, c.line) != nil {
			// A buffer that grows to its peak once per value (a queue's
			// array grown by hand) is its own cost, not its caller's
			// (a Push whose error it would take the words of).
			continue
		}
		if t := d.partsOf(c); t != "" && t != d.partsOf(into) {
			// The helper makes the parts of another type's value
			// (newMatch's Match under initMatch, whose own parts are
			// the Runner's): the change is made with that value, one
			// change with its other parts (see oneChange), not the
			// caller's.
			continue
		}
		if into.section == c.section {
			absorb(into, c)
			gone[c] = true
		} else if into.section == document.SectionAPI && into.inherent && c.section == document.SectionFix && d.storedInField(c.fn) {
			// Storage a constructor's helper makes for the value the
			// constructor returns (NewBloomFilter's Size making
			// bl.bitset): what the API's call builds.
			sugg := into.suggestion
			absorb(into, c)
			into.suggestion = sugg
			gone[c] = true
		}
	}
	// One function of another module that the compiler does not
	// inline, called hot from several functions, is one cause: the
	// change is the same at each call. The costliest caller's cause
	// leads and names the other calls.
	byDep := map[string]*cause{}
	for _, c := range d.causes {
		if c.kind != document.KindCPU || c.depCall == "" || gone[c] {
			continue
		}
		o := byDep[c.depCall]
		if o == nil {
			byDep[c.depCall] = c
			continue
		}
		into, from := o, c
		if depShare(c) > depShare(o) {
			into, from = c, o
			byDep[c.depCall] = c
		}
		msg := into.message
		key, share := "", 0.0 // the benchmark where from's call costs most
		for _, p := range from.parts {
			if p.joins && p.callee == from.depCall {
				for k, v := range p.share {
					if v > share || v == share && k < key {
						key, share = k, v
					}
				}
			}
		}
		b := from.benches[key]
		// Only the call's share joins: the rest of the caller's time
		// is its own code, not this call's.
		at := from.depAt[from.depCall]
		for _, p := range from.parts {
			if p.joins && p.callee == from.depCall {
				for k, v := range p.share {
					ic := into.cost(from.benches[k])
					ic.CPUShare = max(ic.CPUShare, v)
				}
			}
		}
		for _, l := range from.lines {
			if where(l.File, l.Line) == at {
				into.addLine(l.File, l.Line, l.Function, l.Note)
			}
		}
		for _, e := range from.evidence {
			into.addEvidence(e)
		}
		into.message = msg
		if b != nil {
			into.message += fmt.Sprintf("; the same call in %s at %s (%s of %s's CPU)", shortName(from.fn), at, pct(share), b.name())
		}
		into.suggestion += fmt.Sprintf("; the same at %s in %s", at, shortName(from.fn))
		gone[from] = true
	}
	// Helpers of one caller that has no cause of its own (a frame
	// copied, then its map filled, each in a helper of the function
	// that makes it) are one cause too: the caller's, led by the
	// costlier.
	siblings := map[string]*cause{}
	for _, c := range d.causes {
		if c.kind != document.KindAlloc || gone[c] {
			continue
		}
		p := mainParent(c)
		if p == "" || p == c.fn || byParent[p] != nil || !c.inherent && !onlyCaller(c, p) {
			continue
		}
		k := p + "\x00" + string(c.section)
		o := siblings[k]
		if o == nil {
			siblings[k] = c
			continue
		}
		cs, os := d.changeShapeAt(c.file, c.line), d.changeShapeAt(o.file, o.line)
		if cs && os && d.oneCallSite(c.fn, o.fn) {
			// Called at one line of the caller, each for its own kind
			// of value (cbor's encoder calling encodeTag or encodeBigInt
			// through a function value), and each naming its own change
			// at its line: alternatives of a dispatch, not steps of one
			// path: two causes.
			continue
		}
		if cs != os && (d.calleeOnly(c.fn) || d.calleeOnly(o.fn)) {
			// One helper names its change at its line (a tag built by
			// concatenation), the other's allocations are inside a call
			// of another package (the writer the tag is written to,
			// growing): the change removes the first and leaves the
			// second. Two causes, each with its own words.
			continue
		}
		into, from := o, c
		if ai(c) > ai(o) {
			into, from = c, o
			siblings[k] = c
		}
		suggestion, generic := from.suggestion, from.generic
		absorb(into, from)
		if into.generic && !generic && suggestion != "" {
			into.suggestion, into.generic = suggestion, false
		}
		gone[from] = true
	}
	// A function's own code at a line that only calls another module
	// function with a CPU cause (a wrapper's `return
	// propertySearch(dictionary, r)[2]`: the call and its result's
	// copy) is that function's cost, not a cause of its own.
	for _, c := range d.causes {
		if c.kind != document.KindCPU || !c.lowOnly || gone[c] {
			continue
		}
		src := d.sourceAt(c.file, c.line)
		for _, o := range d.causes {
			if o == c || gone[o] || o.kind != document.KindCPU || o.group != "function" || pkgOf(o.fn) != pkgOf(c.fn) || !callsOnly(src, shortName(o.fn)) {
				continue
			}
			msg := o.message
			_, top := c.impact()
			absorb(o, c)
			o.message = msg
			if top != nil {
				o.message += fmt.Sprintf("; its call at %s in %s: %s of %s's CPU", where(c.file, c.line), shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name())
			}
			gone[c] = true
			break
		}
	}
	// A method whose cost is its own code, called at a line the profile
	// shows and where the code calls it through an interface (an
	// interface-dispatch shape: a comparator's `return a.Less(b)` over
	// an Item interface), is that dispatch's cost: the implementation
	// behind the interface the API imposes.
	for _, c := range d.causes {
		if c.kind != document.KindCPU || !c.lowOnly || gone[c] {
			continue
		}
		if o := d.dispatchedFrom(c, gone); o != nil {
			msg := o.message
			_, top := c.impact()
			absorb(o, c)
			o.message = msg
			if top != nil {
				o.message += fmt.Sprintf("; the method it calls, %s: %s of %s's CPU", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name())
			}
			gone[c] = true
		}
	}
	cpuOf := map[string]*cause{} // function → its CPU cause
	for _, c := range d.causes {
		if (c.kind == document.KindCPU || c.kind == document.KindLibrary) && !c.lowOnly && !gone[c] && cpuOf[c.fn] == nil {
			cpuOf[c.fn] = c
		}
	}
	for _, c := range d.causes {
		if c.kind != document.KindCPU && c.kind != document.KindLibrary || c.lowOnly || gone[c] {
			continue
		}
		for _, a := range d.causes {
			if a.kind != document.KindAlloc || gone[a] || !(sharesLine(a, c) || allocFunc(a) == c.fn) {
				continue
			}
			if (c.file != a.file || c.line != a.line) && d.shapeAt("error-constant", a.file, a.line) != nil {
				// An error made on a failure path is its own change,
				// not the function's time on the paths that succeed:
				// its lines are the error's cause's, not this one's.
				c.lines = slices.DeleteFunc(c.lines, func(l document.Location) bool {
					return a.hasLine(l.File, l.Line) && d.shapeAt("error-constant", l.File, l.Line) != nil
				})
				continue
			}
			if o := cpuOf[a.fn]; o != nil && o != c && !gone[o] && c.fn != a.fn && allocFunc(a) != c.fn && sharesLine(a, o) {
				// The allocation's own function has a CPU cause at
				// its lines: a line the allocation took from a
				// helper it absorbed (a database's Set that took its
				// insert's allocations) does not make it the
				// helper's.
				continue
			}
			if a.section != c.section {
				// Only a CPU cause wholly at an API cost's lines and
				// in the runtime is that cost's: the time of making
				// the value the API returns (string(b)'s copy).
				if a.section == document.SectionAPI && linesWithin(c, a) && runtimeOnly(c) {
					absorb(a, c)
					gone[c] = true
					break
				}
				continue
			}
			into, from := a, c
			if ci, _ := c.impact(); ai(a) < ci {
				into, from = c, a
			}
			absorb(into, from)
			gone[from] = true
			if into == c && (c.ownWork || c.lowOnly) && !a.generic && !a.ownWork && a.suggestion != "" {
				// Its time is the function's own work, its
				// allocation has a change to make: the change leads.
				c.suggestion = a.suggestion
				c.generic, c.ownWork, c.lowOnly = false, false, false
				continue
			}
			if into == c && (c.rule == document.RuleCPUOwnCode || c.generic) && a.suggestion != "" && (a.file != c.file || a.line != c.line) && (!a.generic || !d.changeShapeAt(a.file, a.line)) {
				// The function's own code leads; its allocation,
				// elsewhere in it, has advice of its own (a
				// category's words only where no shape of code at
				// the line will speak for it: see advise).
				into.suggestion += fmt.Sprintf("; the allocation at %s: %s", where(a.file, a.line), a.suggestion)
			}
			if from == c {
				break
			}
		}
	}
	// One cause per function: the small calls of a function around its
	// library or I/O call (each below CPUMin, a cost only together) are
	// that cause's other lines, not a finding of their own.
	for _, c := range d.causes {
		if c.kind != document.KindCPU || c.group != "function" || gone[c] || !onlySpread(c) {
			continue
		}
		for _, lib := range d.causes {
			if lib.kind != document.KindLibrary && lib.kind != document.KindIO || gone[lib] || outer(document.PlainFunc(lib.fn)) != c.fn {
				continue
			}
			msg := lib.message
			_, top := c.impact()
			absorb(lib, c)
			lib.message = msg
			if top != nil {
				lib.message += fmt.Sprintf("; its other calls cost %s of %s's CPU: %s", pct(c.costs[top.key].CPUShare), top.name(), strings.TrimPrefix(c.message, shortName(c.fn)+": "))
			}
			gone[c] = true
			break
		}
	}
	// One cause per lock: its lines, and the benchmarks that contend for
	// it, are the lock's cause. A CPU cause of the same function measured
	// elsewhere too (a clock read in a cache's Get, timed without
	// contention) keeps its other lines and benchmarks.
	for _, c := range d.causes {
		if c.kind != document.KindContention || gone[c] {
			continue
		}
		for _, o := range d.causes {
			if o.kind != document.KindCPU || o.group != "function" || gone[o] || o.fn != outer(document.PlainFunc(c.fn)) || within(o, c) {
				continue
			}
			if d.leaveLock(o, c) {
				gone[o] = true
			}
		}
	}
	// A lock held across work: the work's own causes (the hashing, the
	// allocation inside the section) are the contention's lines.
	for _, c := range d.causes {
		if c.kind != document.KindContention || gone[c] {
			continue
		}
		for _, o := range d.causes {
			if o == c || gone[o] || o.section != document.SectionFix || o.kind == document.KindContention {
				continue
			}
			if (o.fn == c.fn || sharesLine(o, c)) && within(o, c) {
				msg := c.message
				absorb(c, o)
				c.message = msg // the lock's words say what the work inside costs
				gone[o] = true
			}
		}
	}
	out := d.causes[:0]
	for _, c := range d.causes {
		if !gone[c] {
			out = append(out, c)
		}
	}
	d.causes = out
}

// sourceAt is the source text of file:line as a profile's line costs
// give it, or "".
func (d *deriver) sourceAt(file string, line int64) string {
	for i := range d.doc.Lines {
		if l := &d.doc.Lines[i]; l.File == file && l.Line == line && l.Source != "" {
			return strings.TrimSpace(l.Source)
		}
	}
	return ""
}

// callsOnly reports whether a line's source is one call of the function
// fn (a short name: "propertySearch[...]", "(*T).find"): a return of it,
// an assignment of it, or the call alone, indexed or not.
func callsOnly(src, fn string) bool {
	fn, _, _ = strings.Cut(fn, "[")
	if i := strings.LastIndex(fn, ")."); i >= 0 {
		fn = fn[i+2:]
	}
	if fn == "" || strings.Contains(fn, " ") {
		return false
	}
	expr := strings.TrimPrefix(src, "return ")
	if _, rhs, ok := strings.Cut(expr, "= "); ok {
		expr = rhs
	}
	if i := strings.Index(expr, "."+fn+"("); i > 0 && !strings.ContainsAny(expr[:i], " (+-*/") {
		return true // a method called on a receiver
	}
	return strings.HasPrefix(expr, fn+"(")
}

// allocFunc is the function an allocation cause's sites are in: its own
// function, or the one method all its sites are in when it is a type's
// boxing or concatenation sites grouped as one cause (see allocCauses):
// a method's CPU and the value it boxes are one cause of that method.
func allocFunc(a *cause) string {
	fn := ""
	for _, l := range a.lines {
		f := outer(document.PlainFunc(l.Function))
		if fn != "" && f != fn {
			return a.fn
		}
		fn = f
	}
	return cmp.Or(fn, a.fn)
}

// onlySpread reports whether a function's CPU cause is only calls that
// cost SpreadMin together, none CPUMin alone, with no more of its own
// code than OwnCodeMin (which alone would be no cause).
func onlySpread(c *cause) bool {
	spread := false
	for _, p := range c.parts {
		switch p.kind {
		case partSpread:
			spread = true
		case partOwn:
			for _, v := range p.share {
				if v >= c.t.OwnCodeMin {
					return false
				}
			}
		default:
			return false
		}
	}
	return spread
}

// leaveLock takes lock cause c's lines and benchmarks out of o, a CPU
// cause of the same function, and composes o again from what is left; it
// reports whether nothing is.
func (d *deriver) leaveLock(o, c *cause) bool {
	lines := o.lines[:0]
	for _, l := range o.lines {
		if c.hasLine(l.File, l.Line) {
			delete(o.lineShare, where(l.File, l.Line))
			continue
		}
		lines = append(lines, l)
	}
	o.lines = lines
	for k := range c.costs {
		delete(o.costs, k)
		delete(o.benches, k)
		for _, p := range o.parts {
			delete(p.share, k)
		}
	}
	parts := o.parts[:0]
	for _, p := range o.parts {
		if len(p.share) > 0 || p.kind == partNotInlined {
			parts = append(parts, p)
		}
	}
	o.parts = parts
	if len(o.costs) == 0 || len(o.lines) == 0 {
		return true
	}
	d.compose(o)
	return false
}

// within reports whether every benchmark o costs is one c costs: the work
// inside a lock, measured in the benchmarks that contend for it.
func within(o, c *cause) bool {
	for k := range o.costs {
		if c.costs[k] == nil {
			return false
		}
	}
	return true
}

// depShare is the largest share, in any benchmark, of the call part that
// leads a cause's advice because its callee is not inlined.
func depShare(c *cause) float64 {
	v := 0.0
	for _, p := range c.parts {
		if p.joins && p.callee == c.depCall {
			v = max(v, p.most())
		}
	}
	return v
}

func ai(c *cause) float64 { v, _ := c.impact(); return v }

// runtimeOnly reports whether a CPU cause's parts are all calls into the
// runtime (a conversion's copy, a concatenation).
func runtimeOnly(c *cause) bool {
	for _, p := range c.parts {
		if p.kind != partCall || !strings.HasPrefix(p.callee, "runtime.") {
			return false
		}
	}
	return len(c.parts) > 0
}

// linesWithin reports whether every line of c is one of a's.
func linesWithin(c, a *cause) bool {
	for _, l := range c.lines {
		if !a.hasLine(l.File, l.Line) {
			return false
		}
	}
	return len(c.lines) > 0
}

func sharesLine(a, b *cause) bool {
	for _, l := range b.lines {
		if a.hasLine(l.File, l.Line) {
			return true
		}
	}
	return false
}

// absorb adds from's lines, costs and evidence to into, and a clause to
// its message.
func absorb(into, from *cause) {
	_, top := from.impact()
	for _, l := range from.lines {
		into.addLine(l.File, l.Line, l.Function, l.Note)
	}
	for k, cs := range from.costs {
		ic := into.cost(from.benches[k])
		ic.CPUShare = max(ic.CPUShare, cs.CPUShare)
		ic.AllocsPerOp = max(ic.AllocsPerOp, cs.AllocsPerOp)
		ic.BytesPerOp = max(ic.BytesPerOp, cs.BytesPerOp)
		ic.AllocShare = max(ic.AllocShare, cs.AllocShare)
	}
	for _, e := range from.evidence {
		into.addEvidence(e)
	}
	for m := range from.mechs {
		into.mech(m)
	}
	for k, v := range from.lineShare {
		if into.lineShare == nil {
			into.lineShare = map[string]float64{}
		}
		into.lineShare[k] += v
	}
	if top == nil {
		return
	}
	cs := from.costs[top.key]
	if from.rule == document.RuleAllocCPU {
		// Known from the CPU profile: its share of the CPU, no bytes.
		into.message += "; it also allocates: " + strings.TrimPrefix(from.message, shortName(from.fn)+": ")
		return
	}
	if from.kind == document.KindAlloc {
		into.message += fmt.Sprintf("; it also allocates %s allocs/op (%s/op) in %s", num(cs.AllocsPerOp), bytesText(cs.BytesPerOp), top.name())
		if note := mainNote(from); note != "" && !from.inside[where(from.file, from.line)] {
			into.message += ": " + note
		}
		return
	}
	into.message += fmt.Sprintf("; the same lines spend %s of %s's CPU in %s", pct(cs.CPUShare), top.name(), strings.TrimPrefix(from.message, shortName(from.fn)+": "))
}

// allocMessage says what an allocation cause is: the reason at its main
// line and how many lines share it.
func allocMessage(c *cause) string {
	msg := ""
	for _, l := range c.lines {
		if l.File == c.file && l.Line == c.line {
			msg = l.Note
		}
	}
	if _, top := c.impact(); top != nil {
		cs := c.costs[top.key]
		msg = fmt.Sprintf("%s: %s allocs/op (%s/op) in %s: %s", shortName(c.fn), num(cs.AllocsPerOp), bytesText(cs.BytesPerOp), top.name(), msg)
	}
	if n := len(c.lines); n > 1 {
		msg += fmt.Sprintf(" (and %d more line%s of %s with the same cause)", n-1, plural(n-1), shortName(c.fn))
	}
	if c.inherent && !c.helper {
		msg += "; the API returns it"
	}
	return msg
}

// dropOwnCode removes b from the causes that are a line's own code: a
// benchmark left alone has nothing to fix there.
func (d *deriver) dropOwnCode(b *bench) {
	out := d.causes[:0]
	for _, c := range d.causes {
		if c.lowOnly && c.costs[b.key] != nil {
			delete(c.costs, b.key)
			delete(c.benches, b.key)
			if len(c.costs) == 0 {
				continue
			}
		}
		out = append(out, c)
	}
	d.causes = out
}

// skipped adds the benchmarks that skip: they measure nothing (test data
// missing, a build tag, a short mode). Benchmarks that skip at one line
// are one cause.
func (d *deriver) skipped() {
	d.failed()
	byWhere := map[string]*cause{}
	for i := range d.doc.Benchmarks {
		e := &d.doc.Benchmarks[i]
		if e.Status != "skipped" || strings.Contains(e.Name, "/") {
			continue
		}
		b := &bench{key: e.Package + " " + e.Name, entry: e, weight: 1}
		why := cmpOr(e.Error, "skipped")
		var file string
		var line int64
		if e.SkipAt != nil {
			file, line = e.SkipAt.File, e.SkipAt.Line
		}
		key := e.Package + " " + where(file, line)
		if file == "" {
			key = e.Package + " " + why
		}
		c := byWhere[key]
		if c == nil {
			c = d.newCause(document.KindBroken, key, "", file, line)
			c.section, c.rule = document.SectionBroken, document.RuleBrokenSkip
			c.message = fmt.Sprintf("%s: %s: it measures nothing", e.Name, why)
			c.suggestion = "provide what it needs (check the test data into testdata/, or generate it) so it runs everywhere, or remove it"
			byWhere[key] = c
			d.causes = append(d.causes, c)
		}
		c.cost(b)
		if n := len(c.costs); n > 1 {
			c.message = fmt.Sprintf("%d benchmarks skip (%s, …): %s: they measure nothing", n, firstName(c), why)
		}
		c.addEvidence(e.Name + ": " + why)
	}
}

// failed adds the benchmarks that fail: their numbers are missing, and
// the causes below come from the others. Benchmarks that run one command
// per op through one line (exec-per-op) are one cause, as are those of a
// package that fail with one error.
func (d *deriver) failed() {
	// A package whose test binary does not build ran none of its
	// benchmarks: the report is silent on its code, which a reader
	// must know before the ranking below.
	for _, p := range d.doc.Packages {
		if p.Status != "failed" {
			continue
		}
		c := d.newCause(document.KindBroken, "package "+p.Package, "", "", 0)
		c.section, c.rule = document.SectionBroken, document.RuleBrokenBuild
		why := strings.TrimPrefix(p.Error, "build failed: ")
		c.message = fmt.Sprintf("%s: its tests do not build (%s): none of its benchmarks ran, and nothing here speaks of its code", p.Package, why)
		c.suggestion = fmt.Sprintf("make its tests build (go vet %s shows the errors; tests that use generated code need go generate first), then run the report again", p.Package)
		c.cost(&bench{key: p.Package + " (build)", entry: &document.Benchmark{Package: p.Package, Status: p.Status, Error: p.Error}, weight: 1})
		c.addEvidence(p.Package + ": " + p.Error)
		d.causes = append(d.causes, c)
	}
	byKey := map[string]*cause{}
	firstWhy := map[string]string{}
	total := 0
	for i := range d.doc.Benchmarks {
		if !strings.Contains(d.doc.Benchmarks[i].Name, "/") {
			total++
		}
	}
	for i := range d.doc.Benchmarks {
		e := &d.doc.Benchmarks[i]
		if e.Status == "" || e.Status == "ok" || e.Status == "skipped" || strings.Contains(e.Name, "/") {
			continue
		}
		if d.lintNames(e.Name) {
			// lint names what is wrong in its code: that finding is
			// the cause, the failure its symptom (in the appendix).
			continue
		}
		b := &bench{key: e.Package + " " + e.Name, entry: e, weight: 1}
		why, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(e.Error, "--- FAIL: "+e.Name)), "\n")
		why = cmpOr(strings.TrimSpace(why), e.Status)
		s := d.shapeOf(b, "exec-per-op")
		// One message up to its numbers (got 1292721, want 1292760),
		// whichever line of the tests reported it (two benchmarks that
		// open the same missing file): one cause.
		key := e.Package + " " + digits.ReplaceAllString(failedAt.ReplaceAllString(why, ""), "N")
		if s != nil && len(s.Related) > 0 {
			key = e.Package + " " + where(s.Related[0].File, s.Related[0].Line)
		}
		c := byKey[key]
		if c == nil {
			c = d.newCause(document.KindBroken, key, "", "", 0)
			c.section, c.rule = document.SectionBroken, document.RuleBrokenFails
			firstWhy[key] = why
			c.suggestion = "run it alone (go test -run '^$' -bench '^" + e.Name + "$') to see why, and fix it or what it needs: until then its numbers are missing"
			if m := failedAt.FindStringSubmatch(why); m != nil && s == nil {
				// The line that reported the failure (b.Errorf's).
				if n, err := strconv.ParseInt(m[2], 10, 64); err == nil {
					c.file, c.line = path.Join(path.Dir(benchFile(d.doc, e)), m[1]), n
				}
			}
			if s != nil {
				c.file, c.line = s.File, s.Line
				c.addLine(s.File, s.Line, "", s.Says)
				if len(s.Related) > 0 {
					c.addLine(s.Related[0].File, s.Related[0].Line, "", s.Related[0].Note)
				}
				c.suggestion = "build or install the command it runs where the benchmark looks for it, or make it fail with the command's error (b.Fatal(err)) so the reason shows; then " + s.Advice
			}
			byKey[key] = c
			d.causes = append(d.causes, c)
		}
		c.cost(b)
		n := len(c.costs)
		why = firstWhy[key] // the first benchmark's words, in the document's order
		switch {
		case s != nil:
			c.message = fmt.Sprintf("%d of %d benchmarks fail (%s, …): each %s; each fails as its command does (%s)", n, total, firstName(c), strings.TrimPrefix(s.Says, e.Name+" "), why)
			if n == 1 {
				c.message = fmt.Sprintf("%s fails: %s; it fails as the command does (%s)", e.Name, s.Says, why)
			}
		case n == 1:
			c.message = fmt.Sprintf("%s fails (%s): its numbers are missing", e.Name, why)
		default:
			c.message = fmt.Sprintf("%d of %d benchmarks fail (%s, …): %s: their numbers are missing", n, total, firstName(c), why)
		}
		c.addEvidence(e.Name + ": " + cmpOr(e.Error, e.Status))
	}
}

// failedAt is the file:line a failure's message starts with (t.Errorf's).
var failedAt = regexp.MustCompile(`^([\w.-]+_test\.go):([0-9]+): `)

// benchFile is a file of the benchmark's package, relative to the
// module's root, from a shape or lint finding of its package: the
// directory a failure's file name is in ("." when none says).
func benchFile(doc *document.Report, e *document.Benchmark) string {
	for _, l := range doc.Lint {
		if slices.Contains(l.Benchmarks, e.Name) {
			return l.File
		}
	}
	for _, s := range doc.Shapes {
		if strings.HasSuffix(document.PlainFunc(s.Function), "."+e.Name) {
			return s.File
		}
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(e.Package, doc.Module), "/")
	return path.Join(rel, "x_test.go")
}

// digits are the runs of digits a failure's message varies by.
var digits = regexp.MustCompile(`[0-9]+`)

// lintNames reports whether a lint finding names benchmark name.
func (d *deriver) lintNames(name string) bool {
	for _, l := range d.doc.Lint {
		if slices.Contains(l.Benchmarks, name) {
			return true
		}
	}
	return false
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// firstName is the first benchmark of a cause, by name.
func firstName(c *cause) string {
	names := make([]string, 0, len(c.costs))
	for _, cs := range c.costs {
		names = append(names, cs.Benchmark)
	}
	slices.Sort(names)
	return names[0]
}

// partsOf is the type whose parts a cause's lines allocate one by one
// (a parts-apart shape at one of them), or "".
func (d *deriver) partsOf(c *cause) string {
	for _, l := range c.lines {
		if s := d.shapeAt("parts-apart", l.File, l.Line); s != nil {
			if t, _, ok := strings.Cut(s.Says, "'s parts are allocated"); ok {
				return t
			}
		}
	}
	return ""
}

// mainParent returns the function that called the cause's allocating
// function on most of its allocations, or "".
func mainParent(c *cause) string {
	best, w := "", 0.0
	for p, v := range c.parents {
		if v > w || v == w && p < best {
			best, w = p, v
		}
	}
	return best
}

// oneCallSite reports whether the allocations of functions f and g are
// all made under one line of their callers: the same call, one function
// or the other.
func (d *deriver) oneCallSite(f, g string) bool {
	site := ""
	for i := range d.doc.Allocations {
		a := &d.doc.Allocations[i]
		if a.Function != f && a.Function != g {
			continue
		}
		at := where(a.ParentFile, a.ParentLine)
		if a.ParentLine == 0 || site != "" && at != site {
			return false
		}
		site = at
	}
	return site != ""
}

// storedInField reports whether every allocation of the module's function
// fn is stored in a field of a value the heap holds (bl.bitset = make(…)).
func (d *deriver) storedInField(fn string) bool {
	return d.everyAlloc(fn, func(a *document.Allocation) bool {
		return a.Escape != nil && a.Escape.Sink == "heap" && slices.ContainsFunc(a.Escape.Flow, fieldAssign)
	})
}

// everyAlloc reports whether the module's function fn has allocations in
// the heap profiles outside tests and every one of them is ok.
func (d *deriver) everyAlloc(fn string, ok func(*document.Allocation) bool) bool {
	n := 0
	for i := range d.doc.Allocations {
		a := &d.doc.Allocations[i]
		if a.InTest || outer(document.PlainFunc(a.Function)) != fn {
			continue
		}
		if !ok(a) {
			return false
		}
		n++
	}
	return n > 0
}

// fieldAssign reports whether a flow step assigns to a field:
// "from bl.bitset = make([]uint64, sz >> uint(6)) (assign) at …".
func fieldAssign(step string) bool {
	s, ok := strings.CutPrefix(strings.TrimSpace(step), "from ")
	if !ok || !strings.Contains(s, "(assign)") {
		return false
	}
	lhs, _, ok := strings.Cut(s, " = ")
	return ok && strings.Contains(lhs, ".") && !strings.ContainsAny(lhs, " ([")
}

// calleeOnly reports whether every allocation of the module's function
// fn in the heap profiles is inside a call of another package's function
// (io.WriteString growing the writer it is given), none at its own code.
func (d *deriver) calleeOnly(fn string) bool {
	return d.everyAlloc(fn, func(a *document.Allocation) bool {
		return a.Via != "" && a.Escape != nil && a.Escape.Cause == "callee"
	})
}

// onlyCaller reports whether p makes nearly all of c's allocations (90%
// of its sites' shares): a helper of p's, whose cause is p's. A function
// that several callers use on their own paths (a validator's field
// traversal under its struct and its value entry points) is its own.
func onlyCaller(c *cause, p string) bool {
	total := 0.0
	for _, v := range c.parents {
		total += v
	}
	return total > 0 && c.parents[p] >= 0.9*total
}

// hasCause reports whether any fix cause costs b at least leaveMin.
func (d *deriver) hasCause(b *bench) bool {
	for _, c := range d.causes {
		if c.section != document.SectionFix {
			continue
		}
		if cs := c.costs[b.key]; cs != nil && cs.CPUShare >= d.t.LeaveMin {
			return true
		}
	}
	return false
}

// mainNote is what a cause's own line does.
func mainNote(c *cause) string {
	for _, l := range c.lines {
		if l.File == c.file && l.Line == c.line {
			return l.Note
		}
	}
	return ""
}

// lintsOf returns the indexes of the lint findings about b (or its
// parent benchmark).
func (d *deriver) lintsOf(b *bench) []int {
	var out []int
	for i, l := range d.doc.Lint {
		if b.entry.Package != l.Package {
			continue
		}
		// A helper's finding names every benchmark that calls it.
		names := l.Benchmarks
		if len(names) == 0 {
			names = []string{l.Benchmark}
		}
		for _, name := range names {
			name = strings.TrimSuffix(name, "/*")
			if b.entry.Name == name || strings.HasPrefix(b.entry.Name, name+"/") || strings.HasPrefix(name, b.entry.Name+"/") {
				out = append(out, i)
				break
			}
		}
	}
	return out
}

// linted adds the mistakes perfloop lint found in the benchmarks' source
// that no measured symptom already stands for: each a broken benchmark at
// its line, whatever its numbers say (a benchmark whose setup is timed can
// look healthy).
func (d *deriver) linted(used map[int]bool) {
	byBench := map[string]*cause{}
	for i, l := range d.doc.Lint {
		if used[i] {
			continue
		}
		// One benchmark's (or helper's) mistakes are one broken
		// benchmark: the first is its line, the others related. The
		// misnamed benchmarks of one file are one finding too, each
		// named (BenchmarkSpec and BenchmarkSpecInPlace timing Ugly).
		group := l.Package + " " + l.Benchmark
		if l.Analyzer == "misnamed" {
			group = l.Package + " " + l.File + " misnamed"
		}
		across := l.Analyzer == "consumed" || l.Analyzer == "drained"
		if across {
			// One mistake repeated in every package's helpers (each
			// removal benchmark emptying its container): one
			// finding, every place its line.
			group = "module " + l.Analyzer
		}
		if c := byBench[group]; c != nil && across {
			c.addLine(l.File, int64(l.Line), "", l.Message)
			c.message += fmt.Sprintf("; the same in %s (%s)", l.Benchmark, where(l.File, int64(l.Line)))
			c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s", l.Analyzer, where(l.File, int64(l.Line))))
			c.analyzers = append(c.analyzers, l.Analyzer)
			for _, b := range d.benches {
				if slices.Contains(d.lintsOf(b), i) {
					c.cost(b)
				}
			}
			continue
		}
		if c := byBench[group]; c != nil {
			c.addLine(l.File, int64(l.Line), "", l.Message)
			if l.Analyzer == "misnamed" && !strings.HasPrefix(c.message, l.Benchmark+":") {
				byBench[l.Package+" "+l.Benchmark] = c
				c.message += fmt.Sprintf("; and %s: %s (%s)", l.Benchmark, l.Message, where(l.File, int64(l.Line)))
				for _, b := range d.benches {
					if b.name() == l.Benchmark {
						c.cost(b)
					}
				}
			} else {
				c.message += fmt.Sprintf("; and %s (%s)", l.Message, where(l.File, int64(l.Line)))
			}
			if l.Fix != "" && !strings.Contains(c.suggestion, l.Fix) {
				c.suggestion += "; " + l.Fix
			}
			c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s", l.Analyzer, where(l.File, int64(l.Line))))
			c.analyzers = append(c.analyzers, l.Analyzer)
			continue
		}
		key := l.Package + " " + where(l.File, int64(l.Line)) + " " + l.Analyzer
		if l.Analyzer == "discard" {
			if share, ok := d.moduleRan(i); ok {
				d.discardKept(l, share)
				continue
			}
		}
		if l.Analyzer == "globalset" {
			d.globalLeft(l)
			continue
		}
		if l.Analyzer == "setup" {
			if share, at, ok := d.setupShare(i); ok && share < d.t.TimedSetupShare {
				d.smallSetup(l, share, at)
				continue
			}
		}
		c := d.newCause(document.KindBroken, key, "", l.File, int64(l.Line))
		byBench[group] = c
		if l.Analyzer == "misnamed" {
			byBench[l.Package+" "+l.Benchmark] = c
		}
		c.addLine(l.File, int64(l.Line), "", l.Message)
		c.section, c.rule = document.SectionBroken, document.RuleBrokenLint
		c.message = fmt.Sprintf("%s: %s: %s", l.Benchmark, l.Message, l.Why)
		c.suggestion = l.Fix
		c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s", l.Analyzer, where(l.File, int64(l.Line))))
		c.analyzers = append(c.analyzers, l.Analyzer)
		for _, b := range d.benches {
			if slices.Contains(d.lintsOf(b), i) {
				c.cost(b)
			}
		}
		d.causes = append(d.causes, c)
	}
}

// setupShare measures the timed setup of lint finding i: the largest
// share of a benchmark's CPU profile at the setup's line (its cum, the
// line in the test file), scaled to go test's default -benchtime of 1s
// from the report's (a one-time cost's share of a run falls as the run
// grows), or of its B/op at 1s (bytesSetupShare, loopSetupShare), and
// the report's -benchtime. ok is false when no benchmark the
// finding is about has a CPU profile.
func (d *deriver) setupShare(i int) (share float64, benchtime string, ok bool) {
	l := d.doc.Lint[i]
	for _, b := range d.benches {
		if !slices.Contains(d.lintsOf(b), i) || len(b.lines) == 0 {
			continue
		}
		ok = true
		for _, lc := range b.lines {
			if lc.File == l.File && lc.Line == int64(l.Line) {
				share = max(share, lc.Cum)
			}
		}
	}
	benchtime = d.doc.Benchtime
	if t, err := time.ParseDuration(benchtime); err == nil && t > 0 {
		share *= t.Seconds()
	}
	// The setup's bytes: a one-time cost's share of the B/op at 1s,
	// measured at two iteration counts or beyond what the loop
	// allocates.
	for _, b := range d.benches {
		if !slices.Contains(d.lintsOf(b), i) {
			continue
		}
		for _, m := range b.metrics {
			if at1s, _, has := d.bytesSetupShare(m); has {
				share, ok = max(share, at1s), true
			}
		}
		if lb := b.entry.LoopBytesPerOp; lb != nil && b.bytesPerOp > *lb && !d.bytesSplit(b) {
			if at1s, has := d.loopSetupShare(b, *lb); has {
				share, ok = max(share, at1s), true
			}
		}
	}
	return share, benchtime, ok
}

// moduleRan reports whether every benchmark lint finding i is about ran
// the module's code in its CPU profile (at least NoModule), and the
// smallest share: a call whose result is discarded that the compiler
// kept.
func (d *deriver) moduleRan(i int) (share float64, ok bool) {
	share = 1
	for _, b := range d.benches {
		if !slices.Contains(d.lintsOf(b), i) {
			continue
		}
		m := b.entry.ModuleCPUShare
		if p := b.entry.CallPath; (m == nil || *m < d.t.NoModule) && p != nil && len(p.Functions) > 1 && p.Share >= d.t.NoModule {
			// The benchmark's own helpers (test code, a reference
			// implementation in a _test.go file) ran below it: the
			// compiler kept the call all the same.
			m = &p.Share
		}
		if m == nil || *m < d.t.NoModule {
			return 0, false
		}
		share, ok = min(share, *m), true
	}
	return share, ok
}

// globalLeft notes a benchmark that leaves a package variable set for
// the benchmarks after it: perfloop measures each benchmark in a process
// of its own, so its numbers stand; go test -bench . runs them in one,
// where the later ones measure with the value left. A note about the
// benchmark's code, not a broken benchmark of this report.
func (d *deriver) globalLeft(l document.LintFinding) {
	c := d.newCause(document.KindFixture, l.Package+" "+where(l.File, int64(l.Line))+" global", "", l.File, int64(l.Line))
	c.section, c.rule, c.lowOnly = document.SectionBenchmark, document.RuleGlobalLeft, true
	c.addLine(l.File, int64(l.Line), "", l.Message)
	c.message = fmt.Sprintf("%s: %s: %s (perfloop measured each benchmark alone, so the numbers here stand)", l.Benchmark, l.Message, l.Why)
	c.suggestion = l.Fix
	c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s", l.Analyzer, where(l.File, int64(l.Line))))
	for _, b := range d.benches {
		if b.name() == l.Benchmark {
			c.cost(b)
		}
	}
	d.causes = append(d.causes, c)
}

// discardKept notes a result lint saw discarded whose call the CPU
// profile shows running: the numbers stand, a low note about the
// benchmark's code.
func (d *deriver) discardKept(l document.LintFinding, share float64) {
	// One benchmark's discarded results are one note: its other lines
	// are related.
	for _, o := range d.causes {
		if o.rule == document.RuleDiscardKept && strings.HasPrefix(o.message, l.Benchmark+": ") && o.file == l.File {
			o.addLine(l.File, int64(l.Line), "", l.Message)
			o.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s", l.Analyzer, where(l.File, int64(l.Line))))
			return
		}
	}
	c := d.newCause(document.KindFixture, l.Package+" "+where(l.File, int64(l.Line))+" discard", "", l.File, int64(l.Line))
	c.section, c.rule, c.lowOnly = document.SectionBenchmark, document.RuleDiscardKept, true
	c.addLine(l.File, int64(l.Line), "", l.Message)
	c.message = fmt.Sprintf("%s: %s; its CPU profile shows the code it calls running in the loop (%s): the compiler kept the call, so its numbers stand; keeping the result makes sure it stays so", l.Benchmark, l.Message, pct(share))
	c.suggestion = l.Fix
	c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s; CPU profile: %s of the samples in the module's code", l.Analyzer, where(l.File, int64(l.Line)), pct(share)))
	for _, b := range d.benches {
		for _, i := range d.lintsOf(b) {
			if d.doc.Lint[i].File == l.File && d.doc.Lint[i].Line == l.Line {
				c.cost(b)
			}
		}
	}
	d.causes = append(d.causes, c)
}

// smallSetup notes a timed setup whose measured cost is too small to
// distort the benchmark: a low finding about the benchmark's code, not a
// broken benchmark.
func (d *deriver) smallSetup(l document.LintFinding, share float64, benchtime string) {
	c := d.newCause(document.KindFixture, l.Package+" "+where(l.File, int64(l.Line))+" setup", "", l.File, int64(l.Line))
	c.section, c.rule, c.lowOnly = document.SectionBenchmark, document.RuleTimedSetupSmall, true
	c.addLine(l.File, int64(l.Line), "", l.Message)
	at := ""
	if benchtime != "" {
		at = " at -benchtime " + benchtime
	}
	c.message = fmt.Sprintf("%s: %s; measured at %s of its time or B/op%s, scaled to 1s: too small to distort it; it matters with a short -benchtime such as 1x", l.Benchmark, l.Message, pctFine(share), at)
	c.suggestion = l.Fix
	c.addEvidence(fmt.Sprintf("perfloop lint (%s) at %s; CPU profile and B/op: at most %s of the benchmark's time at that line or of its bytes, scaled to -benchtime 1s", l.Analyzer, where(l.File, int64(l.Line)), pctFine(share)))
	for _, b := range d.benches {
		for _, i := range d.lintsOf(b) {
			if d.doc.Lint[i].File == l.File && d.doc.Lint[i].Line == l.Line {
				c.cost(b)
			}
		}
	}
	d.causes = append(d.causes, c)
}

// discardedAt reports whether the benchmark's line at file:line discards
// a call's result (_ = x.String(), or the call as a statement of its
// own, regexp.MustCompile(expr)) of via, the function the allocation
// is in: the call is what the loop measures.
func (d *deriver) discardedAt(b *bench, file string, line int64, via string) bool {
	for _, l := range d.doc.Lines {
		if l.Benchmark == b.entry.Name && l.File == file && l.Line == line && l.Source != "" {
			src := strings.TrimSpace(l.Source)
			src = strings.TrimPrefix(src, "_ = ")
			fn, _, ok := strings.Cut(src, "(")
			name := via[strings.LastIndex(via, ".")+1:]
			return ok && strings.HasSuffix(src, ")") && callee.MatchString(fn) && (fn == name || strings.HasSuffix(fn, "."+name))
		}
	}
	return false
}

// callee matches what a call statement names before its parenthesis: a
// function or a selector chain (regexp.MustCompile, x.y.String), never
// an assignment or a declaration.
var callee = regexp.MustCompile(`^[\pL_][\pL\pN_]*(\.[\pL_][\pL\pN_]*)*$`)

// testSupport takes the fix causes in the module's test-support packages
// (doc.TestSupport: packages only its tests and main programs import)
// out of what to do first: one leave-alone finding per package says
// where that cost is, the benchmark's own code, not the module's.
func (d *deriver) testSupport() {
	byPkg := map[string]*cause{}
	var fns = map[string][]string{}
	out := d.causes[:0]
	for _, c := range d.causes {
		pkg := document.FuncPackage(document.PlainFunc(c.fn))
		named := namedForTests(d.doc.Module, pkg)
		if c.section != document.SectionFix || c.fn == "" || !slices.Contains(d.doc.TestSupport, pkg) && !named {
			out = append(out, c)
			continue
		}
		lc := byPkg[pkg]
		if lc == nil {
			lc = d.newCause(document.KindLeaveAlone, "test-support "+pkg, "", c.file, c.line)
			lc.section, lc.rule = document.SectionLeaveAlone, document.RuleLeaveBaseline
			lc.suggestion = "leave it as it is: change the module's own code; the example's costs matter only as far as they show how the module is used"
			byPkg[pkg] = lc
			out = append(out, lc)
		}
		for k, cs := range c.costs {
			to := lc.cost(c.benches[k])
			to.CPUShare = max(to.CPUShare, cs.CPUShare)
			to.AllocsPerOp += cs.AllocsPerOp
			to.BytesPerOp += cs.BytesPerOp
		}
		if name := shortName(c.fn); !slices.Contains(fns[pkg], name) {
			fns[pkg] = append(fns[pkg], name)
		}
		lc.addEvidence(fmt.Sprintf("%s at %s: %s", shortName(c.fn), where(c.file, c.line), c.message))
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, d.doc.Module), "/")
		lc.message = fmt.Sprintf("%s (%s) is in %s, a package of the module that only its tests and main programs import: the benchmarks' own code (an example of the module's use), not the module's", strings.Join(fns[pkg], ", "), pluralCosts(len(fns[pkg])), rel)
		if named {
			lc.message = fmt.Sprintf("%s (%s) is in %s, a package of the module made for tests: the harness the benchmarks run on (a test logger keeping every entry), not the module's code", strings.Join(fns[pkg], ", "), pluralCosts(len(fns[pkg])), rel)
			lc.suggestion = "leave it as it is: change the module's own code; a benchmark whose cost is mostly its harness's measures the harness (point it at a sink that keeps nothing)"
		}
	}
	d.causes = out
}

// namedForTests reports whether pkg is a package of the module made for
// tests by its name: a name ending in "test" as the standard library's
// httptest (zap's zaptest/observer, whose logs keep every entry a
// benchmark writes, and internal/ztest), or a testutil, testhelper,
// testing, mock or fake package. A library may
// export it for its users' tests, so no import graph tells it apart.
func namedForTests(module, pkg string) bool {
	rest, ok := strings.CutPrefix(pkg, module+"/")
	if module == "" || !ok {
		return false
	}
	last := path.Base(module)
	if strings.TrimLeft(last, "v0123456789") == "" && strings.Contains(module, "/") {
		last = path.Base(path.Dir(module)) // a major version suffix (module/v2)
	}
	for _, el := range strings.Split(rest, "/") {
		switch el {
		case last + "test", "testutil", "testutils", "testhelper", "testhelpers", "testing", "mock", "mocks", "fake", "fakes":
			return true
		}
		// The standard library's naming: httptest, iotest, fstest;
		// zap's internal/ztest. Not a word that ends so.
		if p, ok := strings.CutSuffix(el, "test"); ok && p != "" && !slices.Contains(testWords, el) {
			return true
		}
	}
	return false
}

// testWords are words that end in "test" and name no test package.
var testWords = []string{"latest", "contest", "attest", "detest", "protest", "greatest", "fastest", "shortest", "smartest", "tightest", "lightest", "softest", "hottest", "strictest", "slightest", "neatest", "sweetest", "flattest"}

// pluralCosts says how many functions' costs a finding holds.
func pluralCosts(n int) string {
	if n == 1 {
		return "its cost"
	}
	return fmt.Sprintf("%d functions' costs", n)
}

// apiUnrun adds a finding for each API type of the module's root package
// (an api-type shape: an exported type with its constructor and exported
// methods) when no benchmark runs the root package's API: no exported
// function or method of an exported type of it is in any profile the
// report has, nor any method of the type. What the report ranks is
// then what the benchmarks run, which is not the package's API (ristretto's
// suite measuring its store and z's helpers, never Cache).
func (d *deriver) apiUnrun() {
	if len(d.benches) == 0 {
		return
	}
	ran := map[string]bool{}
	add := func(fn string) {
		if fn != "" {
			ran[document.PlainFunc(fn)] = true
		}
	}
	for _, l := range d.doc.Lines {
		add(l.Function)
		add(l.Callee)
	}
	for _, h := range d.doc.Hotspots {
		add(h.Function)
	}
	for _, a := range d.doc.Allocations {
		add(a.Function)
		add(a.Parent)
	}
	for _, b := range d.doc.Benchmarks {
		if b.CallPath != nil {
			for _, fn := range b.CallPath.Functions {
				add(fn)
			}
		}
	}
	// Only where no benchmark runs any exported function or method of
	// the root package: one that runs some of the API measures it, and
	// a type it leaves out may be a small one a profile need not name.
	for fn := range ran {
		if rest, ok := strings.CutPrefix(fn, d.module+"."); ok && exportedName(rest) && d.isModule(fn) && !d.testFunc(fn) {
			return
		}
	}
	for _, s := range d.doc.Shapes {
		if s.Name == "api-benchmarked" && !strings.Contains(s.File, "/") {
			return // a benchmark of the root package calls its API
		}
	}
	for _, s := range d.doc.Shapes {
		if s.Name != "api-type" || strings.Contains(s.File, "/") || len(s.Related) == 0 {
			continue // the root package's types only
		}
		// The first related function is a constructor: "m.NewCache".
		first := s.Related[0].Note
		pkg := first[:max(strings.LastIndex(first, "."), 0)]
		typ, _, _ := strings.Cut(s.Says, "'s API: ")
		run := false
		for fn := range ran {
			rest, ok := strings.CutPrefix(fn, pkg+".")
			if !ok {
				continue
			}
			if strings.HasPrefix(rest, "(*"+typ+").") || strings.HasPrefix(rest, typ+".") || slices.ContainsFunc(s.Related, func(r document.Location) bool { return r.Note == fn }) {
				run = true
				break
			}
		}
		if run {
			continue
		}
		var names []string
		for _, r := range s.Related {
			names = append(names, strings.TrimPrefix(r.Note, pkg+"."))
		}
		c := d.newCause(document.KindCoverage, "api "+typ, "", s.File, s.Line)
		c.section, c.rule, c.lowOnly = document.SectionBenchmark, document.RuleAPIUnrun, true
		c.addLine(s.File, s.Line, "", s.Says)
		c.message = fmt.Sprintf("no benchmark runs %s: none of %s is in any benchmark's profile; what this report ranks is what the benchmarks run, not %s", typ, firstNames(names, 6), typ)
		c.suggestion = fmt.Sprintf("add a benchmark of %s as a program uses it (its constructor once, before the loop; its methods in the loop, with inputs spread as real use spreads them), then run the report again", typ)
		c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
		d.causes = append(d.causes, c)
	}
}

// firstNames joins the first n names, and says how many more there are.
func firstNames(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// exportedName reports whether a function name without its package is
// exported, as the API: "NewCache", "(*Cache).Get", "Cache.Len".
func exportedName(name string) bool {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "("), "*")
	return name != "" && name[0] >= 'A' && name[0] <= 'Z'
}
