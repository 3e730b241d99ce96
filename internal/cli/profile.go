package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/report"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

const profileUsage = `
usage: perfloop profile [flags] [packages]

Profile takes a CPU profile and a heap profile of every benchmark of the
packages (default ./...), each in a process of its own (go test
-cpuprofile, then go test -memprofile -memprofilerate=1, so neither
profiler distorts the other), and says where the time and the memory go:

  - hotspots: the top functions by flat and by cum, as fractions of the
    benchmark's samples (the numbers go tool pprof -top prints), each with
    its hottest line;
  - the dominant call path, from the benchmark function down to its
    hottest leaf: BenchmarkLookup → Lookup → runtime.mapaccess2_faststr;
  - CPU time by category: gc, scheduler, syscall, memory, maps, strings,
    fmt, reflect, encoding, compression, crypto, regexp, sort, application,
    other (rules in docs/profile.md);
  - allocation sites by bytes and by objects: the module's own file:line
    that allocates, with inlined code resolved to the line where the
    allocation is written;
  - the share of allocated bytes whose site is in a _test.go file: fixture
    cost that the benchmark measures along with the code under test.

A benchmark that fails, hangs or writes an empty or corrupt profile is
reported with its error, and the others are still profiled. With -out DIR
the profiles are kept as DIR/NAME.cpu.pprof and DIR/NAME.mem.pprof for
go tool pprof.

Exit status: 0 when every benchmark was profiled, 1 when any failed or a
package did not build, 2 on bad flags, 130 when interrupted.

Examples:

	perfloop profile ./...
	perfloop profile -bench 'Encode$' -benchtime 2s -out prof ./codec
	perfloop profile -json -benchtime 200ms ./... | jq '.categories[] | select(.category == "gc")'
`

type profileOptions struct {
	benchConfig
	json     bool
	out      string
	memRate  int
	hotspots int
	sites    int
}

func runProfile(ctx context.Context, args []string, s Streams) error {
	var opts profileOptions
	fs := newFlagSet("profile", profileUsage, s)
	opts.addBenchFlags(fs, 0)
	fs.BoolVar(&opts.json, "json", false, "print perfloop.report/v1 JSON to stdout")
	fs.StringVar(&opts.out, "out", "", "keep the profiles in `dir` as NAME.cpu.pprof and NAME.mem.pprof")
	fs.IntVar(&opts.memRate, "memprofilerate", 1, "heap profile sampling `rate` in bytes (1 records every allocation)")
	fs.IntVar(&opts.hotspots, "top", 10, "show the top `n` functions by flat and by cum")
	fs.IntVar(&opts.sites, "sites", 5, "show the top `n` allocation sites by bytes and by objects")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	if opts.memRate < 1 {
		return usageErrorf("-memprofilerate must be at least 1, got %d", opts.memRate)
	}
	if opts.hotspots < 1 || opts.sites < 1 {
		return usageErrorf("-top and -sites must be at least 1")
	}
	return profile(ctx, opts, s)
}

func profile(ctx context.Context, opts profileOptions, s Streams) error {
	run, err := profileAll(ctx, opts, s)
	if run == nil {
		return err
	}
	if opts.json {
		if jerr := report.WriteJSON(s.Out, run.doc); jerr != nil && err == nil {
			err = fmt.Errorf("write JSON: %w", jerr)
		}
	}
	for _, f := range run.failures {
		fmt.Fprintf(s.Err, "perfloop: %s\n", f)
	}
	switch {
	case err != nil:
		return err
	case run.targets == 0 && run.broken == 0:
		return usageErrorf("no benchmarks match -bench %q in %s", opts.bench, strings.Join(opts.patterns, " "))
	case len(run.failures) > 0:
		var what []string
		if n := len(run.failures) - run.broken; n > 0 {
			what = append(what, fmt.Sprintf("%d of %d benchmarks failed", n, run.targets))
		}
		if run.broken > 0 {
			what = append(what, fmt.Sprintf("%d package(s) did not build", run.broken))
		}
		return failedError{strings.Join(what, " and ") + "; the others were profiled"}
	}
	return nil
}

