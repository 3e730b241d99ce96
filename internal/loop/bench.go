package loop

import (
	"context"
	"fmt"
	"path/filepath"

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
	// CPUProfiles holds, per target, the CPU profiles written by its runs
	// when the run was asked to profile (see BenchOptions.CPUProfileDir).
	CPUProfiles [][]string
}

// BenchOptions says how to run the rounds.
type BenchOptions struct {
	// CPUProfileDir, if set, makes every run write a CPU profile there.
	CPUProfileDir string
	// Each is called after every run with the benchmark and the run's
	// outcome, so results can be written as they finish.
	Each func(*results.Benchmark, *gotest.Outcome) error
}

// Bench runs every benchmark of the suite Config.Count times,
// round-robin, each run in its own process, so machine drift spreads over
// all of them. A benchmark that fails is not run again. On cancellation it
// returns what finished with ctx's error.
func (s *Suite) Bench(ctx context.Context, opts BenchOptions, bar *progress.Bar) (*BenchRun, error) {
	defer bar.Done()
	cfg := s.Config
	count := max(cfg.Count, 1)
	run := &BenchRun{BuildErrors: s.Failed, Env: s.Env, Matched: s.Matched, CPUProfiles: make([][]string, len(s.Targets))}
	for _, t := range s.Targets {
		run.Benchmarks = append(run.Benchmarks, &results.Benchmark{
			Package: t.Binary.Package.ImportPath, Name: t.Name, Status: results.StatusOK,
		})
	}
	names := ProfileNames(s.Targets)
	defer func() { s.Env = run.Env }()

	bar.Start(count*len(s.Targets), "")
	for round := 1; round <= count; round++ {
		for i, t := range s.Targets {
			b := run.Benchmarks[i]
			if b.Status != results.StatusOK && b.Status != results.StatusSkipped {
				bar.Step("")
				continue
			}
			bar.Describe(fmt.Sprintf("%s (round %d/%d)", t.Name, round, count))
			rc := gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: cfg.Benchtime, CPU: cfg.CPU, Timeout: cfg.Timeout}
			prof := ""
			if opts.CPUProfileDir != "" {
				prof = filepath.Join(opts.CPUProfileDir, fmt.Sprintf("%s.r%d.cpu.pprof", names[i], round))
				rc.Args = []string{"-test.cpuprofile=" + prof}
			}
			o, err := t.Binary.Run(ctx, rc)
			if err != nil {
				run.Env = s.Env
				return run, err
			}
			b.Results = append(b.Results, o.Results...)
			switch o.Status {
			case results.StatusOK:
				if prof != "" {
					run.CPUProfiles[i] = append(run.CPUProfiles[i], prof)
				}
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
