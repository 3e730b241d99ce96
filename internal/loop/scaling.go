package loop

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// How the concurrent benchmarks are run at several core counts (see
// scaleOne): scaleRounds rounds of runs of about scaleTime under the CPU
// profiler, each core count once per round in alternating order (so
// drift hits them alike), an extra profile of at least minScaleProfile
// where the runs' profiles are too thin, and at the largest count one run
// of about lockProfile under the mutex and block profilers. A blocking
// event of at least blockRate ns is always recorded, shorter ones in
// proportion.
const (
	scaleRounds     = 3
	scaleTime       = 50 * time.Millisecond
	minScaleProfile = 300 * time.Millisecond
	// minExtra is the shortest extra profile worth a run.
	minExtra    = 50 * time.Millisecond
	lockProfile = 100 * time.Millisecond
	blockRate   = 1000
	// A line's CPU time per op grows with the cores when it grows by at
	// least growthRatio, by 3σ of its sampling noise and by growthMin of
	// the CPU time per op at N cores.
	growthRatio = 1.25
	growthMin   = 0.02
	// A critical section is listed from insideMin of the CPU.
	insideMin = 0.02
	maxLocks  = 5
	maxGrowth = 5
	// maxFloored is how many concurrent benchmarks, those that scale
	// worst, get the floor of minScaleProfile beyond the budget.
	maxFloored = 4
	// setupHeavy is the time outside the timed loops above which a
	// benchmark's runs at each core count are one round, not
	// scaleRounds: a fixture built again in every run (fastjson's
	// BenchmarkObjectGet spends 0.4–0.7 s of each run building its
	// sub-benchmarks' objects, for 50ms of measurement).
	setupHeavy = 4 * scaleTime
)

// coreCounts returns the core counts a concurrent benchmark is measured
// at: 1, the powers of two below n, and n.
func coreCounts(n int) []int {
	out := []int{1}
	for c := 2; c < n; c *= 2 {
		out = append(out, c)
	}
	if n > 1 {
		out = append(out, n)
	}
	return out
}

// scaling measures how the concurrent benchmarks among done (indexes into
// the suite's targets, whose rounds bench ran) scale with the cores and
// what stops them: one document.Scaling row per benchmark name, with the
// lock sites and the lines whose cost grows on the row of the benchmark
// that scales worst. budget is the time extra profiles may take in all,
// perBench each (see measure and extras). It returns an error only on
// cancellation or when a binary cannot start.
func (s *Suite) scaling(ctx context.Context, idx []int, bench *BenchRun, scratch, root string, src *sources, budget, perBench time.Duration, bar *progress.Bar) ([]document.Scaling, error) {
	shared := map[string]map[string][]string{}
	maxN := runtime.NumCPU()
	var out []document.Scaling
	if len(idx) == 0 {
		return nil, nil
	}
	if maxN < 2 {
		for _, i := range idx {
			t := s.Targets[i]
			out = append(out, document.Scaling{Benchmark: t.Name, Package: t.Binary.Package.ImportPath, Parameter: "cpu",
				NotMeasured: "this machine has one CPU: scaling needs at least two"})
		}
		return out, nil
	}
	secs := newSectionIndex(root)
	bar.Start(2*len(idx), "")
	defer bar.Done()
	// Every benchmark's short runs first, then the extra profiles for
	// the benchmarks that scale worst, while the budget lasts.
	runs := make([]*scaleRun, len(idx))
	blocking := map[string]bool{} // per source file, see mayBlock
	for k, i := range idx {
		t := s.Targets[i]
		bar.Describe(t.Name)
		sr, err := s.measure(ctx, t, bench.Benchmarks[i], bench.Runs[i], coreCounts(maxN), scratch, root, blocking)
		if sr != nil {
			defer sr.remove()
		}
		if err != nil {
			return out, err
		}
		runs[k] = sr
		bar.Step("")
	}
	for k, sr := range extraOrder(runs) {
		sr.at1, sr.atN = scaleExtras(sr.scales, sr.samples(sr.cpu1), sr.samples(sr.cpuN), perBench, budget, k < maxFloored)
		budget -= sr.at1 + sr.atN
	}
	for k, i := range idx {
		t := s.Targets[i]
		bar.Describe(t.Name)
		rows, err := s.finish(ctx, runs[k], src, secs)
		if err != nil {
			return out, err
		}
		pkg := t.Binary.Package
		if shared[pkg.ImportPath] == nil {
			shared[pkg.ImportPath] = sharedReceivers(pkg)
		}
		for k := range rows {
			rows[k].Shared = shared[pkg.ImportPath][t.Name]
		}
		out = append(out, rows...)
		bar.Step("")
	}
	slices.SortStableFunc(out, func(a, b document.Scaling) int {
		unmeasured := func(s document.Scaling) int {
			if s.NotMeasured != "" {
				return 1
			}
			return 0
		}
		return cmp.Or(cmp.Compare(unmeasured(a), unmeasured(b)), cmp.Compare(a.Efficiency, b.Efficiency))
	})
	return out, nil
}

