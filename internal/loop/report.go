package loop

import (
	"context"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/escape"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/site"
	"github.com/perfloop/perfloop/internal/stats"
)

// ReportOptions says how the report pipeline profiles and where it keeps
// the profiles.
type ReportOptions struct {
	// ProfileTime is the most extra CPU profile one benchmark gets
	// beyond its rounds' (see planExtra): extra time goes only where the
	// rounds' samples leave a finding undecided.
	ProfileTime time.Duration
	// Profiles is the directory the merged CPU profile and the heap
	// profile of each benchmark are kept in, as NAME.cpu.pprof and
	// NAME.mem.pprof ("" keeps none).
	Profiles string
	// Each is called after every benchmark run (see BenchOptions.Each).
	Each func(*results.Benchmark, *gotest.Outcome) error
	// Stage, if set, is told when a stage starts: "benchmarking",
	// "profiling", "explaining".
	Stage func(string)
	// Production and MinShare rank the findings by a production
	// profile's cost (see findings.Options).
	Production map[string]float64
	MinShare   float64
}

// ReportRun is what the report pipeline measured and found.
type ReportRun struct {
	Doc   *document.Report
	Bench *BenchRun
	// Flames are the CPU profiles' flame graphs by benchmark name.
	Flames map[string]*profiles.FlameNode
	// Failures are profiling failures of benchmarks whose benchmark runs
	// succeeded, one line each.
	Failures []string
	// EscapeErr is why the compiler's escape analysis is missing, if it
	// is.
	EscapeErr error
	// Measuring is the wall time of the benchmark and profile runs;
	// Analysis the time spent after them (analysis, findings).
	Measuring, Analysis time.Duration
	// Cost says where the time went.
	Cost Cost
}

// Heap-profile iteration counts: the larger run is about heapTime of
// benchmark work and records at most heapAllocs allocations; the smaller
// is a quarter of it. Recording every allocation costs microseconds each
// (a stack walk), so the allocation count, not the benchmark's time, sets
// the runs' cost; the shares are exact counts at any size, and 50,000
// allocations leave the difference of the two runs well above the
// one-time allocations it removes.
const (
	heapTime   = 20 * time.Millisecond
	heapAllocs = 50_000
	// heapSlow is how long a heap run at the smaller count may take
	// with every allocation recorded before it is stopped and both runs
	// sample instead.
	heapSlow = time.Second
	// defaultMemProfileRate is the runtime's runtime.MemProfileRate.
	defaultMemProfileRate = 512 * 1024
)