// profileRun is what one profile run found.
type profileRun struct {
	doc      *report.ReportJSON
	failures []string // one line each, for stderr
	targets  int      // benchmarks selected
	broken   int      // packages that did not build
}

// profileAll profiles every selected benchmark, writing each one's tables
// to s.Out as it finishes unless opts.json. On cancellation it returns what
// finished with ctx's error; it returns a nil run only when nothing could
// start.
func profileAll(ctx context.Context, opts profileOptions, s Streams) (*profileRun, error) {
	p := newProgress(s)
	defer p.done()
	tc := &gotest.Toolchain{Tags: opts.tags}
	suite, err := tc.Prepare(ctx, opts.patterns, opts.bench, p.status)
	if err != nil {
		return nil, usageError{err}
	}
	defer suite.Close()
	scratch, err := filepath.Abs(filepath.Join(suite.Dir(), "profiles"))
	if err == nil {
		err = os.MkdirAll(scratch, 0o755)
	}
	if err != nil {
		return nil, fmt.Errorf("create profile directory: %w", err)
	}
	if opts.out != "" {
		if err := os.MkdirAll(opts.out, 0o755); err != nil {
			return nil, usageError{fmt.Errorf("create -out directory: %w", err)}
		}
	}

	env := readEnv(ctx, tc, suite)
	run := &profileRun{
		doc:     &report.ReportJSON{Schema: report.ReportSchema, Benchmarks: []report.BenchmarkJSON{}},
		targets: len(suite.Targets),
		broken:  len(suite.Failed),
	}
	defer func() {
		d := run.doc
		d.Module, d.GoVersion, d.GOOS, d.GOARCH = env.Module, env.GoVersion, env.GOOS, env.GOARCH
		d.CPU, d.Commit, d.Date = env.CPU, env.Commit, env.Date
	}()
	ropts := report.ProfileOptions{Hotspots: opts.hotspots, Sites: opts.sites}
	for _, pe := range suite.Failed {
		run.failures = append(run.failures, fmt.Sprintf("%s: %v", pe.Package, pe.Err))
		p.printf("%s: %v", pe.Package, pe.Err)
		run.doc.Packages = append(run.doc.Packages, report.PackageJSON{Package: pe.Package, Status: string(results.StatusFailed), Error: pe.Err.Error()})
	}

	names := profileNames(suite.Targets)
	p.start(len(suite.Targets), "")
	for i, t := range suite.Targets {
		p.describe(t.Name)
		row, res, err := profileOne(ctx, t, suite.Sub, names[i], scratch, opts)
		if err != nil {
			return run, err
		}
		if env.GOOS == "" && len(res) > 0 {
			env.GOOS, env.GOARCH, env.CPU = res[0].GetConfig("goos"), res[0].GetConfig("goarch"), res[0].GetConfig("cpu")
		}
		if row.Status != results.StatusOK && row.Status != results.StatusSkipped {
			run.failures = append(run.failures, fmt.Sprintf("%s %s: %s", row.Package, row.Name, row.Error))
			p.printf("%s %s: %s", row.Package, row.Name, row.Error)
		}
		bj := profileBenchmarkJSON(row, res)
		report.AddProfileJSON(run.doc, &bj, row.Analysis, ropts)
		run.doc.Benchmarks = append(run.doc.Benchmarks, bj)
		if !opts.json {
			if i > 0 {
				fmt.Fprintln(s.Out)
			}
			if err := report.ProfileText(s.Out, row, ropts); err != nil {
				return run, fmt.Errorf("write report: %w", err)
			}
		}
		p.step("")
	}
	return run, nil
}