// scaleRun is one concurrent benchmark (all its sub-benchmarks) measured
// at every core count: what measure found, and the extra profiles the
// budget gave it.
type scaleRun struct {
	t      gotest.Target
	cpus   []int
	base   string
	rows   []document.Scaling
	worst  int
	failed []document.Scaling // set when the runs could not be measured
	// profs holds the CPU profiles at each core count, iters their
	// iterations; perOp the time per op summed over sub-benchmarks.
	profs      map[int][]string
	iters      map[int]int64
	perOp      map[int]float64
	cpu1, cpuN *profile.Profile
	scales     bool
	// The lock profiles' run at N: its iterations.
	itL      int64
	at1, atN time.Duration
}

// samples is the sample count of p, 0 for none.
func (*scaleRun) samples(p *profile.Profile) float64 {
	if p == nil {
		return 0
	}
	return float64(profiles.SampleTotal(p, "samples"))
}

// remove deletes the profiles the runs wrote (the rounds' are not its).
func (sr *scaleRun) remove() {
	for _, c := range sr.cpus {
		for _, p := range sr.profs[c] {
			if strings.HasPrefix(p, sr.base) {
				_ = os.Remove(p)
			}
		}
	}
	for _, p := range []string{sr.block(), sr.mutex()} {
		_ = os.Remove(p)
	}
}

func (sr *scaleRun) block() string { return sr.base + "-block.pprof" }
func (sr *scaleRun) mutex() string { return sr.base + "-mutex.pprof" }

// extraOrder is the order in which measured runs get the budget's extra
// profiles: the benchmarks that scale worst first, since that is where a
// lock or a growing line can be found; a benchmark whose runs failed gets
// none.
func extraOrder(runs []*scaleRun) []*scaleRun {
	var out []*scaleRun
	for _, sr := range runs {
		if sr != nil && sr.failed == nil {
			out = append(out, sr)
		}
	}
	slices.SortStableFunc(out, func(a, b *scaleRun) int {
		return cmp.Compare(a.rows[a.worst].Efficiency, b.rows[b.worst].Efficiency)
	})
	return out
}

