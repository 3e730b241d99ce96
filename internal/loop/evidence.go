package loop

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/google/pprof/profile"
	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
)

// Cost is where a report's wall time went, and how much evidence it
// bought beyond the rounds.
type Cost struct {
	// Prepare is listing the packages and building the test binaries;
	// Analyses the compiler's escape analysis, the source load and lint
	// that ran beside the build, waited for before the rounds.
	Prepare, Analyses time.Duration
	// Rounds is the benchmark rounds' processes; CPU the extra
	// CPU-profile runs; Heap the heap-profile runs; Scaling the
	// concurrent benchmarks' runs at other core counts.
	Rounds, CPU, Heap, Scaling time.Duration
	// CPURuns and HeapRuns count the benchmarks that got an extra
	// CPU-profile run and those profiled for allocations.
	CPURuns, HeapRuns int
	// Calibrated counts the benchmarks whose rounds after the first ran
	// at a fixed iteration count.
	Calibrated int
}

// timing is c as the document records it.
func (c Cost) timing() *document.Timing {
	sec := func(d time.Duration) float64 { return math.Round(d.Seconds()*1000) / 1000 }
	return &document.Timing{
		PrepareSeconds: sec(c.Prepare), AnalysesSeconds: sec(c.Analyses), Analyses: document.AnalysesBefore,
		RoundsSeconds: sec(c.Rounds), CPUProfileSeconds: sec(c.CPU), HeapProfileSeconds: sec(c.Heap), ScalingSeconds: sec(c.Scaling),
		CPUProfileRuns: c.CPURuns, HeapProfiled: c.HeapRuns, Calibrated: c.Calibrated,
	}
}

// analysed is a benchmark whose profiles were analysed: its target index,
// the analysis and its profiles.
type analysed struct {
	i int
	a *profiles.Analysis
	p profileFiles
}

// profileFailure is a benchmark whose benchmark runs passed and whose
// profile runs or profiles failed.
type profileFailure struct {
	b   *results.Benchmark
	msg string
}

// roundsCPU is one benchmark's CPU evidence from its rounds.
type roundsCPU struct {
	prof *profile.Profile
	cpu  *profiles.CPU
	msg  string // why there is none
}

// evidence gathers every benchmark's evidence after the rounds: the
// rounds' CPU profiles merged and analysed, an extra CPU-profile run where
// the evidence budget grants one (see planExtra), and the per-op heap
// profile of the benchmarks that allocate in their loop. It returns the
// analysed benchmarks, those whose profiles failed and the time spent
// analysing rather than running; its error is cancellation or a binary
// that cannot start.
func (s *Suite) evidence(ctx context.Context, bench *BenchRun, scratch string, opts ReportOptions, cost *Cost, bar *progress.Bar) (done []analysed, failed []profileFailure, analysing time.Duration, err error) {
	names := ProfileNames(s.Targets)

	// The rounds' profiles, and what they leave undecided.
	t0 := time.Now()
	rounds := make([]roundsCPU, len(s.Targets))
	needs := make([]cpuNeed, len(s.Targets))
	var roundTime time.Duration
	for i, t := range s.Targets {
		b := bench.Benchmarks[i]
		var paths []string
		var elapsed time.Duration
		calibrated := false
		for _, r := range bench.Runs[i] {
			elapsed += r.Elapsed
			if r.CPUProfile != "" {
				paths = append(paths, r.CPUProfile)
			}
			calibrated = calibrated || r.Iters > 0
		}
		if calibrated {
			cost.Calibrated++
		}
		roundTime += elapsed
		if b.Status != results.StatusOK || len(b.Results) == 0 {
			continue
		}
		p, err := profiles.Merge(paths)
		if err != nil {
			rounds[i].msg = "cpu profile: " + err.Error()
			continue
		}
		c, err := profiles.AnalyzeCPU(p, reportOptions(t, s.untimed(t)))
		if errors.Is(err, profiles.ErrNoSamples) {
			// Rounds too short to be sampled: the extra run gives
			// the samples (the floor of minSamples), at the
			// profiler's rate.
			rounds[i] = roundsCPU{prof: p}
			needs[i] = cpuNeed{rate: profilerHz}
			continue
		}
		if err != nil {
			rounds[i].msg = "cpu profile: " + err.Error()
			continue
		}
		rounds[i] = roundsCPU{prof: p, cpu: c}
		n := float64(c.Samples)
		needs[i] = cpuNeed{family: family(t.Binary.Package.ImportPath, c), samples: n, rate: profilerHz}
		// The rate is per second of timed work, which is what an extra
		// run at a fixed count (extraBenchtime) buys: the processes'
		// wall time also holds their start and the b.N ramp.
		if timed := timedSeconds(b); timed > 0 && n > 0 {
			needs[i].rate = n / timed
			needs[i].cost = min(elapsed.Seconds()/timed, maxRunCost)
		} else if elapsed > 0 && n > 0 {
			needs[i].rate = n / elapsed.Seconds()
		}
		needs[i].need, needs[i].value = undecided(comparisons(c, findings.DefaultThresholds), n, findings.DefaultThresholds)
	}
	analysing += time.Since(t0)
	extra := planExtra(needs, time.Duration(evidenceShare*float64(roundTime)), opts.ProfileTime)

	bar.Start(len(s.Targets), "")
	defer bar.Done()
	for i, t := range s.Targets {
		bar.Describe(t.Name)
		b := bench.Benchmarks[i]
		if b.Status != results.StatusOK || len(b.Results) == 0 {
			bar.Step("")
			continue
		}
		if rounds[i].msg != "" {
			failed = append(failed, profileFailure{b, rounds[i].msg})
			bar.Printf("%s %s: %s", b.Package, b.Name, rounds[i].msg)
			bar.Step("")
			continue
		}
		pf, a, msg, err := s.profileForReport(ctx, t, b, rounds[i], extra[i], names[i], scratch, opts, cost)
		analysing += pf.analysis
		if err != nil {
			return done, failed, analysing, err
		}
		if msg != "" {
			failed = append(failed, profileFailure{b, msg})
			bar.Printf("%s %s: %s", b.Package, b.Name, msg)
		}
		if a != nil {
			done = append(done, analysed{i, a, pf})
		}
		bar.Step("")
	}
	return done, failed, analysing, nil
}

