package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/fix"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/results"
)

const reportUsage = `
usage: perfloop report [flags] [packages]

Report runs the whole loop on the packages (default ./...) and writes the
findings document a careful engineer writes by hand. The test binaries are
built once and serve every stage:

 1. while they build: the compiler's escape analysis (-gcflags=-m=2, test
    files included) and perfloop lint's checks, done before anything is
    timed;
 2. bench: every benchmark -count times, round-robin, each run in its own
    process and under the CPU profiler, at the iteration count a short
    probe measured (no b.N ramp); a benchmark with sub-benchmarks, which
    one count cannot calibrate, runs its -count rounds in one process, as
    go test does; a benchmark's rounds' profiles are merged, with one more
    CPU-profile run only where their samples leave a finding undecided
    (at most -profiletime);
 3. heap: for benchmarks whose loop allocates, two runs recording every
    allocation at fixed iteration counts; their difference is what the
    timed loop allocates per op, without the setup and the testing
    package;
 4. scaling: benchmarks that start goroutines, again at -cpu 1 up to the
    machine's cores, with mutex and block profiles;
 5. findings: hotspots, line costs and allocation sites joined with the
    compiler's verdicts; root causes with file:line and the usual fix, and
    a decision gate: what to optimize first and what not to touch (with
    -production, ranked by the real program's profile). The last perfloop
    pgo result is included when the module has one.

It writes, in -out (default ./perfloop-report): report.md, report.html (one
self-contained file: charts and flame graphs inline), report.json (schema
perfloop.report/v1), bench.txt (benchfmt, for benchstat and perfloop
compare) and the profiles, which go tool pprof opens. -json also prints
report.json to stdout.

The files are written in a directory beside -out, which takes -out's
place only when the report is done: a run that measures nothing (a -bench
that matches nothing, packages that do not build) or fails leaves an
earlier report whole, and a new report's directory holds that report's
files alone. An interrupted run keeps the benchmarks that finished in
-out's bench.txt when -out holds no report yet, else beside it in
DIR.interrupted. A directory that holds files a report does not write is
refused rather than replaced.

-from-fix DIR reads what perfloop fix tried (DIR/fix.json, fix's -out)
and says it under each root cause, on the first screen, in report.md
and in report.html: "tried: presize, −16.4% [−19.0, −13.2] sec/op in
BenchmarkParse — DIR/01-presize-parse-12.patch", or "tried: strconv, no
significant change (could detect ±3.0%)". A root cause fix tried nothing
at says nothing about fix.

Exit status: 0 when every benchmark ran, 1 when any failed (the report is
still written, with their errors), 2 on bad flags or a -from-fix that
holds no fix result, 130 when interrupted.

Examples:

	perfloop report ./...
	perfloop report -count 5 -benchtime 200ms -out codec-report ./codec
	perfloop report -json ./... | jq '.findings[] | select(.severity == "high")'
	perfloop fix -out fixes ./... && perfloop report -from-fix fixes ./...
`

type reportOptions struct {
	benchConfig
	out         string
	json        bool
	profileTime time.Duration
	production  string
	minShare    float64
	fromFix     string
}

func runReport(ctx context.Context, args []string, s Streams) error {
	var opts reportOptions
	fs := newFlagSet("report", reportUsage, s)
	opts.addBenchFlags(fs, 6)
	fs.StringVar(&opts.out, "out", "perfloop-report", "write the report into `dir`")
	fs.BoolVar(&opts.json, "json", false, "also print report.json to stdout")
	fs.DurationVar(&opts.profileTime, "profiletime", time.Second, "at most `d` of extra CPU profile for one benchmark (100 samples per second), spent only where its rounds' samples leave a finding undecided")
	fs.StringVar(&opts.production, "production", "", "rank the findings by their function's share of this CPU or heap `profile` of the real program (such as default.pgo)")
	opts.minShare = 0.01
	fs.Var((*shareValue)(&opts.minShare), "min-share", "with -production: functions below this `share` of it (0.01 or 1%) are cold in production")
	fs.StringVar(&opts.fromFix, "from-fix", "", "say beside each root cause what perfloop fix tried there and measured, from `dir`/fix.json (fix's -out)")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	if opts.profileTime <= 0 {
		return usageErrorf("-profiletime must be a positive duration such as 1s, got %v", opts.profileTime)
	}
	return writeReport(ctx, opts, s)
}

