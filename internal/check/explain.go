package check

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/escape"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// ExplainOptions says how to profile the regressions.
type ExplainOptions struct {
	// ProfileTime is each side's CPU-profile run (-benchtime).
	ProfileTime string
	CPU         string
	// Timeout bounds one run.
	Timeout time.Duration
	// Change is what the change touched (see NewChange): the compiler's
	// new verdicts are looked for in its files, and a time regression of
	// a benchmark that executes none of its functions is put down to code
	// layout. Nil when unknown.
	Change *Change
	Tags   string
}

// Explain profiles both sides of every regression and fills its causes:
// CPU time per op grown at a module line, allocation sites new or grown,
// and the compiler's verdicts new in the changed files (values now on the
// heap, functions no longer inlined). A time regression of a benchmark
// that executes no changed function on either side, when nothing else
// changed, is moved to c.Layout: the change cannot have made it slower
// but by moving code.
func Explain(ctx context.Context, sides [2]*abtest.Side, c *document.Check, res *abtest.Result, opts ExplainOptions, bar *progress.Bar) error {
	if len(c.Regressions) == 0 && !slices.ContainsFunc(c.Improvements, func(ch document.Change) bool { return stats.IsTime(ch.Unit) }) {
		return nil
	}
	start := time.Now()
	defer func() { c.ExplainSeconds = math.Round(time.Since(start).Seconds()*1000) / 1000 }()
	// The compiler's verdicts of both sides, for the changed packages.
	var files []string
	if opts.Change != nil {
		files = opts.Change.Files
	}
	var esc [2]*escape.Index
	if pkgs := changedPackages(files); len(pkgs) > 0 && len(c.Regressions) > 0 {
		for i, s := range sides {
			bar.Status(fmt.Sprintf("%s: the compiler's verdicts on the changed packages", s.Role))
			ix, err := escape.Run(ctx, escape.Options{Dir: s.Dir, Tests: true, Tags: opts.Tags}, pkgs...)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				continue
			}
			esc[i] = ix
		}
	}
	verdicts := compilerDiff(esc, files)
	counted := map[RowKey]row{}
	for _, r := range rows(res) {
		counted[r.key()] = r
	}
	done := map[document.BenchKey]*[2]sideProfile{}
	for i := range c.Regressions {
		r := &c.Regressions[i]
		top, sub := split(r.Benchmark)
		key := document.BenchKey{Package: r.Package, Name: r.Benchmark}
		prof, ok := done[key]
		if !ok {
			bar.Status(fmt.Sprintf("profiling %s on both sides", r.Benchmark))
			var ps [2]sideProfile
			secOp := timeOf(c.Regressions, r.Package, r.Benchmark)
			// The heap runs' iterations, one count for both sides:
			// the slower side's 50 ms, or BASE's choice when the time
			// did not regress.
			allocs := allocsPerOp(counted, r.Package, r.Benchmark)
			n := heapN(secOp, allocs)
			ev := sideEvidence{
				secOp:    measuredTime(counted, r.Package, r.Benchmark, secOp),
				samples:  samplesFor(secOp, opts.ProfileTime),
				allocate: allocates(counted, r.Package, r.Benchmark),
			}
			var rounds *[2]abtest.Profiled
			if res != nil {
				rounds = res.Profiles[key]
			}
			for si, s := range sides {
				if rounds != nil {
					ev.rounds = rounds[si]
				}
				p, err := profileSide(ctx, s, r.Package, top, sub, secOp, n, allocs, ev, opts)
				if err != nil {
					return err
				}
				ps[si], n = p, p.n
			}
			prof = &ps
			done[key] = prof
		}
		moved := allocsMoved(counted, r.Package, r.Benchmark)
		r.Causes = causes(r, prof, verdicts, moved, opts.Change)
		if r.Causes == nil {
			r.Causes = []document.Cause{}
		}
	}
	if err := layout(ctx, sides, c, opts, done, bar); err != nil {
		return err
	}
	c.Verdict = verdict(c)
	return nil
}