// Report runs the whole pipeline on the benchmarks cfg selects: bench (with
// CPU profiles taken in the rounds), heap profiles at two iteration counts,
// the compiler's escape analysis (started while the binaries build), the
// findings, the decision gate and scaling. On cancellation it returns what
// finished with ctx's error; the run is nil only when nothing could start.
func Report(ctx context.Context, cfg Config, opts ReportOptions, bar *progress.Bar) (*ReportRun, error) {
	stage := opts.Stage
	if stage == nil {
		stage = func(string) {}
	}
	type escapes struct {
		ix  *escape.Index
		err error
	}
	escCh := make(chan escapes, 1)
	var mains map[string][]string
	var measured *document.PGOSummary
	var linted []document.LintFinding
	var source *site.Program
	var analyses time.Duration
	go func() {
		t0 := time.Now()
		ix, err := Escapes(ctx, cfg)
		source = loadSource(ctx, cfg)
		linted = lintFindings(ctx, source)
		if root, rerr := moduleRoot(ctx, cfg.Dir); rerr == nil {
			mains = mainPackages(ctx, root, cfg.Tags)
			measured = readPGO(root)
		}
		analyses = time.Since(t0)
		escCh <- escapes{ix, err}
	}()
	waitEscapes := func() escapes { return <-escCh }

	prepared := time.Now()
	suite, err := Prepare(ctx, cfg, bar)
	if err != nil {
		waitEscapes()
		return nil, err
	}
	prepare := time.Since(prepared)
	defer suite.Close()
	scratch := filepath.Join(suite.Dir(), "profiles")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		waitEscapes()
		return nil, fmt.Errorf("create profile directory: %w", err)
	}
	if opts.Profiles != "" {
		if err := os.MkdirAll(opts.Profiles, 0o755); err != nil {
			waitEscapes()
			return nil, fmt.Errorf("create profile directory %s: %w", opts.Profiles, err)
		}
	}
	// The escape analysis competes for the CPU: let it finish before
	// anything is timed.
	esc := waitEscapes()

	start := time.Now()
	idle := gotest.StartIdle()
	stage("benchmarking")
	bench, err := suite.Bench(ctx, BenchOptions{CPUProfileDir: scratch, Each: opts.Each, Calibrate: true}, bar)
	run := &ReportRun{Bench: bench, Flames: map[string]*profiles.FlameNode{}, EscapeErr: esc.err}
	run.Cost.Prepare, run.Cost.Analyses, run.Cost.Rounds = prepare, analyses, time.Since(start)
	if bench == nil {
		return nil, err
	}
	run.Doc = bench.Document()
	run.Doc.MainPackages = importing(mains, suite.Packages)
	run.Doc.PGO = measured
	run.Doc.Lint = linted
	if err != nil {
		return run, err
	}

	stage("profiling")
	done, failures, analysing, err := suite.evidence(ctx, bench, scratch, opts, &run.Cost, bar)
	for _, f := range failures {
		run.Failures = append(run.Failures, fmt.Sprintf("%s %s: %s", f.b.Package, f.b.Name, f.msg))
		for j := range run.Doc.Benchmarks {
			if e := &run.Doc.Benchmarks[j]; e.Package == f.b.Package && (e.Name == f.b.Name || strings.HasPrefix(e.Name, f.b.Name+"/")) {
				e.ProfileError = f.msg
			}
		}
	}
	if err != nil {
		run.Measuring = time.Since(start) - analysing
		return run, err
	}
	if spare, ok := idle.Spare(); ok {
		spare = math.Round(spare*100) / 100
		run.Doc.SpareCores = &spare
	}

	// The concurrent benchmarks, at several core counts.
	var src *sources
	root, rootErr := moduleRoot(ctx, cfg.Dir)
	if rootErr == nil {
		src = newSources(root)
	}
	parallel := map[string]map[string]bool{}
	var concurrent []int
	for _, d := range done {
		pkg := suite.Targets[d.i].Binary.Package
		if parallel[pkg.ImportPath] == nil {
			parallel[pkg.ImportPath] = parallelBenchmarks(pkg)
		}
		if parallel[pkg.ImportPath][suite.Targets[d.i].Name] {
			concurrent = append(concurrent, d.i)
		}
	}
	var cores []document.Scaling
	if len(concurrent) > 0 {
		stage("scaling")
		t0 := time.Now()
		// One budget for all the extra profiles: what the CPU evidence
		// left of a tenth of the rounds' time.
		budget := max(0, time.Duration(evidenceShare*float64(run.Cost.Rounds))-run.Cost.CPU)
		cores, err = suite.scaling(ctx, concurrent, bench, scratch, root, src, budget, opts.ProfileTime, bar)
		run.Cost.Scaling = time.Since(t0)
		if err != nil {
			run.Measuring = time.Since(start) - analysing
			return run, err
		}
	}
	run.Measuring = time.Since(start) - analysing

	analysis := time.Now()
	stage("explaining")
	for _, d := range done {
		t := suite.Targets[d.i]
		pkg := t.Binary.Package
		bj := document.Benchmark{Package: pkg.ImportPath, Name: t.Name, Status: string(results.StatusOK),
			Metrics: map[string]*document.Metric{}, CPUProfile: d.p.keptCPU, HeapProfile: d.p.keptHeap,
			SetupAllocShare: d.p.setup, Parallel: parallel[pkg.ImportPath][t.Name], LoopBytesPerOp: d.p.loopBytes,
			HeapBytesByIters: d.p.heapByIters, HeapTimedBytes: d.p.heapTimed}
		addEvidence(run.Doc, &bj, d.a, evidence{hotspots: 10, sites: 8, lines: 40, src: src, perOp: d.p.perOp})
		attach(run.Doc, bj)
		noteDrift(run.Doc, bench.Benchmarks[d.i])
		if d.a.CPU != nil && d.p.cpu != nil {
			run.Flames[t.Name] = profiles.Flame(d.p.cpu)
		}
	}
	if esc.ix != nil {
		if err := Explain(ctx, cfg.Dir, run.Doc, esc.ix); err != nil && run.EscapeErr == nil {
			run.EscapeErr = err
		}
		run.Doc.NotInlined = NotInlined(run.Doc, esc.ix)
	}
	if deps, err := DepNotInlined(ctx, cfg.Dir, cfg.Tags, run.Doc); err != nil {
		if ctx.Err() != nil {
			return run, ctx.Err()
		}
		if run.EscapeErr == nil {
			run.EscapeErr = err
		}
	} else {
		run.Doc.NotInlined = append(run.Doc.NotInlined, deps...)
	}
	doc := run.Doc
	doc.Count, doc.Benchtime = cfg.Count, cfg.Benchtime
	doc.Scaling = cores
	doc.Shapes = shapesOf(ctx, cfg, source, doc)
	AdviseSites(doc)
	doc.Findings, doc.Gate = findings.Derive(doc, findings.Options{Production: opts.Production, MinShare: opts.MinShare})
	doc.Scaling = append(doc.Scaling, findings.Scaling(doc)...)
	doc.Commands = reproduceCommands(doc, cfg)
	run.Analysis = time.Since(analysis) + analysing
	doc.MeasureSeconds = math.Round(run.Measuring.Seconds()*1000) / 1000
	doc.AnalysisSeconds = math.Round(run.Analysis.Seconds()*1000) / 1000
	doc.Timing = run.Cost.timing()
	return run, nil
}

