package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/render"
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
go tool pprof. They are written in a directory beside DIR that takes its
place once the run is done and profiled something: an earlier DIR
survives a run that profiles nothing, and a new one holds no profiles of
an earlier run. An interrupted run keeps the profiles that finished in DIR
when it held none, else in DIR.interrupted. A DIR that holds other files
is refused.

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
	fs.IntVar(&opts.memRate, "memprofilerate", 1, "record an allocation every `bytes` bytes allocated, on average; 1 records every one (default 1: every allocation, so each site's counts are exact)")
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
	// The profiles are kept in a directory beside -out that takes its
	// place once something was profiled (see outputDir).
	var out *outputDir
	popts := loop.ProfileOptions{MemRate: opts.memRate, Hotspots: opts.hotspots, Sites: opts.sites}
	if opts.out != "" {
		var err error
		if out, err = newOutputDir("-out", opts.out, profileFile); err != nil {
			return err
		}
		defer out.discard()
		popts.Keep = out.path()
	}
	ropts := render.ProfileOptions{Hotspots: opts.hotspots, Sites: opts.sites}
	n := 0
	each := func(p *loop.Profiled) error {
		if opts.json {
			return nil
		}
		if n > 0 {
			fmt.Fprintln(s.Out)
		}
		n++
		row := profileRow(p)
		if out != nil {
			row.CPUProfile, row.HeapProfile = out.shown(row.CPUProfile), out.shown(row.HeapProfile)
		}
		return render.ProfileText(s.Out, row, ropts)
	}
	run, err := profileSuite(ctx, opts.benchConfig, popts, s, each)
	if run == nil {
		return err
	}
	if out != nil {
		for i := range run.Doc.Benchmarks {
			b := &run.Doc.Benchmarks[i]
			b.CPUProfile, b.HeapProfile = out.shown(b.CPUProfile), out.shown(b.HeapProfile)
		}
		if werr := keepOutput(s, out, err, "profiles"); werr != nil && err == nil {
			err = werr
		}
	}
	if opts.json {
		if jerr := render.WriteJSON(s.Out, run.Doc); jerr != nil && err == nil {
			err = fmt.Errorf("write JSON: %w", jerr)
		}
	}
	return profileStatus(s, opts.benchConfig, run, err, "the others were profiled")
}

// profileFile says whether a name in a profile -out directory is one
// perfloop profile writes there.
func profileFile(name string, isDir bool) bool {
	return !isDir && (strings.HasSuffix(name, ".cpu.pprof") || strings.HasSuffix(name, ".mem.pprof"))
}

// keepOutput ends a command's output directory: when the run finished and
// wrote something, the directory takes the place of the one asked for;
// when it was interrupted (err), what it wrote is kept without touching
// an earlier directory, and stderr says where; when it wrote nothing, an
// earlier directory stays as it was. what names the files ("profiles").
func keepOutput(s Streams, out *outputDir, err error, what string) error {
	switch {
	case !out.written():
		out.discard()
		return nil
	case err != nil:
		where, kerr := out.keepPartial()
		if kerr != nil {
			return kerr
		}
		fmt.Fprintf(s.Err, "perfloop: the %s that finished are in %s\n", what, where)
		return nil
	}
	_, cerr := out.commit()
	return cerr
}

// profileSuite prepares the suite and profiles it (profile and explain).
func profileSuite(ctx context.Context, cfg benchConfig, popts loop.ProfileOptions, s Streams, each func(*loop.Profiled) error) (*loop.ProfileRun, error) {
	bar := bar(s)
	defer bar.Done()
	suite, err := loop.Prepare(ctx, cfg.loopConfig(), bar)
	if err != nil {
		return nil, err
	}
	defer suite.Close()
	return suite.Profile(ctx, popts, bar, each)
}

// profileStatus prints a profile run's failures and decides the exit
// status; others says what became of the rest.
func profileStatus(s Streams, cfg benchConfig, run *loop.ProfileRun, err error, others string) error {
	for _, f := range run.Failures {
		fmt.Fprintf(s.Err, "perfloop: %s\n", f)
	}
	switch {
	case err != nil:
		return err
	case run.Targets == 0 && run.Broken == 0:
		return usageErrorf("no benchmarks match -bench %q in %s", cfg.bench, strings.Join(cfg.patterns, " "))
	case len(run.Failures) > 0:
		var what []string
		if n := len(run.Failures) - run.Broken; n > 0 {
			what = append(what, fmt.Sprintf("%d of %d benchmarks failed", n, run.Targets))
		}
		if run.Broken > 0 {
			what = append(what, fmt.Sprintf("%d package(s) did not build", run.Broken))
		}
		return failedError{strings.Join(what, " and ") + "; " + others}
	}
	return nil
}

func profileRow(p *loop.Profiled) *render.ProfileRow {
	return &render.ProfileRow{Package: p.Package, Name: p.Name, Status: p.Status, Error: p.Error,
		Analysis: p.Analysis, CPUProfile: p.CPUProfile, HeapProfile: p.HeapProfile}
}