// layout moves to c.Layout the time regressions of benchmarks that
// execute no function the change touched, on either side, when the change
// touched nothing outside functions: such a benchmark runs the same code
// as before, placed at other addresses (loops now straddle a cache line
// or a fetch block), which any edit can do and the next can undo. Time
// improvements of such benchmarks are marked the same way.
func layout(ctx context.Context, sides [2]*abtest.Side, c *document.Check, opts ExplainOptions, profs map[document.BenchKey]*[2]sideProfile, bar *progress.Bar) error {
	ch := opts.Change
	if ch == nil {
		return nil
	}
	if ch.Global != "" {
		timed := func(unit string) bool { return stats.IsTime(unit) }
		if slices.ContainsFunc(c.Regressions, func(r document.Regression) bool { return timed(r.Unit) }) ||
			slices.ContainsFunc(c.Improvements, func(r document.Change) bool { return timed(r.Unit) }) {
			c.Notes = append(c.Notes, fmt.Sprintf("code layout not assessed: %s changed outside functions (a type, a module requirement or a data file can act on any benchmark)", ch.Global))
		}
		return nil
	}
	var ex [2]*executor
	for i, s := range sides {
		ex[i] = &executor{side: s, funcs: ch.Funcs[i], timeout: opts.Timeout, bins: map[string]string{}}
		defer ex[i].close()
	}
	runs := func(ctx context.Context, i int, t *gotest.Target, top, sub string, prof sideProfile) (string, error) {
		return ex[i].runsChanged(ctx, t, top, sub, prof)
	}
	return decideLayout(ctx, sides, c, ch, profs, runs, bar)
}

// changedRunner says which changed function a benchmark executes on side
// i: its name, "?" when it cannot tell, or "" for none.
type changedRunner func(ctx context.Context, i int, t *gotest.Target, top, sub string, prof sideProfile) (string, error)

// decideLayout moves and marks what layout says, asking runs which
// benchmarks execute changed code.
func decideLayout(ctx context.Context, sides [2]*abtest.Side, c *document.Check, ch *Change, profs map[document.BenchKey]*[2]sideProfile, runs changedRunner, bar *progress.Bar) error {
	// unchanged reports whether a benchmark executes no changed function
	// on either side. Without its profiles, a changed _test.go function
	// (which coverage does not see) cannot be ruled out.
	testFuncs := slices.ContainsFunc(append(slices.Clone(ch.Funcs[0]), ch.Funcs[1]...), func(f FuncSpan) bool { return f.Test })
	decided := map[document.BenchKey]bool{}
	unchanged := func(pkg, name string) (bool, error) {
		key := document.BenchKey{Package: pkg, Name: name}
		if v, ok := decided[key]; ok {
			return v, nil
		}
		decided[key] = false
		top, sub := split(name)
		prof := profs[key]
		if prof == nil && testFuncs {
			return false, nil
		}
		if prof == nil {
			prof = &[2]sideProfile{}
		}
		for i, s := range sides {
			t := target(s, pkg, top)
			if t == nil || slices.Contains(ch.TestGlobals, moduleDir(t.Binary.Package)) {
				return false, nil
			}
			bar.Status(fmt.Sprintf("%s: does %s run changed code", s.Role, name))
			fn, err := runs(ctx, i, t, top, sub, prof[i])
			if err != nil || fn != "" {
				return false, err
			}
		}
		decided[key] = true
		return true, nil
	}
	kept := c.Regressions[:0]
	for _, r := range c.Regressions {
		if !stats.IsTime(r.Unit) || profs[document.BenchKey{Package: r.Package, Name: r.Benchmark}] == nil {
			kept = append(kept, r)
			continue
		}
		moved, err := unchanged(r.Package, r.Benchmark)
		if err != nil {
			return err
		}
		if !moved {
			kept = append(kept, r)
			continue
		}
		r.Causes = append([]document.Cause{{Kind: "layout", Message: "the benchmark executes no function the change touched, on either side (coverage of one iteration): the same code runs at other addresses"}}, r.Causes...)
		c.Layout = append(c.Layout, r)
	}
	c.Regressions = kept
	for i, im := range c.Improvements {
		if !stats.IsTime(im.Unit) {
			continue
		}
		moved, err := unchanged(im.Package, im.Benchmark)
		if err != nil {
			return err
		}
		c.Improvements[i].Layout = moved
	}
	return nil
}