// measure runs one concurrent benchmark (all its sub-benchmarks) at every
// core count: its time per op at each, the CPU profiles at one core and
// at N, and one run at N under the lock profilers.
//
// Every run has a fixed iteration count sized from the rounds' time per
// op, so it does not ramp and its profile's iterations are known. When
// the benchmark's rounds ran at N cores at fixed counts (one result line,
// the default -cpu), they are its time and profile at N, and only the
// smaller core counts run here. The runs here are short and profiled;
// extra profiles come from the budget (see scaleExtras).
func (s *Suite) measure(ctx context.Context, t gotest.Target, b *results.Benchmark, rounds []Round, cpus []int, scratch, root string, blocking map[string]bool) (*scaleRun, error) {
	pkg := t.Binary.Package.ImportPath
	sr := &scaleRun{t: t, cpus: cpus, base: filepath.Join(scratch, sanitizeName(t.Name)+".scale"),
		profs: map[int][]string{}, iters: map[int]int64{}, perOp: map[int]float64{}}
	fail := func(why string) *scaleRun {
		sr.failed = []document.Scaling{{Benchmark: t.Name, Package: pkg, Parameter: "cpu", NotMeasured: why}}
		return sr
	}
	n := cpus[len(cpus)-1]
	est := estimatePerOp(b)
	ns := map[string]map[int][]float64{}
	var names []string
	record := func(c int, o *gotest.Outcome) {
		for _, res := range o.Results {
			v, ok := res.Value("sec/op")
			if !ok {
				continue
			}
			name, _ := stats.SplitProcs(res.Name)
			name = "Benchmark" + name
			if ns[name] == nil {
				ns[name] = map[int][]float64{}
				names = append(names, name)
			}
			ns[name][c] = append(ns[name][c], v*1e9)
		}
	}
	// The rounds at N, when they ran there at fixed counts.
	// setup is the most a run of the first round spent outside its
	// timed loops: process start, package init, the benchmark's setup.
	var setup time.Duration
	run := slices.Clone(cpus)
	if atN := roundsAt(b, rounds, n); len(atN) > 0 {
		run = cpus[:len(cpus)-1]
		for _, r := range atN {
			sr.profs[n] = append(sr.profs[n], r.CPUProfile)
			sr.iters[n] += int64(r.Iters)
		}
		record(n, &gotest.Outcome{Results: b.Results})
	}
	for r := range scaleRounds {
		if r == 1 && setup > setupHeavy {
			// Each run costs its setup again for scaleTime of
			// measurement: one round says as much as that costs.
			break
		}
		order := slices.Clone(run)
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, c := range order {
			k := scaleIters(est, n, c, scaleTime)
			path := fmt.Sprintf("%s-r%d-cpu%d.pprof", sr.base, r, c)
			o, err := t.Binary.Run(ctx, gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: strconv.FormatInt(k, 10) + "x", CPU: strconv.Itoa(c),
				Timeout: s.Config.Timeout, Args: []string{"-test.cpuprofile=" + path}})
			if err != nil {
				return sr, err
			}
			if o.Status != results.StatusOK {
				return fail(fmt.Sprintf("the run at -cpu %d failed: %s", c, o.Error)), nil
			}
			record(c, o)
			sr.profs[c] = append(sr.profs[c], path)
			sr.iters[c] += k
			setup = max(setup, o.Elapsed-timedIn(o.Results))
		}
	}
	if len(names) == 0 {
		return fail("the runs printed no ns/op"), nil
	}
	for _, name := range names {
		row := document.Scaling{Benchmark: name, Package: pkg, Parameter: "cpu", CPU: cpus}
		for _, c := range cpus {
			sum := stats.Summarize(ns[name][c], "ns/op", nil)
			row.NsPerOp = append(row.NsPerOp, round3(sum.Median))
			row.Runs = append(row.Runs, len(ns[name][c]))
			if sum.Finite() {
				row.NsPerOpLow = append(row.NsPerOpLow, round3(sum.Low))
				row.NsPerOpHigh = append(row.NsPerOpHigh, round3(sum.High))
			}
			sr.perOp[c] += sum.Median
		}
		if len(row.NsPerOpLow) != len(cpus) {
			row.NsPerOpLow, row.NsPerOpHigh = nil, nil
		}
		for k, c := range cpus {
			e := 0.0
			if row.NsPerOp[k] > 0 {
				e = row.NsPerOp[0] / (float64(c) * row.NsPerOp[k])
			}
			row.Efficiencies = append(row.Efficiencies, round3(e))
		}
		row.Efficiency = row.Efficiencies[len(cpus)-1]
		row.Growth = findings.DefaultThresholds.CoreGrowth(row.NsPerOp[0], row.NsPerOp[len(cpus)-1], len(cpus), cpus[len(cpus)-1])
		sr.rows = append(sr.rows, row)
	}
	for k := range sr.rows {
		if sr.rows[k].Efficiency < sr.rows[sr.worst].Efficiency {
			sr.worst = k
		}
	}
	merged := func(c int) *profile.Profile {
		p, err := profiles.Merge(sr.profs[c])
		if err != nil {
			return nil
		}
		return p
	}
	sr.cpu1, sr.cpuN = merged(1), merged(n)
	sr.scales = sr.rows[sr.worst].Efficiency >= findings.DefaultThresholds.ScaleOK && !busy(sr.cpuN, n)
	if sr.cpuN != nil && !mayBlock(sr.cpuN, root, blocking) {
		// The lock profilers would see only the harness's own waits.
		return sr, nil
	}
	_, itL, err := s.scaleProfile(ctx, t, n, sr.perOp[n], lockProfile, "", []string{
		"-test.blockprofile=" + sr.block(), "-test.blockprofilerate=" + strconv.Itoa(blockRate),
		"-test.mutexprofile=" + sr.mutex(), "-test.mutexprofilefraction=1"})
	if err != nil {
		return sr, err
	}
	sr.itL = itL
	return sr, nil
}

// blockingPrimitives are the functions of a lock, a wait or a channel
// operation that a CPU profile names (a mutex's fast paths are inlined
// and named by none: the source says those).
var blockingPrimitives = []string{"sync.(*Mutex).", "sync.(*RWMutex).", "sync.(*WaitGroup).", "sync.(*Cond).", "internal/sync.",
	"runtime.chansend", "runtime.chanrecv", "runtime.selectgo", "runtime.semacquire", "runtime.block", "time.Sleep"}

