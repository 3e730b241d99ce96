package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/perfloop/perfloop/internal/escape"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/report"
	"github.com/perfloop/perfloop/internal/results"
)

const reportUsage = `
usage: perfloop report [flags] [packages]

Report runs the whole loop on the packages (default ./...) and writes the
findings document a careful engineer writes by hand:

 1. bench: every benchmark -count times, each run in its own process;
 2. profile: one CPU-profile run and one heap-profile run per benchmark;
 3. explain: the compiler's escape analysis (-gcflags=-m=2) joined with
    every hot allocation site, and the cause in plain words;
 4. findings: rules over all of it, with file:line and the usual fix, and a
    decision gate: what to optimize first and what not to touch.

It writes, in -out (default ./perfloop-report): report.md, report.html (one
self-contained file: charts and flame graphs inline), report.json (schema
perfloop.report/v1), bench.txt (benchfmt, for benchstat and perfloop
compare) and the profiles, which go tool pprof opens. -json also prints
report.json to stdout.

Exit status: 0 when every benchmark ran, 1 when any failed (the report is
still written, with their errors), 2 on bad flags, 130 when interrupted.

Examples:

	perfloop report ./...
	perfloop report -count 5 -benchtime 200ms -out codec-report ./codec
	perfloop report -json ./... | jq '.findings[] | select(.severity == "high")'
`

type reportOptions struct {
	benchConfig
	out         string
	json        bool
	profiletime string
}

func runReport(ctx context.Context, args []string, s Streams) error {
	var opts reportOptions
	fs := newFlagSet("report", reportUsage, s)
	opts.addBenchFlags(fs, 6)
	fs.StringVar(&opts.out, "out", "perfloop-report", "write the report into `dir`")
	fs.BoolVar(&opts.json, "json", false, "also print report.json to stdout")
	fs.StringVar(&opts.profiletime, "profiletime", "1s", "run each benchmark for `d` under each profiler (enough CPU samples: 100 per second)")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	return writeReport(ctx, opts, s)
}

func writeReport(ctx context.Context, opts reportOptions, s Streams) (err error) {
	if err := os.MkdirAll(opts.out, 0o755); err != nil {
		return usageError{fmt.Errorf("create -out directory: %w", err)}
	}

	// 1. Benchmarks, written to bench.txt as they finish.
	benchFile, err := os.Create(filepath.Join(opts.out, "bench.txt"))
	if err != nil {
		return usageError{fmt.Errorf("create results file: %w", err)}
	}
	defer benchFile.Close()
	w := results.NewWriter(benchFile)
	fmt.Fprintln(s.Err, "perfloop: benchmarking")
	run, err := runBenchmarks(ctx, opts.benchConfig, s, writeEach(w))
	if run == nil {
		return err
	}
	if werr := w.Trailer(run.env); werr != nil && err == nil {
		err = werr
	}
	if err != nil {
		return err
	}

	// 2. Profiles, one CPU and one heap run per benchmark.
	fmt.Fprintln(s.Err, "perfloop: profiling")
	popts := profileOptions{benchConfig: opts.benchConfig, json: true, out: filepath.Join(opts.out, "profiles"), memRate: 1, hotspots: 10, sites: 5}
	popts.count = 1
	popts.benchtime = opts.profiletime
	prun, err := profileAll(ctx, popts, Streams{Out: io.Discard, Err: s.Err, ErrIsTerminal: s.ErrIsTerminal})
	if err != nil {
		return err
	}
	doc := mergeReport(run, prun.doc)
	doc.Count, doc.Benchtime = opts.count, opts.benchtime

	// 3. The compiler's escape analysis, joined with the allocation sites.
	fmt.Fprintln(s.Err, "perfloop: explaining allocations")
	if err := explainAllocations(ctx, doc, opts.patterns, opts.tags); err != nil {
		fmt.Fprintf(s.Err, "perfloop: escape analysis: %v (the report has no compiler verdicts)\n", err)
	}

	// 4. Findings, gate, scaling, commands.
	doc.Findings, doc.Gate = findings.Derive(doc, findings.Options{})
	doc.Scaling = findings.Scaling(doc)
	doc.Commands = reproduceCommands(doc, opts)

	if err := writeReportFiles(doc, opts.out); err != nil {
		return err
	}
	if opts.json {
		if err := report.WriteJSON(s.Out, doc); err != nil {
			return err
		}
	} else {
		printReportSummary(s, doc, opts.out)
	}
	for _, line := range run.failureLines() {
		fmt.Fprintf(s.Err, "perfloop: %s\n", line)
	}
	if n := run.failed(); n > 0 {
		return failedError{fmt.Sprintf("%d of %d benchmarks failed; the report lists their errors", n, len(run.benchmarks))}
	}
	if len(run.buildErrors) > 0 {
		return failedError{fmt.Sprintf("%d package(s) did not build", len(run.buildErrors))}
	}
	return nil
}

// mergeReport combines the bench run's benchmarks (metrics over -count
// runs, one entry per full name) with the profile run's analysis (one entry
// per top-level benchmark, which hotspots, categories and allocations
// name). A profiled benchmark without sub-benchmarks is one entry with both;
// one with sub-benchmarks keeps its top-level entry beside its sub-benchmarks'
// so its profile sections stay under the name they were measured as.
func mergeReport(run *benchRun, prof *report.ReportJSON) *report.ReportJSON {
	doc := run.reportJSON()
	doc.Hotspots, doc.Categories, doc.Allocations = prof.Hotspots, prof.Categories, prof.Allocations
	for _, pb := range prof.Benchmarks {
		matched := false
		for i := range doc.Benchmarks {
			b := &doc.Benchmarks[i]
			if b.Package != pb.Package || b.Name != pb.Name {
				continue
			}
			b.TestAllocShare, b.CallPath = pb.TestAllocShare, pb.CallPath
			b.CPUProfile, b.HeapProfile = pb.CPUProfile, pb.HeapProfile
			if b.Status == string(results.StatusOK) && pb.Status != string(results.StatusOK) {
				b.Status, b.Error = pb.Status, pb.Error
			}
			matched = true
			break
		}
		if !matched && !failedInBench(doc, pb) {
			doc.Benchmarks = append(doc.Benchmarks, pb)
		}
	}
	return doc
}