// target finds a side's benchmark.
func target(s *abtest.Side, pkg, top string) *gotest.Target {
	for i := range s.Suite.Targets {
		if t := &s.Suite.Targets[i]; t.Name == top && t.Binary.Package.ImportPath == pkg {
			return t
		}
	}
	return nil
}

// moduleDir is a package's directory relative to its module root,
// slash-separated ("." at the root).
func moduleDir(p gotest.Package) string {
	rel, err := filepath.Rel(p.ModuleDir, p.Dir)
	if err != nil {
		return p.Dir
	}
	return filepath.ToSlash(rel)
}

// changedPackages returns the package patterns ("./codec") of the
// changed Go files that are not tests.
func changedPackages(changed []string) []string {
	var out []string
	for _, f := range changed {
		if !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go") {
			continue
		}
		p := "./" + path.Dir(f)
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// sideProfile is one side's profiles of one benchmark.
type sideProfile struct {
	cpu     *profiles.CPU
	heap    *profiles.Heap
	n       int     // iterations of the heap run
	secOp   float64 // the side's median sec/op
	failure string
}

// runs reports whether the side's profiles show the benchmark running
// code of file; without profiles it cannot tell and says yes.
func (p sideProfile) runs(file string) bool {
	if p.cpu == nil && p.heap == nil {
		return true
	}
	if p.cpu != nil {
		for _, f := range p.cpu.Functions {
			if f.File == file {
				return true
			}
		}
	}
	if p.heap != nil {
		for _, s := range p.heap.Sites {
			if s.File == file || s.CallerFile == file {
				return true
			}
		}
	}
	return false
}

// runsFunc reports whether the side's profiles show the function the
// compiler calls name ("(*cache).getValue") in file running; without
// profiles it cannot tell and says yes.
func (p sideProfile) runsFunc(file, name string) bool {
	if p.cpu == nil && p.heap == nil {
		return true
	}
	suffix := "." + document.PlainFunc(name)
	is := func(fn, f string) bool { return f == file && strings.HasSuffix(document.PlainFunc(fn), suffix) }
	if p.cpu != nil && slices.ContainsFunc(p.cpu.Functions, func(f profiles.Function) bool { return is(f.Name, f.File) }) {
		return true
	}
	return p.heap != nil && slices.ContainsFunc(p.heap.Sites, func(s profiles.Site) bool { return is(s.Function, s.File) })
}

// split returns a benchmark's top-level name and the exact pattern of its
// sub-benchmark parts.
func split(name string) (top, sub string) {
	parts := strings.Split(name, "/")
	var subs []string
	for _, p := range parts[1:] {
		subs = append(subs, "^"+regexp.QuoteMeta(p)+"$")
	}
	return parts[0], strings.Join(subs, "/")
}

// timeOf returns the benchmark's sec/op medians on both sides when its
// time regressed (zeros otherwise: the profile runs measure it).
func timeOf(rs []document.Regression, pkg, name string) [2]float64 {
	for _, r := range rs {
		if r.Package == pkg && r.Benchmark == name && r.Unit == "sec/op" {
			return [2]float64{r.Old, r.New}
		}
	}
	return [2]float64{}
}

// sideEvidence is what profiling one side of a regression starts from:
// its time per op on both sides (BASE, HEAD; zeros when unknown), the CPU
// samples the regression needs (samplesFor), whether the benchmark
// allocates on either side, and this side's CPU profiles from the A/B
// rounds.
type sideEvidence struct {
	secOp    [2]float64
	samples  float64
	allocate bool
	rounds   abtest.Profiled
}

// profileSide profiles one side of a regressed benchmark. Its CPU
// profile is the A/B rounds' profiles, merged, with one more run at a
// fixed iteration count (no ramp) only for the samples they lack (see
// samplesFor; at most opts.ProfileTime); then, when the benchmark
// allocates on either side, a heap profile of every allocation at the
// iteration count n both sides share (0: about 50 ms of this side's
// work, bounded by allocs per op as heapN says). secOp are the
// benchmark's medians (BASE, HEAD) when its time regressed, or zeros.
func profileSide(ctx context.Context, s *abtest.Side, pkg, top, sub string, secOp [2]float64, n int, allocs float64, ev sideEvidence, opts ExplainOptions) (sideProfile, error) {
	t := target(s, pkg, top)
	if t == nil {
		return sideProfile{failure: "not on this side"}, nil
	}
	dir, err := os.MkdirTemp("", "perfloop-check-")
	if err != nil {
		return sideProfile{}, err
	}
	defer os.RemoveAll(dir)
	side := 0
	if s.Role == "HEAD" {
		side = 1
	}
	p := sideProfile{secOp: secOp[side]}
	known := ev.secOp[side] // the A/B medians, regressed or not
	base := gotest.RunConfig{Name: top, Sub: sub, CPU: opts.CPU, Timeout: opts.Timeout}
	pkgInfo := t.Binary.Package
	aopts := profiles.Options{ModuleDir: pkgInfo.ModuleDir, ModulePath: pkgInfo.ModulePath, Benchmark: top}
	if s.Role == "HEAD" && opts.Change != nil {
		// HEAD's stacks say which changed line makes unchanged code run.
		aopts.Changed = func(file string, line int64) bool { return opts.Change.touchedInHead(file, int(line)) }
	}
	var parts []*profile.Profile
	samples := 0.0
	for _, path := range ev.rounds.Paths {
		if cp, err := profiles.ReadFile(path); err == nil {
			parts = append(parts, cp)
			samples += float64(profiles.SampleTotal(cp, "samples"))
		}
	}
	if samples < ev.samples || known <= 0 {
		// The rounds' samples do not decide the regression: one run
		// for the rest, at a fixed count when the time per op is
		// known (no ramp), else for the whole -profiletime.
		cpuPath := filepath.Join(dir, "cpu.pprof")
		rc := base
		rc.Benchtime = cmp.Or(opts.ProfileTime, "1s")
		if known > 0 {
			d := (ev.samples - samples) / 100 // at the profiler's 100 Hz
			if limit, err := time.ParseDuration(rc.Benchtime); err == nil {
				d = min(d, limit.Seconds())
			}
			rc.Benchtime = fmt.Sprintf("%dx", max(1, int(d/known)))
		}
		rc.Args = []string{"-test.cpuprofile=" + cpuPath}
		o, err := t.Binary.Run(ctx, rc)
		if err != nil {
			return p, err
		}
		if o.Status == results.StatusOK {
			if cp, err := profiles.ReadFile(cpuPath); err == nil {
				parts = append(parts, cp)
			}
			if len(o.Results) > 0 {
				if v, ok := o.Results[0].Value("sec/op"); ok && p.secOp == 0 {
					p.secOp = v
				}
			}
		}
	}
	if p.secOp == 0 {
		p.secOp = known
	}
	p.cpu = analyzeParts(parts, aopts)
	if p.cpu == nil || p.cpu.Samples < minSamples {
		// The rounds and the sized run gave too few samples (a loaded
		// machine gives a run less CPU than its wall time): one run for
		// the whole -profiletime, as before any budget.
		cpuPath := filepath.Join(dir, "cpu-full.pprof")
		rc := base
		rc.Benchtime = cmp.Or(opts.ProfileTime, "1s")
		rc.Args = []string{"-test.cpuprofile=" + cpuPath}
		o, err := t.Binary.Run(ctx, rc)
		if err != nil {
			return p, err
		}
		if o.Status == results.StatusOK {
			if cp, err := profiles.ReadFile(cpuPath); err == nil {
				parts = append(parts, cp)
				p.cpu = analyzeParts(parts, aopts)
			}
		}
	}
	if !ev.allocate {
		// Neither side allocates in the loop: no allocation to find.
		p.n = n
		return p, nil
	}
	// Heap: every allocation, at one iteration count for both sides.
	p.n = cmp.Or(n, heapN([2]float64{p.secOp, p.secOp}, allocs), 1000)
	memPath := filepath.Join(dir, "mem.pprof")
	rc := base
	rc.Benchtime = fmt.Sprintf("%dx", p.n)
	rc.Args = []string{"-test.memprofile=" + memPath, "-test.memprofilerate=1"}
	o, err := t.Binary.Run(ctx, rc)
	if err != nil {
		return p, err
	}
	if o.Status == results.StatusOK {
		if hp, err := profiles.ReadFile(memPath); err == nil {
			p.heap, _ = profiles.AnalyzeHeap(hp, aopts)
		}
	} else {
		p.failure = o.Error
	}
	return p, nil
}

// analyzeParts merges CPU profiles and analyzes them; when they do not
// merge, the last alone (the run made for the samples) is analyzed. Nil
// when none has a sample.
func analyzeParts(parts []*profile.Profile, aopts profiles.Options) *profiles.CPU {
	if len(parts) == 0 {
		return nil
	}
	cp := parts[len(parts)-1]
	if len(parts) > 1 {
		if m, err := profile.Merge(parts); err == nil {
			cp = m
		}
	}
	cpu, err := profiles.AnalyzeCPU(cp, aopts)
	if err != nil {
		return nil
	}
	return cpu
}

// samplesFor is how many CPU samples each side's profile needs to
// explain a time regression from secOp (BASE, HEAD): the regression's new
// share of HEAD's time, d = 1 − BASE/HEAD, is what a line that grew must
// show, and a difference of two shares of about d is two standard
// errors apart with 8(1−d)/d samples a side (a 20% regression: 40; a 5%
// one: 160). A regression of something else than time needs no more
// than minSamples; profileTime (at 100 samples a second) caps it.
func samplesFor(secOp [2]float64, profileTime string) float64 {
	need := float64(minSamples)
	if secOp[0] > 0 && secOp[1] > secOp[0] {
		d := 1 - secOp[0]/secOp[1]
		need = max(need, 8*(1-d)/d)
	}
	if limit, err := time.ParseDuration(cmp.Or(profileTime, "1s")); err == nil {
		need = min(need, 100*limit.Seconds())
	}
	return need
}

// minSamples is the fewest CPU samples a side's profile needs whatever
// the regression.
const minSamples = 20

// measuredTime returns the benchmark's sec/op medians on both sides:
// secOp when its time regressed, else the A/B run's unregressed row.
func measuredTime(counted map[RowKey]row, pkg, name string, secOp [2]float64) [2]float64 {
	if secOp[0] > 0 || secOp[1] > 0 {
		return secOp
	}
	if t, ok := counted[rowKey(pkg, name, "sec/op")]; ok {
		return [2]float64{t.old, t.new}
	}
	return secOp
}

// allocates reports whether the A/B run saw the benchmark allocate on
// either side (allocs/op or B/op above zero), or true when it has no such
// rows.
func allocates(counted map[RowKey]row, pkg, name string) bool {
	a, okA := counted[rowKey(pkg, name, "allocs/op")]
	b, okB := counted[rowKey(pkg, name, "B/op")]
	if !okA && !okB {
		return true
	}
	return okA && max(a.old, a.new) > 0 || okB && max(b.old, b.new) > 0
}

// heapN is the heap runs' iteration count for a benchmark whose sides
// take secOp (BASE, HEAD; zeros when unknown) and allocate up to allocs
// per op: about 50 ms of the slower side's work, and at most
// heapRecords allocations recorded, since every one costs a stack walk
// at -memprofilerate 1 (a HEAD 50× slower with a thousand allocations
// per op took minutes at BASE's count). It returns 0 when neither side's
// time is known: the first side's CPU run decides.
func heapN(secOp [2]float64, allocs float64) int {
	slow := max(secOp[0], secOp[1])
	if slow <= 0 {
		return 0
	}
	n := math.Min(200_000, 0.05/slow)
	if allocs > 0 {
		n = math.Min(n, heapRecords/allocs)
	}
	return int(math.Max(100, n))
}

// heapRecords bounds the allocations a heap run records.
const heapRecords = 500_000

// allocsPerOp is the larger of the sides' allocs/op in the A/B run, or 0.
func allocsPerOp(counted map[RowKey]row, pkg, name string) float64 {
	a, ok := counted[rowKey(pkg, name, "allocs/op")]
	if !ok {
		return 0
	}
	return max(a.old, a.new)
}

// allocsMoved reports whether the A/B run's exact counters say the
// benchmark allocates differently per op (half an allocation or 8 bytes),
// or true when it has no such rows. The heap profile of one run also
// records allocations that vary from run to run (a pool's or a cache's
// warm-up, growth of a reused buffer): sites that "grew" while the
// counters did not are that, not a cause.
func allocsMoved(counted map[RowKey]row, pkg, name string) bool {
	a, okA := counted[rowKey(pkg, name, "allocs/op")]
	b, okB := counted[rowKey(pkg, name, "B/op")]
	if !okA && !okB {
		return true
	}
	return okA && math.Abs(a.new-a.old) >= cuts.AllocsPerOp || okB && math.Abs(b.new-b.old) >= cuts.BytesPerOp
}

// siteGrew reports whether an allocation site grew: a site BASE did not
// have (fresh) allocating objects per op at HEAD, or one both have
// allocating dObj objects and dBytes bytes more per op.
func siteGrew(fresh bool, objects, dObj, dBytes float64) bool {
	return fresh && objects >= cuts.NewSiteObjects || dObj >= cuts.SiteObjects || dBytes >= cuts.BytesPerOp
}

// causes compares the sides' profiles of one regression. allocsMoved
// says whether the benchmark's allocation counters changed: without that,
// no allocation site is a cause.
func causes(r *document.Regression, p *[2]sideProfile, verdicts []compilerVerdict, allocsMoved bool, ch *Change) []document.Cause {
	var out []document.Cause
	var sites []profiles.Site // the site of each alloc cause, in order
	var fresh []bool          // whether BASE had no such site
	base, head := p[0], p[1]
	// Allocation sites new or grown, per op at the same iteration count.
	if base.heap != nil && head.heap != nil && allocsMoved {
		for _, m := range matchSites(base.heap.Sites, head.heap.Sites) {
			s, b := m.head, m.base
			dObj := float64(s.Objects-b.Objects) / float64(head.n)
			dBytes := float64(s.Bytes-b.Bytes) / float64(head.n)
			// A site BASE did not have is new at any rate (the profile
			// counts the runtime's 16-byte blocks of tiny allocations,
			// so four 4-byte objects show as one); a site both have must
			// grow by a fifth of an allocation or 8 bytes per op.
			grew := siteGrew(b.Objects == 0, float64(s.Objects)/float64(head.n), dObj, dBytes)
			if !grew {
				continue
			}
			what := "allocates more"
			if b.Objects == 0 {
				what = "new allocation"
			}
			msg := fmt.Sprintf("%s: %s allocs/op, %+.0f B/op", what, count(dObj), dBytes)
			if tiny(s, dObj) {
				// Objects under 16 bytes without pointers share 16-byte
				// blocks, and the profile counts blocks.
				msg = fmt.Sprintf("%s: %+.0f B/op of tiny objects (the profile counts their 16-byte blocks: %s/op)", what, dBytes, count(dObj))
			}
			if s.Via != "" {
				msg += " inside " + s.Via
			}
			c := document.Cause{Kind: "alloc", File: s.File, Line: s.Line, Function: s.Function, Message: msg}
			switch {
			case ch == nil:
			case ch.touchedInHead(s.File, int(s.Line)) || ch.touchedInHead(s.CallerFile, int(s.CallerLine)) || ch.inChangedFunc(s.Function):
				c.Changed = true
			default:
				// Unchanged code that allocates more: charged to the
				// changed line its stacks pass through, if one does.
				if at, ok := reachFunc(head.cpu, s.Function); ok {
					c.Message = fmt.Sprintf("now reaches %s, unchanged, at %s:%d: %s", shortName(s.Function), s.File, s.Line, msg)
					c.File, c.Line, c.Function, c.Callee, c.Changed = at.AtFile, at.AtLine, at.AtFunction, shortName(s.Function), true
				} else {
					c.Outside = true
				}
			}
			out = append(out, c)
			sites = append(sites, s)
			fresh = append(fresh, b.Objects == 0)
		}
	}
	// The compiler's new heap verdicts: join them with an allocation at
	// their line (or at the line the allocating function was inlined
	// into, where the compiler reports an inlined copy's verdicts); a
	// variable moved to the heap is reported at its declaration, which
	// can be a line or two above the allocation. A verdict no allocation
	// joined is listed only when there is no heap profile to say it did
	// not allocate (a new escape on a path the benchmark does not take,
	// such as a panic's message, is not its cause), and a lost inlining
	// only for time, where the benchmark runs its file.
	joins := func(file string, line int64, e compilerVerdict) bool {
		d := abs(line - e.Line)
		return file == e.File && (d == 0 || e.decl && d <= 2)
	}
	for _, e := range verdicts {
		if e.Kind == "inline" {
			if r.Unit == "sec/op" && head.runsFunc(e.File, e.Function) {
				out = append(out, ch.mark(e.Cause))
			}
			// A new allocation inside the function that lost its
			// inlining: inlined, its value could stay on the caller's
			// stack; called, the function's own escape applies.
			for i, s := range sites {
				if fresh[i] && s.File == e.File && strings.HasSuffix(document.PlainFunc(s.Function), "."+document.PlainFunc(e.Function)) {
					out[i].Message += fmt.Sprintf("; %s is no longer inlined (%s:%d), so what it allocates no longer stays on its callers' stacks", e.Function, e.File, e.Line)
				}
			}
			continue
		}
		joined := false
		for i, s := range sites {
			switch {
			case !joins(s.File, s.Line, e) && !joins(s.CallerFile, s.CallerLine, e):
			case e.Kind == "stackmake":
				out[i].Message += "; the compiler says " + e.Message + ", yet it is on the heap: its size is not a constant (only those of 32 bytes or less stay on the stack, from Go 1.25) or is over 64 KiB"
				joined = true
			default:
				out[i].Message += "; the compiler now says: " + e.Message
				out[i].Flow = e.Flow
				joined = true
			}
		}
		if !joined && e.Kind != "stackmake" && head.heap == nil && head.runs(e.File) {
			out = append(out, ch.mark(e.Cause))
		}
	}
	if r.Unit == "sec/op" {
		out = append(out, cpuCauses(base, head, ch)...)
	}
	if len(out) == 0 && (base.failure != "" || head.failure != "") {
		out = append(out, document.Cause{Kind: "profile", Message: "profiling failed: " + cmp.Or(head.failure, base.failure)})
	}
	// What the change did not touch and no changed line reaches comes
	// after every cause in the change, whatever it costs.
	slices.SortStableFunc(out, func(a, b document.Cause) int {
		return cmp.Compare(b2i(a.Outside), b2i(b.Outside))
	})
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// reachFunc returns the changed line that HEAD's stacks through fn's
// code and callees pass most, if any does.
func reachFunc(cpu *profiles.CPU, fn string) (profiles.Reach, bool) {
	if cpu == nil {
		return profiles.Reach{}, false
	}
	var best profiles.Reach
	sum := map[[2]string]float64{}
	for _, r := range cpu.Reach {
		if document.PlainFunc(r.Function) != document.PlainFunc(fn) || document.PlainFunc(r.AtFunction) == document.PlainFunc(fn) {
			continue
		}
		k := [2]string{r.AtFile, fmt.Sprint(r.AtLine)}
		sum[k] += r.Self
		if sum[k] > best.Self {
			best = r
			best.Self = sum[k]
		}
	}
	return best, best.Self > 0
}

// tiny reports whether a site's allocations look like the runtime's tiny
// allocator's: 16 bytes per profiled object, a fraction of one per op.
func tiny(s profiles.Site, perOp float64) bool {
	_, frac := math.Modf(math.Abs(perOp))
	return s.Objects > 0 && s.Bytes == 16*s.Objects && frac > 0.1 && frac < 0.9
}

// siteMatch pairs a HEAD allocation site with BASE's same site (zero
// when BASE has none).
type siteMatch struct{ base, head profiles.Site }

// matchSites pairs HEAD's module allocation sites with BASE's. Lines move
// between revisions, so a site is matched by what it is: its function,
// the callee that allocated, the runtime's kind of allocation and the
// size of its objects; among several such sites, the nearest line.
func matchSites(base, head []profiles.Site) []siteMatch {
	type key struct {
		fn, via, alloc string
		size           int64
	}
	keyOf := func(s profiles.Site) key {
		size := int64(0)
		if s.Objects > 0 {
			size = s.Bytes / s.Objects
		}
		return key{document.PlainFunc(s.Function), s.Via, s.Alloc, size}
	}
	free := map[key][]profiles.Site{}
	for _, s := range base {
		free[keyOf(s)] = append(free[keyOf(s)], s)
	}
	var out []siteMatch
	for _, s := range head {
		if !s.Module || s.InTest {
			continue
		}
		k := keyOf(s)
		cands := free[k]
		best := -1
		for i, c := range cands {
			if best < 0 || abs(c.Line-s.Line) < abs(cands[best].Line-s.Line) {
				best = i
			}
		}
		m := siteMatch{head: s}
		if best >= 0 {
			m.base = cands[best]
			free[k] = slices.Delete(cands, best, best+1)
		}
		out = append(out, m)
	}
	return out
}

// compilerVerdict is one of the compiler's verdicts new in HEAD's changed files.
type compilerVerdict struct {
	document.Cause
	// decl says the verdict is at a variable's declaration ("moved to
	// heap: x"), which can be a line or two above where it is allocated.
	decl bool
}

// compilerDiff returns the compiler's verdicts in the changed files that
// HEAD has and BASE does not (by file and message: lines move): values
// now on the heap ("escape"), and functions no longer inlined ("inline").
func compilerDiff(esc [2]*escape.Index, changed []string) []compilerVerdict {
	if esc[0] == nil || esc[1] == nil {
		return nil
	}
	in := map[string]bool{}
	for _, f := range changed {
		in[f] = !strings.HasSuffix(f, "_test.go")
	}
	before := map[string]bool{}
	inlined := map[string]bool{} // "file name" of functions BASE could inline
	for _, d := range esc[0].Diagnostics() {
		switch {
		case d.Kind.Heap() || d.Kind == escape.KindDoesNotEscape:
			before[d.File+" "+d.Message] = true
		case d.Kind == escape.KindCanInline:
			inlined[d.File+" "+d.Name] = true
		}
	}
	seen := map[string]bool{}
	var out []compilerVerdict
	for _, d := range esc[1].Diagnostics() {
		k := d.File + " " + d.Message
		if !in[d.File] || seen[k] {
			continue
		}
		switch {
		case d.Kind.Heap() && !before[k]:
			out = append(out, compilerVerdict{document.Cause{Kind: "escape", File: d.File, Line: int64(d.Line), Message: d.Message + " (new)", Flow: d.Flow}, d.Kind == escape.KindMovedToHeap})
		case d.Kind == escape.KindDoesNotEscape && strings.HasPrefix(d.Name, "make(") && !before[k]:
			// Joined only to an allocation at its line, which it then
			// explains; alone it is no cause.
			out = append(out, compilerVerdict{Cause: document.Cause{Kind: "stackmake", File: d.File, Line: int64(d.Line), Message: d.Message}})
		case d.Kind == escape.KindCannotInline && d.Into == "" && inlined[d.File+" "+d.Name]:
			out = append(out, compilerVerdict{Cause: document.Cause{Kind: "inline", File: d.File, Line: int64(d.Line), Function: d.Name,
				Message: fmt.Sprintf("%s is no longer inlined: %s", d.Name, d.Reason)}})
		default:
			continue
		}
		seen[k] = true
	}
	return out
}

// count formats a signed count per op: whole numbers in full (+1024, not
// +1.02e+03), fractions to three digits.
func count(x float64) string {
	if math.Abs(x) >= 100 {
		return fmt.Sprintf("%+.0f", x)
	}
	return fmt.Sprintf("%+.3g", x)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// nanos formats seconds per op as a signed duration.
func nanos(sec float64) string {
	switch a := math.Abs(sec); {
	case a < 1e-6:
		return fmt.Sprintf("%.3gns", sec*1e9)
	case a < 1e-3:
		return fmt.Sprintf("%.3gµs", sec*1e6)
	}
	return fmt.Sprintf("%.3gms", sec*1e3)
}