// blockingSource matches source that locks, waits or uses channels.
var blockingSource = regexp.MustCompile(`\.(R?Lock|Wait)\(\)|<-|\bchan\b|\bselect\s*\{|sync\.(Cond|WaitGroup)|time\.Sleep`)

// mayBlock reports whether a concurrent benchmark's CPU profile at N
// cores can come with lock or channel waits of the module's: a sample in
// which the module's code (outside _test.go files) calls a blocking
// primitive, or a sampled function of the module's whose file locks,
// waits or uses channels (root is the module's directory; files caches
// each file's answer). Otherwise the lock profilers can see only the
// harness's own waits (RunParallel's), which are never a cause.
func mayBlock(p *profile.Profile, root string, files map[string]bool) bool {
	if root == "" {
		return true
	}
	module := func(file string) bool {
		return strings.HasPrefix(file, root+string(filepath.Separator)) && !strings.HasSuffix(file, "_test.go")
	}
	seen := false
	for _, fn := range p.Function {
		if !module(fn.Filename) {
			continue
		}
		seen = true
		block, ok := files[fn.Filename]
		if !ok {
			src, err := os.ReadFile(fn.Filename)
			block = err != nil || blockingSource.Match(src)
			files[fn.Filename] = block
		}
		if block {
			return true
		}
	}
	for _, smp := range p.Sample {
		mod, prim := false, false
		for _, loc := range smp.Location {
			for _, l := range loc.Line {
				if l.Function == nil {
					continue
				}
				mod = mod || module(l.Function.Filename)
				for _, b := range blockingPrimitives {
					prim = prim || strings.HasPrefix(l.Function.Name, b)
				}
			}
		}
		if mod && prim {
			return true
		}
	}
	// No sampled function of the module's (its files are not under
	// root as the profile names them): no telling, so the profilers run.
	return !seen
}

// finish runs the extra profiles the budget gave sr and reads the
// profiles: the lock sites, the atomic lines and the lines whose cost
// grows with the cores, on the row of the benchmark that scales worst.
func (s *Suite) finish(ctx context.Context, sr *scaleRun, src *sources, secs *sectionIndex) ([]document.Scaling, error) {
	if sr.failed != nil {
		return sr.failed, nil
	}
	t := sr.t
	n := sr.cpus[len(sr.cpus)-1]
	for _, c := range []int{1, n} {
		d := sr.atN
		if c == 1 {
			d = sr.at1
		}
		if d < minExtra {
			continue
		}
		path := fmt.Sprintf("%s-extra-cpu%d.pprof", sr.base, c)
		p, it, err := s.scaleProfile(ctx, t, c, sr.perOp[c], d, path, nil)
		if err != nil {
			return nil, err
		}
		_ = os.Remove(path)
		if p == nil {
			continue
		}
		prev := &sr.cpu1
		if c == n {
			prev = &sr.cpuN
		}
		if *prev != nil {
			if m, err := profile.Merge([]*profile.Profile{*prev, p}); err == nil {
				p = m
			}
		}
		*prev = p
		sr.iters[c] += it
	}
	rows := sr.rows
	row := &rows[sr.worst]
	if sr.cpuN == nil {
		row.NotMeasured = "no CPU profile at -cpu " + strconv.Itoa(n)
		return rows, nil
	}
	if concurrentShare(sr.cpuN) < 0.01 {
		row.NotMeasured = "its source starts goroutines, but none of them ran in the profile at -cpu " + strconv.Itoa(n)
		return rows, nil
	}
	opts := reportOptions(t, s.untimed(t))
	aN, err := profiles.AnalyzeCPU(sr.cpuN, opts)
	if err != nil {
		row.NotMeasured = err.Error()
		return rows, nil
	}
	if d := sr.cpuN.DurationNanos; d > 0 {
		row.CoresUsed = round3(float64(profiles.SampleTotal(sr.cpuN, "cpu")) / float64(d))
	}
	if sr.cpu1 != nil {
		if a1, err := profiles.AnalyzeCPU(sr.cpu1, opts); err == nil {
			row.Growing = growing(a1, aN, sr.iters[1], sr.iters[n], src)
		}
	}
	row.Locks, row.HarnessBlockShare = lockSites(sr.block(), sr.mutex(), sr.itL, opts, aN, secs, src)
	row.Atomics = atomicLines(aN, src)
	return rows, nil
}