// failedInBench reports whether the bench run already lists pb's benchmark
// as failed, so its profile entry would only repeat the error.
func failedInBench(doc *report.ReportJSON, pb report.BenchmarkJSON) bool {
	for _, b := range doc.Benchmarks {
		if b.Package == pb.Package && b.Name == pb.Name && b.Status != string(results.StatusOK) {
			return true
		}
	}
	return false
}

// explainAllocations runs the compiler's escape analysis on the packages
// and gives every allocation site of the module its verdict and cause.
func explainAllocations(ctx context.Context, doc *report.ReportJSON, patterns []string, tags string) error {
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	ix, err := escape.Run(ctx, escape.Options{Tests: true, Tags: tags}, patterns...)
	if err != nil {
		return err
	}
	ex := escape.NewExplainer(ix, os.DirFS(root))
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		if a.File == "" || filepath.IsAbs(a.File) || strings.Contains(a.File, "runtime/") {
			continue
		}
		site := escape.Site{File: a.File, Line: int(a.Line), CallerFile: a.CallerFile, CallerLine: int(a.CallerLine)}
		if a.Via != "" {
			site.Callees = []string{a.Via}
		}
		x := ex.Explain(site)
		verdict := x.Verdict
		if verdict == "" {
			verdict = x.Reason
		}
		a.Escape = &report.EscapeJSON{Verdict: verdict, Flow: x.Flow, Cause: string(x.Cause), Reason: x.Reason, Name: x.Name, Fix: x.Fix}
	}
	return nil
}

// moduleRoot returns the directory of the main module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not in a module (no go.mod)")
	}
	return filepath.Dir(mod), nil
}

// reproduceCommands lists the hand-run commands behind each figure.
func reproduceCommands(doc *report.ReportJSON, opts reportOptions) []report.CommandJSON {
	bt := ""
	if opts.benchtime != "" {
		bt = " -benchtime " + opts.benchtime
	}
	var cmds []report.CommandJSON
	seen := map[string]bool{}
	for _, b := range doc.Benchmarks {
		top := b.Name
		if i := strings.IndexByte(top, '/'); i >= 0 {
			top = top[:i]
		}
		key := b.Package + " " + top
		if seen[key] || top == "" {
			continue
		}
		seen[key] = true
		pat := "'^" + regexp.QuoteMeta(top) + "$'"
		cmds = append(cmds,
			report.CommandJSON{What: "results of " + top, Command: fmt.Sprintf("go test -run '^$' -bench %s -benchmem -count %d%s %s", pat, opts.count, bt, b.Package)},
			report.CommandJSON{What: "CPU hotspots of " + top, Command: fmt.Sprintf("go test -run '^$' -bench %s%s -cpuprofile cpu.pprof %s && go tool pprof -top cpu.pprof", pat, bt, b.Package)},
			report.CommandJSON{What: "allocation sites of " + top, Command: fmt.Sprintf("go test -run '^$' -bench %s%s -memprofile mem.pprof -memprofilerate 1 %s && go tool pprof -sample_index=alloc_space -top mem.pprof", pat, bt, b.Package)},
		)
	}
	pkgs := map[string]bool{}
	for _, b := range doc.Benchmarks {
		if !pkgs[b.Package] {
			pkgs[b.Package] = true
			cmds = append(cmds, report.CommandJSON{What: "escape analysis of " + b.Package, Command: "go build -gcflags=-m=2 " + b.Package})
		}
	}
	return cmds
}

// writeReportFiles writes report.json, report.md and report.html into dir.
func writeReportFiles(doc *report.ReportJSON, dir string) error {
	flames := map[string]*profiles.FlameNode{}
	for _, b := range doc.Benchmarks {
		if b.CPUProfile == "" {
			continue
		}
		if p, err := profiles.ReadFile(b.CPUProfile); err == nil {
			flames[b.Name] = profiles.Flame(p)
		}
	}
	opts := report.Options{Flames: flames}
	write := func(name string, render func(f *os.File) error) error {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("write report: %w", err)
		}
		if err := render(f); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", name, err)
		}
		return f.Close()
	}
	if err := write("report.json", func(f *os.File) error { return report.WriteJSON(f, doc) }); err != nil {
		return err
	}
	if err := write("report.md", func(f *os.File) error { return report.Markdown(f, doc, opts) }); err != nil {
		return err
	}
	return write("report.html", func(f *os.File) error { return report.HTML(f, doc, opts) })
}

// printReportSummary tells where the report is and what it found first.
func printReportSummary(s Streams, doc *report.ReportJSON, dir string) {
	fmt.Fprintf(s.Out, "wrote %s (also report.html, report.json, bench.txt, profiles/)\n", filepath.Join(dir, "report.md"))
	tw := report.NewTable(s.Out)
	n := 0
	for _, f := range doc.Findings {
		if n == 8 {
			break
		}
		where := f.File
		if f.Line > 0 {
			where = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Severity, strings.TrimPrefix(f.Benchmark, "Benchmark"), where, f.Message)
		n++
	}
	if n > 0 {
		fmt.Fprintln(s.Out, "\ntop findings:")
		tw.Flush()
	}
}