// profileForReport completes one benchmark's evidence: its rounds' CPU
// profile, with an extra run of about extra merged in when the budget
// granted one, and, when its loop allocates (B/op above 0 in the
// rounds), its per-op heap profile from two runs at fixed iteration
// counts (heapPerOp). A benchmark at 0 B/op has no allocation to
// attribute and runs no heap profile. A failure of the benchmark or its
// profiles is returned as msg.
// loopBytesMin is the fewest bytes per op, with no whole allocation per
// op, for which a benchmark's loop gets a heap profile: less than a word
// is what a round at a small b.N catches of the runtime's own.
const loopBytesMin = 8

func (s *Suite) profileForReport(ctx context.Context, t gotest.Target, b *results.Benchmark, r roundsCPU, extra time.Duration, name, scratch string, opts ReportOptions, cost *Cost) (pf profileFiles, a *profiles.Analysis, msg string, err error) {
	start := time.Now()
	var running time.Duration
	defer func() { pf.analysis = time.Since(start) - running }()
	runOnce := func(rc gotest.RunConfig, spent *time.Duration) (*gotest.Outcome, error) {
		t0 := time.Now()
		defer func() {
			d := time.Since(t0)
			running += d
			*spent += d
		}()
		return t.Binary.Run(ctx, rc)
	}
	cfg := gotest.RunConfig{Name: t.Name, Sub: s.Sub, CPU: s.Config.CPU, Timeout: s.Config.Timeout}
	sec, allocs, bytes := perOpMetrics(b)
	cpu, c := r.prof, r.cpu
	// An extra run that still leaves the profile without a sample (a
	// busy machine, a time per op the rounds overestimated) is run once
	// more at four times the time.
	for try := 0; extra > 0 && try < 2 && (try == 0 || c == nil); try++ {
		if try == 1 {
			extra *= 4
		}
		path := filepath.Join(scratch, fmt.Sprintf("%s.extra%d.cpu.pprof", name, try))
		rc := cfg
		rc.Benchtime = extraBenchtime(extra, sec)
		rc.Args = []string{"-test.cpuprofile=" + path}
		o, err := runOnce(rc, &cost.CPU)
		if err != nil {
			return pf, nil, "", err
		}
		if o.Status != results.StatusOK {
			return pf, nil, "CPU profile run: " + o.Error, nil
		}
		cost.CPURuns++
		p, err := profiles.ReadFile(path)
		if err == nil {
			p, err = profile.Merge([]*profile.Profile{cpu, p})
		}
		if err == nil {
			cpu = p
			c, err = profiles.AnalyzeCPU(cpu, reportOptions(t, s.untimed(t)))
		}
		if errors.Is(err, profiles.ErrNoSamples) {
			c = nil
			continue
		}
		if err != nil {
			return pf, nil, "cpu profile: " + err.Error(), nil
		}
	}
	if c == nil {
		// No sample in all the runs: a benchmark that waits, when they
		// ran long enough for a computing one to have been sampled.
		w, err := profiles.Unsampled(cpu)
		if err != nil || !waited(w.Duration, findings.DefaultThresholds.OffCPU) {
			return pf, nil, "cpu profile: " + profiles.ErrNoSamples.Error(), nil
		}
		c = w
	}
	pf.cpu = cpu
	a = &profiles.Analysis{CPU: c}
	zero := 0.0
	pf.loopBytes = &zero
	if opts.Profiles != "" {
		pf.keptCPU = filepath.Join(opts.Profiles, name+".cpu.pprof")
		if err := profiles.WriteFile(pf.keptCPU, cpu); err != nil {
			return pf, nil, "", fmt.Errorf("keep profile: %w", err)
		}
	}
	if bytes <= 0 || allocs == 0 && bytes < loopBytesMin {
		// The timed loop allocates nothing (0 B/op), or less than a
		// word per op and no whole allocation (a round at a small b.N
		// catching the runtime's or the testing package's own
		// allocation): there is no allocation per op to attribute.
		return pf, a, "", nil
	}
	cost.HeapRuns++
	timed := map[string]float64{} // the runs' B/op by -benchtime
	heap, perOp, n1, n2, msg, err := heapPerOp(cfg, b, name, scratch, func(rc gotest.RunConfig) (*gotest.Outcome, error) {
		o, err := runOnce(rc, &cost.Heap)
		if err == nil && o != nil && o.Status == results.StatusOK {
			if v, ok := timedBytes(o.Results); ok {
				timed[rc.Benchtime] = v
			}
		}
		return o, err
	})
	if err != nil || msg != "" {
		return pf, nil, msg, err
	}
	if opts.Profiles != "" {
		pf.keptHeap = filepath.Join(opts.Profiles, name+".mem.pprof")
		if err := profiles.WriteFile(pf.keptHeap, heap[0]); err != nil {
			return pf, nil, "", fmt.Errorf("keep profile: %w", err)
		}
	}
	pf.perOp = float64(n1 - n2)
	h, err := profiles.AnalyzeHeap(perOp, reportOptions(t, s.perOpLines(t)))
	if err != nil {
		// Nothing scales with the iteration count (B/op rounds a
		// one-time cost up): what the run allocated is setup, which the
		// sites then describe.
		pf.perOp = 0
		h, err = profiles.AnalyzeHeap(heap[0], reportOptions(t, s.untimed(t)))
	}
	if err != nil {
		return pf, nil, "heap profile: " + err.Error(), nil
	}
	a.Heap = h
	lb := float64(profiles.SampleTotal(perOp, "alloc_space")) / float64(n1-n2)
	pf.loopBytes = &lb
	pf.heapByIters = heapByIters(heap, n1, n2)
	lo, okLo := timed[fmt.Sprintf("%dx", n2)]
	hi, okHi := timed[fmt.Sprintf("%dx", n1)]
	if okLo && okHi && n1 != n2 {
		pf.heapTimed = []document.IterSample{{Iters: float64(n2), Value: lo}, {Iters: float64(n1), Value: hi}}
	}
	if total := profiles.SampleTotal(heap[0], "alloc_space"); total > 0 {
		loop := lb * float64(n1+1)
		setup := max(0, min(1, 1-loop/float64(total)))
		pf.setup = &setup
	}
	return pf, a, "", nil
}