// scaleExtras returns how long the extra CPU profiles of a concurrent
// benchmark run at one core and at N, given whether it scales, the
// samples its runs' profiles hold there and the budget left (the
// benchmarks that scale worst ask first; see extraOrder). What each
// profile decides sets what it needs: the one at N serves the lock and
// atomic rules, always, so it gets minScaleProfile when it is thin; the
// one at one core serves only the growth rule, which runs for a benchmark
// that does not scale, so a benchmark that scales gets no extra profile
// at one core however thin its runs' is. A benchmark that does not scale
// is undecided: both get up to perBench of the budget. floor gives a thin
// profile its minScaleProfile beyond the budget (the maxFloored that
// scale worst); the others get nothing once the budget is spent, so on a
// suite of many concurrent benchmarks those that scale best keep their
// runs' profiles.
func scaleExtras(scales bool, samples1, samplesN float64, perBench, budget time.Duration, floor bool) (at1, atN time.Duration) {
	if budget <= 0 && !floor {
		return 0, 0
	}
	if !scales {
		at1 = min(perBench, max(budget, 0)/2)
		atN = at1
		if samples1 < minSamples {
			at1 = max(at1, min(perBench, minScaleProfile))
		}
	}
	if samplesN < minSamples {
		atN = max(atN, min(perBench, minScaleProfile))
	}
	return at1, atN
}

// busy reports whether a CPU profile at n cores got fewer than
// BusyCores × n cores: the machine ran other work.
func busy(p *profile.Profile, n int) bool {
	if p == nil || p.DurationNanos <= 0 {
		return true
	}
	used := float64(profiles.SampleTotal(p, "cpu")) / float64(p.DurationNanos)
	return used < findings.DefaultThresholds.BusyCores*float64(n)
}

// roundsAt returns the benchmark's rounds that ran at n cores at a fixed
// iteration count with a CPU profile, or none unless every result line
// is at n cores: such rounds are its time and profile at N.
func roundsAt(b *results.Benchmark, rounds []Round, n int) []Round {
	for _, res := range b.Results {
		if procsOf(res) != n {
			return nil
		}
	}
	var out []Round
	for _, r := range rounds {
		if r.Iters > 0 && r.CPUProfile != "" {
			out = append(out, r)
		}
	}
	return out
}

// procsOf is the GOMAXPROCS a result ran at: its name's -N suffix, or 1
// without one.
func procsOf(res *benchfmt.Result) int {
	_, p := stats.SplitProcs(res.Name)
	return max(p, 1)
}

// perOpAt is a benchmark's seconds per op, summed over its
// sub-benchmarks, at a core count.
type perOpAt struct {
	sec   float64
	procs int
}

// timedIn is the time a run's results say their timed loops took: each
// result's iterations times its time per op.
func timedIn(rs []*benchfmt.Result) time.Duration {
	var sum float64
	for _, r := range rs {
		if v, ok := r.Value("sec/op"); ok && r.Iters > 0 {
			sum += v * float64(r.Iters)
		}
	}
	return time.Duration(sum * float64(time.Second))
}

// estimatePerOp returns a benchmark's seconds per op summed over its
// sub-benchmarks (the first result of each) at the largest core count of
// its rounds' results: what sizes the scaling runs.
func estimatePerOp(b *results.Benchmark) perOpAt {
	var est perOpAt
	for _, res := range b.Results {
		est.procs = max(est.procs, procsOf(res))
	}
	seen := map[string]bool{}
	for _, res := range b.Results {
		name, _ := stats.SplitProcs(res.Name)
		if procsOf(res) != est.procs || seen[name] {
			continue
		}
		seen[name] = true
		v, _ := res.Value("sec/op")
		est.sec += v
	}
	return est
}

// scaleIters is the iteration count of a scaling run at c cores of a
// benchmark measured at est (seconds per op and the cores of that
// measurement) that takes about d: at c cores a parallel benchmark takes
// at most procs/c times longer per op than at procs, when it scales
// perfectly; one that does not scale runs shorter.
func scaleIters(est perOpAt, n, c int, d time.Duration) int64 {
	sec, procs := est.sec, est.procs
	if procs <= 0 {
		procs = n
	}
	if sec <= 0 {
		return 1
	}
	per := sec * float64(procs) / float64(c)
	return int64(max(1, min(d.Seconds()/per, 1e9)))
}