// attach puts a top-level benchmark's profile fields on its entry, or adds
// the entry when the benchmark's results are its sub-benchmarks', so its
// profile sections stay under the name they were measured as.
func attach(doc *document.Report, pb document.Benchmark) {
	for i := range doc.Benchmarks {
		b := &doc.Benchmarks[i]
		if b.Package == pb.Package && b.Name == pb.Name {
			b.TestAllocShare, b.CallPath = pb.TestAllocShare, pb.CallPath
			b.CPUProfile, b.HeapProfile = pb.CPUProfile, pb.HeapProfile
			b.ModuleCPUShare, b.CalleeCPUShare = pb.ModuleCPUShare, pb.CalleeCPUShare
			b.CPUSamples = pb.CPUSamples
			b.CPUBusy = pb.CPUBusy
			b.SetupAllocShare, b.Parallel = pb.SetupAllocShare, pb.Parallel
			b.LoopBytesPerOp, b.HeapBytesByIters, b.HeapTimedBytes = pb.LoopBytesPerOp, pb.HeapBytesByIters, pb.HeapTimedBytes
			return
		}
	}
	doc.Benchmarks = append(doc.Benchmarks, pb)
}

// profileFiles are a benchmark's profiles: parsed, and where they were
// kept.
type profileFiles struct {
	cpu               *profile.Profile
	keptCPU, keptHeap string
	// perOp is the iteration count the per-op heap profile's values are
	// for (0 when it is a whole run's); setup the share of the larger
	// run's bytes that did not scale with the iteration count.
	perOp float64
	setup *float64
	// loopBytes is what the timed loop allocates per op.
	loopBytes *float64
	// heapByIters are the heap runs' iteration counts and bytes per
	// iteration (document.Benchmark.HeapBytesByIters).
	heapByIters []document.IterSample
	// heapTimed are the heap runs' iteration counts and the B/op the
	// testing package reported (document.Benchmark.HeapTimedBytes).
	heapTimed []document.IterSample
	// analysis is the time spent reading, merging and analysing the
	// profiles, as opposed to running the benchmark.
	analysis time.Duration
}