// profileOne runs one benchmark twice, once under the CPU profiler and
// once under the heap profiler, and analyses the profiles. It returns an
// error only on cancellation, when the binary cannot be started or when
// -out cannot be written; a failure of the benchmark or its profiles is in
// the row.
func profileOne(ctx context.Context, t gotest.Target, sub, name, scratch string, opts profileOptions) (*report.ProfileRow, []*benchfmt.Result, error) {
	pkg := t.Binary.Package
	row := &report.ProfileRow{Package: pkg.ImportPath, Name: t.Name, Status: results.StatusOK}
	cpuPath := filepath.Join(scratch, name+".cpu.pprof")
	memPath := filepath.Join(scratch, name+".mem.pprof")
	cfg := gotest.RunConfig{Name: t.Name, Sub: sub, Benchtime: opts.benchtime, CPU: opts.cpu, Timeout: opts.timeout}

	if opts.out != "" {
		// No stale profiles from an earlier run beside this run's error.
		for _, kind := range []string{".cpu.pprof", ".mem.pprof"} {
			if err := os.Remove(filepath.Join(opts.out, name+kind)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, nil, fmt.Errorf("keep profile: %w", err)
			}
		}
	}
	cfg.Args = []string{"-test.cpuprofile=" + cpuPath}
	o, err := t.Binary.Run(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	res := o.Results
	if o.Status != results.StatusOK {
		row.Status, row.Error = o.Status, o.Error
		return row, res, nil
	}
	cfg.Args = []string{"-test.memprofile=" + memPath, "-test.memprofilerate=" + strconv.Itoa(opts.memRate)}
	o, err = t.Binary.Run(ctx, cfg)
	if err != nil {
		return nil, nil, err
	}
	if o.Status != results.StatusOK {
		row.Status, row.Error = o.Status, "heap profile run: "+o.Error
		return row, res, nil
	}
	if opts.out != "" {
		row.CPUProfile = filepath.Join(opts.out, name+".cpu.pprof")
		row.HeapProfile = filepath.Join(opts.out, name+".mem.pprof")
		if err := copyFile(cpuPath, row.CPUProfile); err != nil {
			return nil, nil, fmt.Errorf("keep profile: %w", err)
		}
		if err := copyFile(memPath, row.HeapProfile); err != nil {
			return nil, nil, fmt.Errorf("keep profile: %w", err)
		}
	}
	root := pkg.ModuleDir
	if root == "" {
		root = pkg.Dir
	}
	a, err := profiles.Analyze(cpuPath, memPath, profiles.Options{ModuleDir: root, ModulePath: pkg.ModulePath, Benchmark: t.Name})
	if err != nil {
		row.Status, row.Error = results.StatusFailed, err.Error()
		return row, res, nil
	}
	row.Analysis = a
	return row, res, nil
}

// profileBenchmarkJSON describes a profiled benchmark. Its metrics come
// from the CPU run (one sample each) when the benchmark has a single
// result line; a benchmark with sub-benchmarks or several -cpu values is
// profiled as a whole and has none.
func profileBenchmarkJSON(row *report.ProfileRow, res []*benchfmt.Result) report.BenchmarkJSON {
	bj := report.BenchmarkJSON{
		Package: row.Package, Name: row.Name, Status: string(row.Status), Error: row.Error,
		Metrics: map[string]*report.Metric{}, CPUProfile: row.CPUProfile, HeapProfile: row.HeapProfile,
	}
	if len(res) == 1 {
		name, procs := stats.SplitProcs(res[0].Name)
		if "Benchmark"+name == row.Name {
			bj.Procs = procs
			for _, v := range res[0].Values {
				bj.Metrics[v.Unit] = report.NewMetric(stats.Summarize([]float64{v.Value}, v.Unit, nil))
			}
		}
	}
	return bj
}

// profileNames gives each target the file name its profiles are kept
// under: the benchmark's name with slashes replaced, prefixed by its
// package path where two packages share a benchmark name.
func profileNames(targets []gotest.Target) []string {
	count := map[string]int{}
	for _, t := range targets {
		count[t.Name]++
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		n := t.Name
		if count[n] > 1 {
			n = t.Binary.Package.ImportPath + "." + n
		}
		names[i] = sanitizeName(n)
	}
	return names
}

func sanitizeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '/', '\\', ':', '*', '?', '"', '<', '>', '|', ' ':
			return '_'
		}
		return r
	}, s)
}

func copyFile(from, to string) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if _, err := io.Copy(out, in); err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return nil
}
