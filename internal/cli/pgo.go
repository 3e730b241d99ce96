package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/pgorun"
	"github.com/perfloop/perfloop/internal/render"
)

const pgoUsage = `
usage: perfloop pgo [flags] [packages]

Pgo runs the profile-guided optimization loop and measures it instead of
assuming it. It profiles the benchmarks (-bench; each run once for
-profiletime under the CPU profiler), or a representative command
(-run 'PKG ARGS': the main package PKG built and run with ARGS under the
profiler, its files untouched), merges the profiles into one and prunes
what the compiler does not read (labels, addresses), then writes it as
default.pgo beside each main package that uses the measured packages
(-o FILE for one other path; a module without a main package gets
.perfloop/default.pgo, to copy beside the main package of the binaries
that import it). A default.pgo that perfloop did not write, such as one
you committed, is kept and the fresh profile only measured, unless
-replace.

Then it measures what the profile changes, on this revision:

  - the benchmarks with PGO off and on: two builds of the same code run
    interleaved and paired, as perfloop diff runs two revisions, each row
    with its change, 95% interval and verdict (a gain inside the noise is
    "no change", whatever PGO gains elsewhere);
  - build time and binary size, off and on, from an empty build cache
    (what a clean CI build pays): two builds each, alternated, since one
    is too noisy on a busy machine (-buildcost=false skips them);
  - what the compiler did differently: the hot call sites it inlined or
    devirtualized because of the profile (its -m diagnostics with and
    without it), each with the benchmarks whose profile runs through it.

-check measures an existing profile instead and writes nothing: the share
of its samples in functions that no longer exist or have moved, and
whether a fresh profile changes the benchmarks (current vs fresh,
interleaved).

The result is kept in .perfloop/pgo.json at the module root, where
perfloop report finds it and states the measured gain instead of a
recommendation; -json prints it (perfloop.pgo/v1).

Exit status: 0 (also when PGO gains nothing: that is a result), 1 when a
benchmark failed, 2 on bad flags or packages, 130 when interrupted.

Examples:

	perfloop pgo ./...
	perfloop pgo -run './cmd/server -requests 100000' ./...
	perfloop pgo -check -json ./...
`

type pgoOptions struct {
	benchConfig
	run         string
	profileTime time.Duration
	out         string
	check       bool
	replace     bool
	buildCost   bool
	json        bool
	diff        diffOptions
}

func runPGO(ctx context.Context, args []string, s Streams) error {
	var opts pgoOptions
	fs := newFlagSet("pgo", pgoUsage, s)
	opts.addBenchFlags(fs, 0)
	fs.Lookup("benchtime").Usage = "run each benchmark for about `d` per comparison run (default 10ms, as perfloop diff)"
	fs.StringVar(&opts.run, "run", "", "profile `'PKG ARGS'` (a main package and its arguments) instead of the benchmarks")
	fs.DurationVar(&opts.profileTime, "profiletime", time.Second, "profile each benchmark for `d`")
	fs.StringVar(&opts.out, "o", "", "write the profile to `file` instead of default.pgo beside each main package")
	fs.BoolVar(&opts.replace, "replace", false, "overwrite a default.pgo that perfloop did not write (kept by default)")
	fs.BoolVar(&opts.check, "check", false, "measure the existing profile's staleness and a fresh one against it; write nothing")
	fs.BoolVar(&opts.buildCost, "buildcost", true, "measure build time and binary size from an empty build cache")
	fs.BoolVar(&opts.json, "json", false, "print perfloop.pgo/v1")
	fs.IntVar(&opts.diff.minRounds, "min-rounds", 6, "first look at the data after `n` rounds")
	fs.IntVar(&opts.diff.maxRounds, "rounds", 60, "run at most `n` comparison rounds")
	fs.DurationVar(&opts.diff.budget, "time", 3*time.Minute, "stop comparing after about `d`")
	fs.Uint64Var(&opts.diff.seed, "seed", 0, "seed for the run order (0: random)")
	fs.BoolVar(&opts.diff.pin, "pin", true, "run every benchmark process on one quiet CPU (Linux; off with -cpu)")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	d := &opts.diff
	d.benchConfig = opts.benchConfig
	if d.benchtime == "" {
		d.benchtime = "10ms"
	}
	d.alpha, d.settle = 0.05, 0.01
	if d.minRounds < 2 || d.maxRounds < d.minRounds {
		return usageErrorf("want 2 <= -min-rounds <= -rounds, got %d and %d", d.minRounds, d.maxRounds)
	}
	if d.seed == 0 {
		d.seed = uint64(time.Now().UnixNano())
	}
	if opts.profileTime <= 0 {
		return usageErrorf("-profiletime must be a positive duration such as 1s, got %v", opts.profileTime)
	}
	return pgoRun(ctx, opts, s)
}

func trimX(s string) string {
	if len(s) > 1 && s[len(s)-1] == 'x' {
		return s[:len(s)-1]
	}
	return ""
}

func pgoRun(ctx context.Context, opts pgoOptions, s Streams) error {
	b := bar(s)
	defer b.Done()
	cfg := opts.loopConfig()
	cfg.Benchtime = opts.diff.benchtime
	po := pgorun.Options{Run: opts.run, RunOutput: s.Err, ProfileTime: opts.profileTime.String(), Out: opts.out,
		Check: opts.check, Replace: opts.replace, BuildCost: opts.buildCost, AB: opts.diff.abOptions()}
	if root, err := findModuleRoot(); err == nil {
		vcs := git.ReadVCS(ctx, root)
		po.Commit, po.Dirty = vcs.Commit, vcs.Dirty
	}
	doc, err := pgorun.Run(ctx, cfg, po, b)
	b.Done()
	if errors.Is(err, pgorun.ErrNoProfile) {
		return usageError{err}
	}
	if errors.Is(err, pgorun.ErrNoBenchmarks) {
		return usageErrorf("no benchmarks match -bench %q in %s", opts.bench, strings.Join(opts.patterns, " "))
	}
	if doc == nil || len(doc.Benchmarks) == 0 && err != nil {
		return err
	}
	// Only a finished run stands for the module in perfloop report.
	if !doc.Check && err == nil {
		if root, rerr := findModuleRoot(); rerr == nil {
			keepPGO(root, doc)
		}
	}
	var rerr error
	if opts.json {
		rerr = render.WriteJSON(s.Out, doc)
	} else {
		rerr = render.PGOText(s.Out, doc)
	}
	if err != nil {
		return err
	}
	if rerr != nil {
		return rerr
	}
	if len(doc.Failures) > 0 {
		return failedError{fmt.Sprintf("%d benchmark(s) or package(s) failed; the others were measured", len(doc.Failures))}
	}
	return nil
}

// keepPGO writes doc to .perfloop/pgo.json at root; a failure to keep it
// costs only the report's measured figure, so it is not an error.
func keepPGO(root string, doc *document.PGO) {
	path := filepath.Join(root, loop.PGORecord)
	if _, err := loop.MakeStateDir(root); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".pgo.json.*")
	if err != nil {
		return
	}
	defer os.Remove(f.Name())
	if err := render.WriteJSON(f, doc); err != nil {
		f.Close()
		return
	}
	if f.Close() == nil {
		_ = os.Rename(f.Name(), path)
	}
}