// heapPerOp runs a benchmark twice under the heap profiler, every
// allocation recorded, at two fixed iteration counts n1 > n2 chosen from
// its results b (see heapCounts), with cfg and run. It returns both runs'
// profiles and their difference, perOp: what n1−n2 iterations of the timed
// loop allocate, without the setup and the testing package's own
// allocations, which are the same in both runs. msg is a failure of the
// benchmark or its profiles; err is cancellation or a binary that cannot
// start.
func heapPerOp(cfg gotest.RunConfig, b *results.Benchmark, name, scratch string, run func(gotest.RunConfig) (*gotest.Outcome, error)) (heap [2]*profile.Profile, perOp *profile.Profile, n1, n2 int, msg string, err error) {
	n1, n2 = heapCounts(b)
	rate := heapRate(b, n1)
	// profileAt runs the benchmark at n iterations into heap[i]; slow
	// says the run was stopped at timeout (a run the caller bounds).
	profileAt := func(i, n int, timeout time.Duration) (slow bool, msg string, err error) {
		path := filepath.Join(scratch, fmt.Sprintf("%s.n%d.mem.pprof", name, n))
		rc := cfg
		rc.Benchtime = fmt.Sprintf("%dx", n)
		rc.Args = []string{"-test.memprofile=" + path, fmt.Sprintf("-test.memprofilerate=%d", rate)}
		if timeout > 0 {
			rc.Timeout = timeout
		}
		o, err := run(rc)
		if err != nil {
			return false, "", err
		}
		if timeout > 0 && o.Status == results.StatusTimeout {
			return true, "", nil
		}
		if o.Status != results.StatusOK {
			return false, "heap profile run: " + o.Error, nil
		}
		if heap[i], err = profiles.ReadFile(path); err != nil {
			return false, "heap profile: " + err.Error(), nil
		}
		return false, "", nil
	}
	// The smaller count first: a setup that allocates millions of times
	// (a fixture of 100,000 items built for every sub-benchmark) makes
	// every run slow when every allocation is recorded, whatever the
	// loop's count, so that run is stopped at heapSlow (fastjson's
	// BenchmarkObjectGet ran 4–6 s to the end). Then one run at the
	// runtime's default rate says how much the benchmark allocates, and
	// both runs sample, at the rate that records about heapAllocs of it.
	var bound time.Duration
	if rate == 1 && (cfg.Timeout == 0 || cfg.Timeout > heapSlow) {
		bound = heapSlow
	}
	slow, msg, err := profileAt(1, n2, bound)
	if err != nil || msg != "" {
		return heap, nil, n1, n2, msg, err
	}
	if slow {
		rate = defaultMemProfileRate
		if _, msg, err := profileAt(1, n2, 0); err != nil || msg != "" {
			return heap, nil, n1, n2, msg, err
		}
		if total := profiles.SampleTotal(heap[1], "alloc_space"); total > 0 {
			rate = max(1, int(math.Ceil(float64(total)/heapAllocs)))
			if _, msg, err := profileAt(1, n2, 0); err != nil || msg != "" {
				return heap, nil, n1, n2, msg, err
			}
		}
	}
	if _, msg, err := profileAt(0, n1, 0); err != nil || msg != "" {
		return heap, nil, n1, n2, msg, err
	}
	perOp, err = profiles.Subtract(heap[0], heap[1])
	if err != nil {
		return heap, nil, n1, n2, "heap profile: " + err.Error(), nil
	}
	return heap, perOp, n1, n2, "", nil
}