// atomicLines are the module lines of a CPU profile that write with an
// atomic operation, with their CPU share. Sampling skid puts an atomic's
// cost on the instruction after it: a line with no call of its own just
// after an atomic write is counted as that write (reported at the write).
func atomicLines(a *profiles.CPU, src *sources) []document.LineInside {
	byLine := map[string]*document.LineInside{}
	var out []*document.LineInside
	for _, l := range a.Lines {
		if l.InTest || l.Self <= 0 {
			continue
		}
		line, text := l.Line, src.line(l.File, l.Line)
		if !isAtomicWrite(text) {
			prev := src.line(l.File, l.Line-1)
			if l.Callee != "" || !isAtomicWrite(prev) {
				continue
			}
			line, text = l.Line-1, prev
		}
		k := l.File + ":" + strconv.FormatInt(line, 10)
		li := byLine[k]
		if li == nil {
			li = &document.LineInside{File: l.File, Function: l.Function, Line: line, Source: text}
			byLine[k] = li
			out = append(out, li)
		}
		li.Share += l.Self
	}
	var rows []document.LineInside
	for _, li := range out {
		if li.Share >= 0.01 {
			li.Share = round3(li.Share)
			rows = append(rows, *li)
		}
	}
	slices.SortFunc(rows, func(a, b document.LineInside) int {
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return rows
}

// isAtomicWrite reports a source line that writes with an atomic
// read-modify-write or store.
func isAtomicWrite(src string) bool {
	for _, w := range []string{"atomic.Add", "atomic.Store", "atomic.Swap", "atomic.CompareAndSwap", "atomic.Or", "atomic.And",
		".Add(", ".Store(", ".Swap(", ".CompareAndSwap("} {
		if strings.Contains(src, w) {
			return true
		}
	}
	return false
}

// scaleProfile runs t at -cpu c for about d (sized from perOp ns per
// iteration) with args, or with a CPU profile written to cpuPath when it
// is set, and returns the parsed CPU profile and the iteration count. A
// failed run gives a nil profile.
func (s *Suite) scaleProfile(ctx context.Context, t gotest.Target, c int, perOp float64, d time.Duration, cpuPath string, args []string) (*profile.Profile, int64, error) {
	iters := int64(1)
	if perOp > 0 {
		iters = int64(max(1, min(float64(d.Nanoseconds())/perOp, 1e10)))
	}
	if cpuPath != "" {
		args = append(args, "-test.cpuprofile="+cpuPath)
	}
	o, err := t.Binary.Run(ctx, gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: strconv.FormatInt(iters, 10) + "x",
		CPU: strconv.Itoa(c), Timeout: s.Config.Timeout, Args: args})
	if err != nil {
		return nil, 0, err
	}
	if o.Status != results.StatusOK || cpuPath == "" {
		return nil, iters, nil
	}
	p, err := profiles.ReadFile(cpuPath)
	if err != nil {
		return nil, iters, nil
	}
	return p, iters, nil
}

// concurrentShare is the share of a CPU profile's samples that ran on the
// benchmark's goroutines rather than the benchmark goroutine itself:
// RunParallel's workers, or goroutines the benchmark started (their
// stacks hold no testing frame).
func concurrentShare(p *profile.Profile) float64 {
	var all, conc int64
	for _, s := range p.Sample {
		v := s.Value[len(s.Value)-1]
		all += v
		testing, worker, user := false, false, false
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function == nil {
					continue
				}
				name := ln.Function.Name
				switch {
				case strings.HasPrefix(name, "testing.(*B).RunParallel.func"):
					worker = true
				case strings.HasPrefix(name, "testing."):
					testing = true
				case !strings.HasPrefix(name, "runtime.") && !strings.HasPrefix(name, "internal/runtime/"):
					user = true
				}
			}
		}
		if worker || (user && !testing) {
			conc += v
		}
	}
	if all == 0 {
		return 0
	}
	return float64(conc) / float64(all)
}

