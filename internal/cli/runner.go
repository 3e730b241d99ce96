package cli

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/report"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// benchRun is everything one bench run measured.
type benchRun struct {
	env         results.Env
	benchmarks  []*results.Benchmark // one per target, in target order
	buildErrors []gotest.PackageError
}

// runBenchmarks prepares the suite selected by cfg and runs every benchmark
// cfg.count times, round-robin, each run in its own process. each is called
// after every run with the benchmark and the run's outcome, so results can be
// written as they finish. A benchmark that fails is not run again. On
// cancellation it returns what finished with ctx's error.
func runBenchmarks(ctx context.Context, cfg benchConfig, s Streams, each func(*results.Benchmark, *gotest.Outcome) error) (*benchRun, error) {
	p := newProgress(s)
	defer p.done()
	tc := &gotest.Toolchain{Tags: cfg.tags}
	suite, err := tc.Prepare(ctx, cfg.patterns, cfg.bench, p.status)
	if err != nil {
		return nil, usageError{err}
	}
	defer suite.Close()

	run := &benchRun{buildErrors: suite.Failed, env: readEnv(ctx, tc, suite)}
	for _, pe := range suite.Failed {
		p.printf("%s: %v", pe.Package, pe.Err)
	}
	for _, t := range suite.Targets {
		run.benchmarks = append(run.benchmarks, &results.Benchmark{
			Package: t.Binary.Package.ImportPath, Name: t.Name, Status: results.StatusOK,
		})
	}

	p.start(cfg.count*len(suite.Targets), "")
	for round := 1; round <= cfg.count; round++ {
		for i, t := range suite.Targets {
			b := run.benchmarks[i]
			if b.Status != results.StatusOK && b.Status != results.StatusSkipped {
				p.step("")
				continue
			}
			p.describe(fmt.Sprintf("%s (round %d/%d)", t.Name, round, cfg.count))
			o, err := t.Binary.Run(ctx, gotest.RunConfig{
				Name: t.Name, Sub: suite.Sub, Benchtime: cfg.benchtime, CPU: cfg.cpu, Timeout: cfg.timeout,
			})
			if err != nil {
				return run, err
			}
			b.Results = append(b.Results, o.Results...)
			switch o.Status {
			case results.StatusOK:
			case results.StatusSkipped:
				b.Status, b.Error = o.Status, o.Error
			default:
				b.Fail(o.Status, o.Error)
				p.printf("%s %s: %s", b.Package, b.Name, b.Error)
			}
			if run.env.GOOS == "" && len(o.Results) > 0 {
				r := o.Results[0]
				run.env.GOOS, run.env.GOARCH, run.env.CPU = r.GetConfig("goos"), r.GetConfig("goarch"), r.GetConfig("cpu")
			}
			if err := each(b, o); err != nil {
				return run, err
			}
			p.step("")
		}
	}
	return run, nil
}

func readEnv(ctx context.Context, tc *gotest.Toolchain, suite *gotest.Suite) results.Env {
	env := results.Env{Date: time.Now().UTC().Format(time.RFC3339), Perfloop: Version()}
	env.GoVersion, _ = tc.GoVersion(ctx)
	for _, p := range suite.Packages {
		if p.ModuleDir != "" {
			env.Module = p.ModulePath
			vcs := gotest.ReadVCS(ctx, p.ModuleDir)
			env.Commit, env.Dirty = vcs.Commit, vcs.Dirty
			break
		}
	}
	return env
}

func (r *benchRun) failed() int {
	n := 0
	for _, b := range r.benchmarks {
		if b.Status == results.StatusFailed || b.Status == results.StatusTimeout {
			n++
		}
	}
	return n
}

// failureLines describes every failure in one line each, for stderr.
func (r *benchRun) failureLines() []string {
	var lines []string
	for _, pe := range r.buildErrors {
		lines = append(lines, fmt.Sprintf("%s: %v", pe.Package, pe.Err))
	}
	for _, b := range r.benchmarks {
		if b.Status == results.StatusFailed || b.Status == results.StatusTimeout {
			lines = append(lines, fmt.Sprintf("%s %s: %s", b.Package, b.Name, b.Error))
		}
	}
	return lines
}

// metricRow is one benchmark full name with its metrics summarized.
type metricRow struct {
	pkg, name string // name without -procs: "BenchmarkX/size=10"
	procs     int
	bench     *results.Benchmark
	units     []string // in order of first appearance
	metrics   map[string]stats.Summary
}

// summarize groups each benchmark's results by full name and summarizes
// every unit. A benchmark without results gives one row without metrics.
func (r *benchRun) summarize() []*metricRow {
	var rows []*metricRow
	for _, b := range r.benchmarks {
		byName := map[string]*metricRow{}
		values := map[string]map[string][]float64{}
		var order []string
		for _, res := range b.Results {
			full := res.Name.String()
			row := byName[full]
			if row == nil {
				name, procs := stats.SplitProcs(res.Name)
				row = &metricRow{pkg: b.Package, name: "Benchmark" + name, procs: procs, bench: b, metrics: map[string]stats.Summary{}}
				byName[full] = row
				values[full] = map[string][]float64{}
				order = append(order, full)
			}
			for _, v := range res.Values {
				if _, ok := values[full][v.Unit]; !ok {
					row.units = append(row.units, v.Unit)
				}
				values[full][v.Unit] = append(values[full][v.Unit], v.Value)
			}
		}
		if len(order) == 0 {
			rows = append(rows, &metricRow{pkg: b.Package, name: b.Name, bench: b, metrics: map[string]stats.Summary{}})
			continue
		}
		for _, full := range order {
			row := byName[full]
			for _, u := range row.units {
				row.metrics[u] = stats.Summarize(values[full][u], u, nil)
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// reportJSON is the run as perfloop.report/v1 (benchmarks only).
func (r *benchRun) reportJSON() *report.ReportJSON {
	doc := &report.ReportJSON{
		Schema:     report.ReportSchema,
		Module:     r.env.Module,
		GoVersion:  r.env.GoVersion,
		GOOS:       r.env.GOOS,
		GOARCH:     r.env.GOARCH,
		CPU:        r.env.CPU,
		Commit:     r.env.Commit,
		Date:       r.env.Date,
		Benchmarks: []report.BenchmarkJSON{},
	}
	for _, row := range r.summarize() {
		bj := report.BenchmarkJSON{
			Package: row.pkg, Name: row.name, Procs: row.procs,
			Status: string(row.bench.Status), Error: row.bench.Error,
			Metrics: map[string]*report.Metric{},
		}
		for u, s := range row.metrics {
			bj.Metrics[u] = report.NewMetric(s)
		}
		doc.Benchmarks = append(doc.Benchmarks, bj)
	}
	for _, pe := range r.buildErrors {
		doc.Packages = append(doc.Packages, report.PackageJSON{Package: pe.Package, Status: string(results.StatusFailed), Error: pe.Err.Error()})
	}
	return doc
}

// unitOrder puts the testing package's units first, then the rest
// alphabetically.
func unitOrder(units map[string]bool) []string {
	rank := map[string]int{"sec/op": 0, "B/s": 1, "B/op": 2, "allocs/op": 3}
	var us []string
	for u := range units {
		us = append(us, u)
	}
	sort.Slice(us, func(i, j int) bool {
		ri, oki := rank[us[i]]
		rj, okj := rank[us[j]]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return us[i] < us[j]
	})
	return us
}