// heapCounts chooses the two iteration counts of a benchmark's heap
// profile runs from its measured sec/op and allocs/op, summed over its
// sub-benchmarks (each runs the count): the larger takes about heapTime
// and records at most heapAllocs allocations.
func heapCounts(b *results.Benchmark) (n1, n2 int) {
	secSum, allocSum, _ := perOpMetrics(b)
	n := 1e9
	if secSum > 0 {
		n = math.Min(n, heapTime.Seconds()/secSum)
	}
	if allocSum > 0 {
		n = math.Min(n, heapAllocs/allocSum)
	}
	n1 = max(int(n), 4)
	return n1, max(n1/4, 1)
}

// heapRate is the memory profile rate of the heap runs at n1 iterations:
// 1 (every allocation recorded) unless the iteration floor of heapCounts
// makes the runs record more than heapRecordMax allocations (a benchmark
// that allocates millions of times per op); then one sample per so many
// bytes that about heapAllocs are recorded. The runtime scales a sampled
// profile's values to estimates of the whole, so per-op figures stay
// unbiased; recording every one of a hundred million allocations took
// longer than the run's timeout.
func heapRate(b *results.Benchmark, n1 int) int {
	_, allocSum, bytesSum := perOpMetrics(b)
	if allocSum*float64(n1) <= heapRecordMax || bytesSum <= 0 {
		return 1
	}
	return max(1, int(math.Ceil(bytesSum*float64(n1)/heapAllocs)))
}

// heapRecordMax is the most allocations the heap runs record one by one.
const heapRecordMax = 4 * heapAllocs

// perOpMetrics returns a benchmark's median sec/op, allocs/op and B/op,
// summed over its sub-benchmarks: per iteration of every sub-benchmark,
// as a run at a fixed iteration count does them.
func perOpMetrics(b *results.Benchmark) (sec, allocs, bytes float64) {
	values := map[string]map[string][]float64{}
	for _, r := range b.Results {
		name := r.Name.String()
		if values[name] == nil {
			values[name] = map[string][]float64{}
		}
		for _, unit := range []string{"sec/op", "allocs/op", "B/op"} {
			if v, ok := r.Value(unit); ok {
				values[name][unit] = append(values[name][unit], v)
			}
		}
	}
	med := func(vs []float64, unit string) float64 {
		if len(vs) == 0 {
			return 0
		}
		return stats.Summarize(vs, unit, nil).Median
	}
	for _, u := range values {
		sec += med(u["sec/op"], "sec/op")
		allocs += med(u["allocs/op"], "allocs/op")
		bytes += med(u["B/op"], "B/op")
	}
	return sec, allocs, bytes
}

// untimed returns the untimed lines of t's package, each package's
// computed once.
func (s *Suite) untimed(t gotest.Target) map[string]bool {
	pkg := t.Binary.Package
	if s.untimedByPkg == nil {
		s.untimedByPkg = map[string]map[string]bool{}
	}
	u, ok := s.untimedByPkg[pkg.ImportPath]
	if !ok {
		root := pkg.ModuleDir
		if root == "" {
			root = pkg.Dir
		}
		u = untimedLines(pkg, root)
		s.untimedByPkg[pkg.ImportPath] = u
	}
	return u
}

// perOpLines returns the lines whose allocations are no part of t's
// per-op heap profile: its package's untimed lines and the setup before
// each benchmark's loop (see setupLines), each package's computed once.
func (s *Suite) perOpLines(t gotest.Target) map[string]bool {
	pkg := t.Binary.Package
	if s.setupByPkg == nil {
		s.setupByPkg = map[string]map[string]bool{}
	}
	u, ok := s.setupByPkg[pkg.ImportPath]
	if !ok {
		root := pkg.ModuleDir
		if root == "" {
			root = pkg.Dir
		}
		u = setupLines(pkg, root)
		maps.Copy(u, s.untimed(t))
		s.setupByPkg[pkg.ImportPath] = u
	}
	return u
}