func writeReport(ctx context.Context, opts reportOptions, s Streams) (err error) {
	var tried *document.Fix
	if opts.fromFix != "" {
		if tried, err = fix.ReadResult(opts.fromFix); err != nil {
			return usageError{err}
		}
	}
	var production map[string]float64
	if opts.production != "" {
		if production, err = profiles.FunctionShares(opts.production); err != nil {
			return usageError{fmt.Errorf("-production: %w", err)}
		}
	}
	// The report is written into a directory beside -out, which takes its
	// place only once there is a report: an earlier one survives a run
	// that measures nothing, fails or is interrupted, and a new one holds
	// no profiles of an earlier one.
	out, err := newOutputDir("-out", opts.out, reportFile)
	if err != nil {
		return err
	}
	defer out.discard()
	// Benchmarks are written to bench.txt as they finish.
	benchFile, err := os.Create(out.path("bench.txt"))
	if err != nil {
		return fmt.Errorf("create results file: %w", err)
	}
	w := results.NewWriter(benchFile)
	finished := 0
	write := writeEach(w)
	bar := bar(s)
	defer bar.Done()
	ropts := loop.ReportOptions{
		Production:  production,
		MinShare:    opts.minShare,
		ProfileTime: opts.profileTime,
		Profiles:    out.path("profiles"),
		Each: func(b *results.Benchmark, o *gotest.Outcome) error {
			finished += len(o.Results)
			return write(b, o)
		},
		Stage: func(stage string) {
			bar.Done()
			fmt.Fprintf(s.Err, "perfloop: %s\n", stage)
		},
	}
	run, err := loop.Report(ctx, opts.loopConfig(), ropts, bar)
	bar.Done()
	if run != nil && run.Bench != nil {
		if werr := w.Trailer(run.Bench.Env); werr != nil && err == nil {
			err = werr
		}
	}
	if cerr := benchFile.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("write bench.txt: %w", cerr)
	}
	switch {
	case run == nil || run.Bench == nil || run.Doc == nil:
		return err
	case err != nil:
		// Interrupted: the benchmarks that finished are kept, and an
		// earlier report stays whole.
		if finished > 0 {
			if where, kerr := out.keepPartial(); kerr == nil {
				fmt.Fprintf(s.Err, "perfloop: the benchmarks that finished are in %s\n", filepath.Join(where, "bench.txt"))
			}
		}
		return err
	case len(run.Bench.Benchmarks) == 0:
		// Nothing ran: no benchmark matches, or no package built.
		return benchStatus(s, opts.benchConfig, run.Bench, nil, "")
	}
	if run.EscapeErr != nil {
		fmt.Fprintf(s.Err, "perfloop: escape analysis: %v (the report has no compiler verdicts)\n", run.EscapeErr)
	}
	if tried != nil {
		if tried.Commit != "" && run.Doc.Commit != "" && tried.Commit != run.Doc.Commit {
			fmt.Fprintf(s.Err, "perfloop: -from-fix %s: fix ran at %s, this report at %s: the lines it tried may have moved\n", opts.fromFix, short(tried.Commit), short(run.Doc.Commit))
		}
		fix.Annotate(run.Doc, tried, opts.fromFix)
	}
	for i := range run.Doc.Benchmarks {
		b := &run.Doc.Benchmarks[i]
		b.CPUProfile, b.HeapProfile = out.shown(b.CPUProfile), out.shown(b.HeapProfile)
	}
	if _, err := render.WriteFiles(out.path(), run.Doc, render.Options{Flames: run.Flames}); err != nil {
		return out.shownErr(err)
	}
	replaced, err := out.commit()
	if err != nil {
		return err
	}
	if len(replaced) > 0 {
		fmt.Fprintf(s.Err, "perfloop: replaced %s in %s\n", strings.Join(replaced, ", "), opts.out)
	}
	if opts.json {
		if err := render.WriteJSON(s.Out, run.Doc); err != nil {
			return err
		}
	} else {
		if err := printReportSummary(s, run.Doc, opts.out); err != nil {
			return err
		}
	}
	for _, f := range run.Failures {
		fmt.Fprintf(s.Err, "perfloop: %s\n", f)
	}
	if err := benchStatus(s, opts.benchConfig, run.Bench, nil, "the report lists their errors"); err != nil {
		return err
	}
	if n := len(run.Failures); n > 0 {
		return failedError{fmt.Sprintf("%d benchmark(s) could not be profiled; the report lists why", n)}
	}
	return nil
}

// reportFile says whether a name in a report's directory is one a report
// writes there.
func reportFile(name string, isDir bool) bool {
	switch name {
	case "report.md", "report.html", "report.json", "bench.txt":
		return !isDir
	case "profiles":
		return isDir
	}
	return false
}

// printReportSummary tells where the report is and what it found first.
func printReportSummary(s Streams, doc *document.Report, dir string) error {
	fmt.Fprintf(s.Out, "wrote %s (also report.html, report.json, bench.txt, profiles/)\n", filepath.Join(dir, "report.md"))
	return render.Summary(s.Out, doc)
}