// growing compares the CPU profiles at one core and at N: the module
// lines whose CPU time per op grows by more than their sampling noise.
func growing(a1, aN *profiles.CPU, it1, itN int64, src *sources) []document.LineGrowth {
	type key struct {
		fn, file, callee string
		line             int64
	}
	perOp := func(a *profiles.CPU, it int64) float64 { return float64(a.Total) / float64(max(it, 1)) }
	p1, pN := perOp(a1, it1), perOp(aN, itN)
	one := map[key]profiles.LineCost{}
	for _, l := range a1.Lines {
		one[key{l.Function, l.File, l.Callee, l.Line}] = l
	}
	var out []document.LineGrowth
	for _, l := range aN.Lines {
		if l.InTest || strings.HasPrefix(l.Callee, "testing.") || l.Self <= 0 {
			continue
		}
		o := one[key{l.Function, l.File, l.Callee, l.Line}]
		nsN, ns1 := l.Self*pN, o.Self*p1
		sN, s1 := l.Self*float64(aN.Samples), o.Self*float64(a1.Samples)
		if sN < 10 || nsN < growthRatio*ns1 || nsN-ns1 < growthMin*pN {
			continue
		}
		sigma2 := nsN * nsN / sN
		if s1 > 0 {
			sigma2 += ns1 * ns1 / s1
		} else {
			// No sample at one core: its time there is below one
			// sample's worth.
			sigma2 += math.Pow(p1/float64(max(a1.Samples, 1)), 2)
		}
		if nsN-ns1 <= 3*math.Sqrt(sigma2) {
			continue
		}
		g := document.LineGrowth{File: l.File, Line: l.Line, Function: l.Function, Callee: l.Callee,
			NsPerOp1: round3(ns1), NsPerOpN: round3(nsN), Samples1: int64(math.Round(s1)), SamplesN: int64(math.Round(sN)),
			Source: src.line(l.File, l.Line)}
		g.Mechanism = document.Mechanism(mechanism(l.Callee, g.Source))
		out = append(out, g)
	}
	slices.SortFunc(out, func(a, b document.LineGrowth) int {
		return cmp.Or(cmp.Compare(b.NsPerOpN-b.NsPerOp1, a.NsPerOpN-a.NsPerOp1), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	if len(out) > maxGrowth {
		out = out[:maxGrowth]
	}
	return out
}

// mechanism names why a line's cost grows with the cores, from the
// function it calls and its source.
func mechanism(callee, source string) string {
	switch {
	case strings.Contains(callee, "RWMutex).RLock") || strings.Contains(callee, "RWMutex).RUnlock"):
		return "reader-count"
	case strings.Contains(callee, "Mutex).Lock") || strings.Contains(callee, "lockSlow") || strings.Contains(callee, "Mutex).Unlock"):
		return "mutex-spin"
	case strings.HasPrefix(callee, "sync/atomic.") || strings.HasPrefix(callee, "internal/runtime/atomic."):
		return "atomic"
	case strings.HasPrefix(callee, "sync.(*Pool)"):
		return "pool"
	case strings.HasPrefix(callee, "runtime.chan") || strings.HasPrefix(callee, "runtime.selectgo"):
		return "channel"
	}
	if callee != "" {
		return ""
	}
	// Inlined: the line's own code is the lock or atomic operation.
	switch {
	case strings.Contains(source, ".RLock()") || strings.Contains(source, ".RUnlock()"):
		return "reader-count"
	case strings.Contains(source, ".Lock()") || strings.Contains(source, ".Unlock()"):
		return "mutex-spin"
	case strings.Contains(source, "atomic.") || strings.Contains(source, ".Add(") || strings.Contains(source, ".CompareAndSwap("):
		return "atomic"
	}
	return ""
}

// lockSites reads the block and mutex profiles of the lock run and the
// critical sections of the source: the lock and channel sites of the
// module, with the CPU inside each critical section from the profile at N
// cores, and the harness's share of the block profile.
func lockSites(blockPath, mutexPath string, iters int64, opts profiles.Options, aN *profiles.CPU, secs *sectionIndex, src *sources) ([]document.LockSite, *float64) {
	var out []document.LockSite
	var harness *float64
	have := map[string]int{}
	add := func(ls document.LockSite) {
		k := ls.File + ":" + strconv.FormatInt(ls.Line, 10)
		if i, ok := have[k]; ok {
			if out[i].DelayPerOp == 0 && ls.DelayPerOp > 0 {
				out[i].DelayPerOp, out[i].ContentionsPerOp, out[i].DelayShare, out[i].Profile = ls.DelayPerOp, ls.ContentionsPerOp, ls.DelayShare, ls.Profile
			}
			return
		}
		have[k] = len(out)
		out = append(out, ls)
	}
	it := float64(max(iters, 1))
	for _, kind := range []string{"block", "mutex"} {
		path := blockPath
		if kind == "mutex" {
			path = mutexPath
		}
		p, err := profiles.ReadFile(path)
		if err != nil {
			continue
		}
		l, err := profiles.AnalyzeLocks(p, kind, opts)
		if err != nil {
			continue
		}
		if kind == "block" && l.Delay > 0 {
			h := round3(float64(l.Harness) / float64(l.Delay))
			harness = &h
		}
		own := l.Delay - l.Harness - l.Other
		for _, s := range l.Sites {
			ls := document.LockSite{File: s.File, Line: s.Line, Function: s.Function, Op: s.Op, Profile: kind,
				DelayPerOp: round3(float64(s.Delay) / it), ContentionsPerOp: round3(float64(s.Count) / it), InTest: s.InTest}
			if s.Via != "" {
				ls.Op = s.Via
			}
			if own > 0 {
				ls.DelayShare = round3(float64(s.Delay) / float64(own))
			}
			if sec, ok := secs.at(s.File, s.Line); ok && kind == "mutex" {
				// The holder's Unlock: the lock is where it was taken.
				ls.Line = sec.Lock
			}
			add(ls)
		}
	}
	// Critical sections with CPU inside, contended or not, and those
	// whose lock operations themselves cost CPU: an RWMutex around a
	// cheap read is mostly its reader count, and a read lock waits in no
	// profile unless a writer holds it.
	files := map[string]bool{}
	for _, l := range aN.Lines {
		files[l.File] = true
	}
	for _, f := range slices.Sorted(maps.Keys(files)) {
		for _, sec := range secs.of(f) {
			if cpuInside(aN, f, sec) >= insideMin || lockCPU(aN, f, sec) >= insideMin {
				add(document.LockSite{File: f, Line: sec.Lock, Op: sec.Recv + "." + sec.Op, Profile: "cpu", InTest: strings.HasSuffix(f, "_test.go")})
			}
		}
	}
	for i := range out {
		ls := &out[i]
		ls.Source = src.line(ls.File, ls.Line)
		sec, ok := secs.at(ls.File, ls.Line)
		if !ok || sec.Lock != ls.Line {
			continue
		}
		ls.HeldTo = sec.End
		ls.CPUInside = round3(cpuInside(aN, ls.File, sec))
		ls.LockCPU = round3(lockCPU(aN, ls.File, sec))
		ls.Inside = insideLines(aN, ls.File, sec, src)
		if ls.Function == "" {
			for _, l := range aN.Lines {
				if l.File == ls.File && sec.held(l.Line) {
					ls.Function = l.Function
					break
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b document.LockSite) int {
		return cmp.Or(cmp.Compare(b.DelayPerOp, a.DelayPerOp), cmp.Compare(b.CPUInside, a.CPUInside), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	if len(out) > maxLocks {
		out = out[:maxLocks]
	}
	return out, harness
}

// cpuInside is the share of the CPU profile at the module lines a
// critical section holds.
func cpuInside(a *profiles.CPU, file string, sec section) float64 {
	sum := 0.0
	for _, l := range a.Lines {
		if l.File == file && sec.held(l.Line) {
			sum += l.Cum
		}
	}
	return min(sum, 1)
}

// lockCPU is the share of the CPU profile at a section's Lock and Unlock
// lines (the closing brace, for a deferred Unlock): the lock operations,
// which the compiler inlines into the line (an RWMutex's reader count is
// an atomic add there). The Lock and Unlock lines are lock calls by
// construction; at a closing brace only the Unlock's own samples count,
// not the function's return.
func lockCPU(a *profiles.CPU, file string, sec section) float64 {
	sum := 0.0
	for _, l := range a.Lines {
		if l.File != file {
			continue
		}
		switch {
		case l.Line == sec.Lock, sec.Unlock != 0 && l.Line == sec.Unlock:
			sum += l.Self
		case sec.Unlock == 0 && l.Line == sec.End && strings.Contains(l.Callee, "Unlock"):
			sum += l.Self
		}
	}
	return min(sum, 1)
}

// insideLines are a critical section's costliest lines.
func insideLines(a *profiles.CPU, file string, sec section, src *sources) []document.LineInside {
	// One row per line: its calls' shares summed, named by the
	// costliest call.
	var out []document.LineInside
	best := map[int64]float64{}
	at := map[int64]int{}
	for _, l := range a.Lines {
		if l.File != file || !sec.held(l.Line) {
			continue
		}
		i, ok := at[l.Line]
		if !ok {
			i = len(out)
			at[l.Line] = i
			out = append(out, document.LineInside{Line: l.Line, Source: src.line(file, l.Line)})
		}
		out[i].Share += l.Cum
		if l.Cum > best[l.Line] {
			best[l.Line] = l.Cum
			out[i].Callee, out[i].Category = l.Callee, document.Category(l.Category)
		}
	}
	kept := out[:0]
	for _, li := range out {
		if li.Share >= 0.01 {
			li.Share = round3(li.Share)
			kept = append(kept, li)
		}
	}
	out = kept
	slices.SortFunc(out, func(a, b document.LineInside) int {
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Line, b.Line))
	})
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

func round3(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	mag := math.Pow(10, 3-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*mag) / mag
}