// reproduceCommands lists the hand-run commands behind each figure.
func reproduceCommands(doc *document.Report, cfg Config) []document.Command {
	bt := ""
	if cfg.Benchtime != "" {
		bt = " -benchtime " + cfg.Benchtime
	}
	var cmds []document.Command
	seen := map[document.BenchKey]bool{}
	for _, b := range doc.Benchmarks {
		top := b.Name
		if i := strings.IndexByte(top, '/'); i >= 0 {
			top = top[:i]
		}
		key := document.BenchKey{Package: b.Package, Name: top}
		if seen[key] || top == "" {
			continue
		}
		seen[key] = true
		pat := "'^" + regexp.QuoteMeta(top) + "$'"
		cmds = append(cmds,
			document.Command{What: "results of " + top, Command: fmt.Sprintf("go test -run '^$' -bench %s -benchmem -count %d%s %s", pat, cfg.Count, bt, b.Package)},
			document.Command{What: "CPU hotspots of " + top, Command: fmt.Sprintf("go test -run '^$' -bench %s%s -cpuprofile cpu.pprof %s && go tool pprof -top cpu.pprof", pat, bt, b.Package)},
			document.Command{What: "allocation sites of " + top, Command: fmt.Sprintf("go test -run '^$' -bench %s%s -memprofile mem.pprof -memprofilerate 1 %s && go tool pprof -sample_index=alloc_space -top mem.pprof", pat, bt, b.Package)},
		)
	}
	for _, s := range doc.Scaling {
		if s.Parameter != "cpu" || len(s.CPU) == 0 {
			continue
		}
		top, _, _ := strings.Cut(s.Benchmark, "/")
		pat := "'^" + regexp.QuoteMeta(top) + "$'"
		var cpus []string
		for _, c := range s.CPU {
			cpus = append(cpus, strconv.Itoa(c))
		}
		cmds = append(cmds,
			document.Command{What: "scaling of " + s.Benchmark, Command: fmt.Sprintf("go test -run '^$' -bench %s -cpu %s -count 6 %s", pat, strings.Join(cpus, ","), s.Package)},
			document.Command{What: "lock waits of " + s.Benchmark, Command: fmt.Sprintf("go test -run '^$' -bench %s -cpu %s -mutexprofile mutex.pprof -blockprofile block.pprof -blockprofilerate %d %s && go tool pprof -top -lines block.pprof", pat, cpus[len(cpus)-1], blockRate, s.Package)},
			document.Command{What: "where the goroutines of " + s.Benchmark + " wait, in wall time", Command: fmt.Sprintf("perfloop trace -bench %s %s", pat, s.Package)},
		)
	}
	pkgs := map[string]bool{}
	for _, b := range doc.Benchmarks {
		if !pkgs[b.Package] {
			pkgs[b.Package] = true
			cmds = append(cmds, document.Command{What: "escape analysis of " + b.Package, Command: "go build -gcflags=-m=2 " + b.Package})
		}
	}
	return cmds
}

// noteDrift records, for each of the document's entries of b, its runs'
// iteration counts and B/op: the evidence findings judges drift from (a
// benchmark that keeps what it allocates reports a B/op that grows with
// b.N; one that times a one-time cost, one that falls).
func noteDrift(doc *document.Report, b *results.Benchmark) {
	byName := map[string][]document.IterSample{}
	for _, r := range b.Results {
		if v, ok := r.Value("B/op"); ok && r.Iters > 0 {
			name, _ := stats.SplitProcs(r.Name)
			byName[name] = append(byName[name], document.IterSample{Iters: float64(r.Iters), Value: v})
		}
	}
	for i := range doc.Benchmarks {
		e := &doc.Benchmarks[i]
		if e.Package != b.Package {
			continue
		}
		if runs := byName[strings.TrimPrefix(e.Name, "Benchmark")]; len(runs) >= 2 {
			e.BytesByIters = runs
		}
	}
}
