package loop

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// BenchRun is everything one bench run measured.
type BenchRun struct {
	Env results.Env
	// Benchmarks has one entry per target, in target order.
	Benchmarks []*results.Benchmark
	// BuildErrors lists the packages that could not be benchmarked.
	BuildErrors []gotest.PackageError
	// Matched is how many benchmarks the patterns selected before
	// sharding (see Suite.Matched).
	Matched int
	// Runs holds, per target, its runs that succeeded, in round order:
	// the iteration count each ran at and the CPU profile it wrote (see
	// BenchOptions).
	Runs [][]Round
}

// Round is one successful run of one benchmark in a bench run.
type Round struct {
	// Iters is the fixed iteration count the run was given
	// (-test.benchtime=Nx), 0 when the testing package chose b.N.
	Iters int
	// CPUProfile is the CPU profile the run wrote, or "".
	CPUProfile string
	// Elapsed is the process's wall time.
	Elapsed time.Duration
}

// BenchOptions says how to run the rounds.
type BenchOptions struct {
	// CPUProfileDir, if set, makes every run write a CPU profile there.
	CPUProfileDir string
	// Each is called after every run with the benchmark and the run's
	// outcome, so results can be written as they finish.
	Each func(*results.Benchmark, *gotest.Outcome) error
	// Calibrate runs every round at a fixed iteration count (see
	// Calibrate), measured by a short run of each benchmark before its
	// first round (see probeBenchtime): a benchmark that prints one
	// result line then runs without the testing package's b.N ramp. A
	// benchmark that runs sub-benchmarks, which one count cannot
	// calibrate, runs its -count rounds in one process instead, one
	// after another, as go test runs them: its rounds ramp either way,
	// and one process saves each round's start and the benchmark's
	// package-level setup (3–5% of fastjson's BenchmarkObjectGet).
	Calibrate bool
}