// timedBytes is the B/op the testing package reported in a run, summed
// over its sub-benchmarks: per iteration of every one, as the heap runs
// at a fixed count do them; ok is false when a result has none.
func timedBytes(rs []*benchfmt.Result) (float64, bool) {
	sum := 0.0
	for _, r := range rs {
		v, ok := r.Value("B/op")
		if !ok {
			return 0, false
		}
		sum += v
	}
	return sum, len(rs) > 0
}

// heapByIters is what the heap runs at n2 and n1 iterations allocated per
// iteration over the whole run, the smaller count first.
func heapByIters(heap [2]*profile.Profile, n1, n2 int) []document.IterSample {
	if n1 <= 0 || n2 <= 0 || heap[0] == nil || heap[1] == nil {
		return nil
	}
	return []document.IterSample{
		{Iters: float64(n2), Value: float64(profiles.SampleTotal(heap[1], "alloc_space")) / float64(n2)},
		{Iters: float64(n1), Value: float64(profiles.SampleTotal(heap[0], "alloc_space")) / float64(n1)},
	}
}

// extraBenchtime is the -benchtime of an extra run of about d for a
// benchmark of sec seconds per op (summed over its sub-benchmarks, each of
// which runs the count): a fixed count, so the run does not ramp, or d
// itself when the time per op is unknown.
func extraBenchtime(d time.Duration, sec float64) string {
	if sec <= 0 {
		return d.String()
	}
	return fmt.Sprintf("%dx", max(1, int(d.Seconds()/sec)))
}

// timedSeconds is the timed work of a benchmark's rounds: the sum over its
// results of the iterations times the seconds per op.
func timedSeconds(b *results.Benchmark) float64 {
	sum := 0.0
	for _, r := range b.Results {
		if v, ok := r.Value("sec/op"); ok && r.Iters > 0 {
			sum += v * float64(r.Iters)
		}
	}
	return sum
}