// Bench runs every benchmark of the suite Config.Count times,
// round-robin, each run in its own process, so machine drift spreads over
// all of them (with Calibrate, a sub-benchmark family's rounds are one
// process: see BenchOptions). A benchmark that fails is not run again. On cancellation it
// returns what finished, a process's finished result lines included, with ctx's error.
func (s *Suite) Bench(ctx context.Context, opts BenchOptions, bar *progress.Bar) (*BenchRun, error) {
	defer bar.Done()
	cfg := s.Config
	count := max(cfg.Count, 1)
	run := &BenchRun{BuildErrors: s.Failed, Env: s.Env, Matched: s.Matched, Runs: make([][]Round, len(s.Targets))}
	for _, t := range s.Targets {
		run.Benchmarks = append(run.Benchmarks, &results.Benchmark{
			Package: t.Binary.Package.ImportPath, Name: t.Name, Status: results.StatusOK,
		})
	}
	names := ProfileNames(s.Targets)
	defer func() { s.Env = run.Env }()
	// fixed holds each target's calibrated iteration count.
	fixed := make([]int, len(s.Targets))

	probe := ""
	if opts.Calibrate {
		probe = probeBenchtime(cfg.Benchtime)
	}
	// calibrate runs target i's probe (see probeBenchtime) just before
	// its first round, so a benchmark's rounds start, and its results are
	// written, before the next one is probed (a benchmark that hangs
	// later keeps nothing from waiting). A benchmark that runs
	// sub-benchmarks prints a result line each, which one count cannot
	// calibrate: it gets no probe, and its rounds ramp.
	subs := map[string]map[string]bool{}
	hasSubs := func(t gotest.Target) bool {
		pkg := t.Binary.Package
		if subs[pkg.ImportPath] == nil {
			subs[pkg.ImportPath] = subBenchmarks(pkg)
		}
		return subs[pkg.ImportPath][t.Name]
	}
	calibrate := func(i int) error {
		t := s.Targets[i]
		if hasSubs(t) {
			return nil
		}
		bar.Describe(t.Name + " (calibrating)")
		o, err := t.Binary.Run(ctx, gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: probe, CPU: cfg.CPU, Timeout: cfg.Timeout})
		if err != nil {
			return err
		}
		b := run.Benchmarks[i]
		switch o.Status {
		case results.StatusOK:
			fixed[i] = Calibrate(o.Results, cfg.Benchtime)
		case results.StatusSkipped:
			b.Status, b.Error = o.Status, o.Error
		default:
			b.Fail(o.Status, o.Error)
			bar.Printf("%s %s: %s", b.Package, b.Name, b.Error)
			if opts.Each != nil {
				if err := opts.Each(b, o); err != nil {
					return err
				}
			}
		}
		noteEnv(&s.Env, o)
		run.Env = s.Env
		return nil
	}
	bar.Start(count*len(s.Targets), "")
	for round := 1; round <= count; round++ {
		for i, t := range s.Targets {
			b := run.Benchmarks[i]
			if round == 1 && probe != "" {
				if err := calibrate(i); err != nil {
					run.Env = s.Env
					return run, err
				}
			}
			// A sub-benchmark family runs its rounds in one process
			// (see BenchOptions.Calibrate).
			together := opts.Calibrate && count > 1 && hasSubs(t)
			if b.Status != results.StatusOK && b.Status != results.StatusSkipped || together && round > 1 {
				bar.Step("")
				continue
			}
			bar.Describe(fmt.Sprintf("%s (round %d/%d)", t.Name, round, count))
			rc := gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: cfg.Benchtime, CPU: cfg.CPU, Timeout: cfg.Timeout}
			if together {
				bar.Describe(fmt.Sprintf("%s (rounds 1–%d)", t.Name, count))
				rc.Count = count
				rc.Timeout *= time.Duration(count)
			}
			iters := fixed[i]
			if iters > 0 {
				rc.Benchtime = fmt.Sprintf("%dx", iters)
			}
			prof := ""
			if opts.CPUProfileDir != "" {
				prof = filepath.Join(opts.CPUProfileDir, fmt.Sprintf("%s.r%d.cpu.pprof", names[i], round))
				rc.Args = []string{"-test.cpuprofile=" + prof}
			}
			o, err := t.Binary.Run(ctx, rc)
			if err != nil {
				// Interrupted: keep what the process finished (a
				// family's sub-benchmarks, its earlier rounds).
				run.Env = s.Env
				if o != nil && len(o.Results) > 0 {
					b.Results = append(b.Results, o.Results...)
					if opts.Each != nil {
						if werr := opts.Each(b, o); werr != nil {
							return run, errors.Join(err, werr)
						}
					}
				}
				return run, err
			}
			b.Results = append(b.Results, o.Results...)
			switch o.Status {
			case results.StatusOK:
				if prof == "" || len(o.Results) == 0 {
					prof = ""
				}
				run.Runs[i] = append(run.Runs[i], Round{Iters: iters, CPUProfile: prof, Elapsed: o.Elapsed})
			case results.StatusSkipped:
				b.Status, b.Error = o.Status, o.Error
			default:
				b.Fail(o.Status, o.Error)
				bar.Printf("%s %s: %s", b.Package, b.Name, b.Error)
			}
			noteEnv(&s.Env, o)
			run.Env = s.Env
			if opts.Each != nil {
				if err := opts.Each(b, o); err != nil {
					return run, err
				}
			}
			bar.Step("")
		}
	}
	return run, nil
}

// Failed returns how many benchmarks failed or timed out.
func (r *BenchRun) Failed() int {
	n := 0
	for _, b := range r.Benchmarks {
		if b.Status == results.StatusFailed || b.Status == results.StatusTimeout {
			n++
		}
	}
	return n
}

// FailureLines describes every failure in one line each, for stderr.
func (r *BenchRun) FailureLines() []string {
	var lines []string
	for _, pe := range r.BuildErrors {
		lines = append(lines, fmt.Sprintf("%s: %v", pe.Package, pe.Err))
	}
	for _, b := range r.Benchmarks {
		if b.Status == results.StatusFailed || b.Status == results.StatusTimeout {
			lines = append(lines, fmt.Sprintf("%s %s: %s", b.Package, b.Name, b.Error))
		}
	}
	return lines
}

// Document is the run as a perfloop.report/v1 document (benchmarks only):
// one entry per full name (sub-benchmarks are their own entries) with
// every unit summarized. A benchmark without results is one entry without
// metrics.
func (r *BenchRun) Document() *document.Report {
	doc := &document.Report{
		Schema:     document.Schema,
		Module:     r.Env.Module,
		GoVersion:  r.Env.GoVersion,
		GOOS:       r.Env.GOOS,
		GOARCH:     r.Env.GOARCH,
		CPU:        r.Env.CPU,
		Commit:     r.Env.Commit,
		Date:       r.Env.Date,
		Benchmarks: []document.Benchmark{},
	}
	for _, b := range r.Benchmarks {
		doc.Benchmarks = append(doc.Benchmarks, summarize(b)...)
	}
	for _, pe := range r.BuildErrors {
		doc.Packages = append(doc.Packages, document.Package{Package: pe.Package, Status: string(results.StatusFailed), Error: pe.Err.Error()})
	}
	return doc
}

// summarize groups a benchmark's results by full name and summarizes every
// unit.
func summarize(b *results.Benchmark) []document.Benchmark {
	type row struct {
		doc    document.Benchmark
		values map[string][]float64
		units  []string
	}
	var order []*row
	byName := map[string]*row{}
	for _, res := range b.Results {
		full := res.Name.String()
		r := byName[full]
		if r == nil {
			name, procs := stats.SplitProcs(res.Name)
			r = &row{values: map[string][]float64{}, doc: document.Benchmark{
				Package: b.Package, Name: "Benchmark" + name, Procs: procs,
				Status: string(b.Status), Error: b.Error, Metrics: map[string]*document.Metric{},
			}}
			byName[full] = r
			order = append(order, r)
		}
		for _, v := range res.Values {
			if _, ok := r.values[v.Unit]; !ok {
				r.units = append(r.units, v.Unit)
			}
			r.values[v.Unit] = append(r.values[v.Unit], v.Value)
		}
	}
	if len(order) == 0 {
		e := document.Benchmark{Package: b.Package, Name: b.Name, Status: string(b.Status), Error: b.Error, Metrics: map[string]*document.Metric{}}
		if file, line, ok := gotest.SkipSite(b.Error); ok && b.Status == results.StatusSkipped {
			e.SkipAt = &document.Location{File: file, Line: line}
		}
		return []document.Benchmark{e}
	}
	out := make([]document.Benchmark, 0, len(order))
	for _, r := range order {
		for _, u := range r.units {
			r.doc.Metrics[u] = document.NewMetric(stats.Summarize(r.values[u], u, nil))
		}
		out = append(out, r.doc)
	}
	return out
}

// probeBenchtime is the -benchtime of the run that calibrates a
// benchmark before its rounds, for rounds at -benchtime bt: a tenth of
// it, from 10ms (at most bt). The testing package's ramp makes that run
// cost two to three times its -benchtime, a fraction of a round's: every
// round then runs at the fixed count, where a first round at bt paid the
// ramp at full size. "" when bt is an iteration count (nothing to
// calibrate).
func probeBenchtime(bt string) string {
	d := time.Second
	if bt != "" {
		var err error
		if d, err = time.ParseDuration(bt); err != nil || d <= 0 {
			return ""
		}
	}
	return min(d, max(d/10, 10*time.Millisecond)).String()
}

// minCalibrated is the fewest iterations -benchtime must hold for a
// benchmark to be calibrated: below it a first iteration that is slower
// than the rest (a cache warming up) would weigh in the runs of b.Loop
// benchmarks, which time every iteration, and the ramp is one or two
// runs anyway.
const minCalibrated = 10

// Calibrate returns the iteration count at which a benchmark whose first
// run printed res at -benchtime bt runs its later rounds, or 0 to let
// the testing package choose b.N in every round. It calibrates as the
// A/B engine does: fixed once, so later runs do the timed work only,
// without the testing package's ramp (b.N at 1, 100, 10,000, … each a
// run of the benchmark function, its setup included, before the measured
// one) and without the ramp's 20% overshoot of -benchtime. A benchmark
// that printed more than one line (sub-benchmarks, several -cpu values)
// needs a count each, which one process cannot run, so it is not
// calibrated; nor is one run at an Nx -benchtime, or slower than a tenth
// of -benchtime per op.
func Calibrate(res []*benchfmt.Result, bt string) int {
	if len(res) != 1 || strings.HasSuffix(bt, "x") {
		return 0
	}
	d := time.Second
	if bt != "" {
		var err error
		if d, err = time.ParseDuration(bt); err != nil || d <= 0 {
			return 0
		}
	}
	sec, ok := res[0].Value("sec/op")
	if !ok || sec <= 0 || math.IsNaN(sec) {
		return 0
	}
	n := d.Seconds() / sec
	if n < minCalibrated || n > 1e9 {
		return 0
	}
	return int(math.Round(n))
}
