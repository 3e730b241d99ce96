package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/check"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
)

const checkUsage = `
usage: perfloop check [flags] BASE [HEAD] [packages]

Check is a CI gate that says why a change got slower. It runs the
benchmarks of BASE and HEAD (default: the work tree) interleaved and
paired, as perfloop diff does, and fails (exit 1) when a benchmark regresses
beyond its threshold, a budget is broken or a side fails to build or run.
For every regression it profiles both sides and names the causes: the
module lines whose CPU time per op grew, the allocation sites that are new
or allocate more per op, the lines the compiler now puts on the heap (with
the step that sends them there) and the functions it no longer inlines.

A time row regresses when it is significantly slower by more than
-threshold (or, with -calibrate, the benchmark's own noise measured by an
A/A run of BASE against itself on this machine, whichever is larger);
allocs/op regresses when HEAD allocates half an allocation more per op.
A row too noisy to rule out a regression beyond its threshold is
"inconclusive": reported, exit 0 unless -strict.

A benchmark that got slower while executing no function the change
touched, on either side (coverage of one iteration says so), only had its
code moved in the binary: it is listed under "moved with code layout" and
does not fail. A package whose test binaries hold the same machine code
on both sides is not run at all.

Budgets are limits HEAD must keep: -budget 'PATTERN UNIT OP VALUE'
(repeatable), OP one of == <= < >= >, VALUE a number or a percentage of
BASE ("+5%"); for example -budget 'BenchmarkEncode allocs/op == 0'. They
can also be kept in perfloop.json at the module root:

	{"check": {"threshold": "5%", "budgets": ["BenchmarkEncode allocs/op == 0"]}}

-json prints perfloop.check/v1; -markdown FILE writes a pull request
comment; when $GITHUB_STEP_SUMMARY is set the same Markdown is appended to
it. docs/check.md has a GitHub Actions workflow.

Sharded, n runners each check a share of the benchmarks: -shard i/n
(1 ≤ i ≤ n) checks the i-th share (both sides' benchmarks sorted and
dealt out in turn) and prints its partial result as JSON, exiting 0 once
it is written whatever it found; -merge FILE... joins the n partial
results into one verdict, printed, written (-markdown,
$GITHUB_STEP_SUMMARY) and exited with as a check's.

	perfloop check -shard 2/3 main > shard-2.json
	perfloop check -merge -markdown pr.md shard-*.json

Interrupted (Ctrl-C or SIGTERM) during the rounds or while profiling, it
prints and writes (-json, -markdown) what it decided so far, with the
verdict "interrupted", and exits 130.

Exit status: 0 pass (or inconclusive), 1 regression, broken budget or
failed side (or inconclusive with -strict), 2 bad flags or revisions, 130
when interrupted.

Examples:

	perfloop check main
	perfloop check -budget 'BenchmarkEncode allocs/op == 0' -markdown pr.md origin/main
	perfloop check -calibrate -threshold 3% -json v1.2.0 HEAD ./codec
`

type checkOptions struct {
	diffOptions
	budgets     []string
	config      string
	calibrate   bool
	strict      bool
	markdown    string
	profileTime time.Duration
	// shard is "i/n" with -shard: this run checks the i-th of n shares
	// of the benchmarks and prints its partial result.
	shard        string
	shardI, nOfN int
	// merge joins the partial results in files into one verdict.
	merge bool
	files []string
}

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (f *stringsFlag) String() string     { return strings.Join(*f, "; ") }
func (f *stringsFlag) Set(v string) error { *f = append(*f, v); return nil }

func runCheck(ctx context.Context, args []string, s Streams) error {
	var opts checkOptions
	fs := newFlagSet("check", checkUsage, s)
	threshold := opts.addDiffFlags(fs, "5%")
	fs.Var((*stringsFlag)(&opts.budgets), "budget", "a `budget` HEAD must keep: 'PATTERN UNIT OP VALUE' (repeatable)")
	fs.StringVar(&opts.config, "config", "", "read threshold and budgets from `file` (default perfloop.json at the module root, when present)")
	fs.BoolVar(&opts.calibrate, "calibrate", false, "run BASE against itself first and raise each benchmark's threshold to its measured noise")
	fs.BoolVar(&opts.strict, "strict", false, "fail (exit 1) when the verdict is inconclusive")
	fs.StringVar(&opts.markdown, "markdown", "", "write the verdict as Markdown for a pull request comment to `file`")
	fs.DurationVar(&opts.profileTime, "profiletime", 2*time.Second, "profile each side of a regression for `d` (a second holds about a hundred samples)")
	fs.StringVar(&opts.shard, "shard", "", "check only shard `i/n` of the benchmarks and print its partial result as JSON, for -merge (exit 0 once it is written)")
	fs.BoolVar(&opts.merge, "merge", false, "join the partial results of -shard runs, the files given as arguments, into one verdict")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if opts.merge {
		if opts.shard != "" || opts.calibrate || len(opts.budgets) > 0 {
			return usageErrorf("-merge joins shards' results: give the shards' files alone (-shard, -calibrate and -budget belong to the shards' runs)")
		}
		if len(pos) == 0 {
			return usageErrorf("-merge: give the files the shards' runs (check -shard i/n) printed")
		}
		opts.files = pos
		return mergeShards(opts, s)
	}
	if opts.shard != "" {
		if opts.shardI, opts.nOfN, err = check.ParseShard(opts.shard); err != nil {
			return usageErrorf("-shard: %v", err)
		}
		opts.json = true
	}
	if opts.profileTime <= 0 {
		return usageErrorf("-profiletime must be a positive duration such as 2s, got %v", opts.profileTime)
	}
	if err := opts.finishDiffFlags(fs, pos, *threshold); err != nil {
		return err
	}
	return checkChange(ctx, opts, s)
}

func checkChange(ctx context.Context, opts checkOptions, s Streams) error {
	gopts, err := opts.decideOptions()
	if err != nil {
		return err
	}
	bar := bar(s)
	defer bar.Done()
	revs, err := buildRevisions(ctx, opts.base, opts.head, opts.tags, opts.patterns, opts.bench, bar)
	if err != nil {
		return err
	}
	defer revs.close()
	var change *check.Change
	changes, err := git.Changes(ctx, revs.root, revs.commits[0], revs.commits[1])
	if rel, dirs, modPath, ok := revs.module(); ok && err == nil {
		change = check.NewChange(changes, rel, dirs, modPath)
	}
	// Packages whose machine code the change leaves alone are not run,
	// unless a budget needs HEAD's figures.
	var unaltered []string
	if len(gopts.Budgets) == 0 {
		if unaltered, err = check.SkipUnaltered(revs.sides, change); err != nil {
			return err
		}
	}
	if opts.shard != "" {
		shardTargets(revs.sides, opts.shardI, opts.nOfN)
	}
	labels := [2]string{revs.sides[0].Label, revs.sides[1].Label}
	if opts.calibrate {
		bar.Status("calibrating: BASE against itself")
		aa, err := abtest.Run(ctx, [2]*abtest.Side{revs.sides[0], revs.sides[0]}, opts.abOptions(), bar)
		if ctx.Err() != nil {
			// Nothing was compared yet: say so, in every output.
			c := check.Decide(&abtest.Result{Labels: labels}, gopts)
			check.Interrupt(c, "interrupted while calibrating (BASE against itself): nothing was compared")
			return interrupted(ctx, s, opts, c, &abtest.Result{Labels: labels}, bar)
		}
		if err != nil && !errors.Is(err, abtest.ErrNoCommon) {
			return err
		}
		gopts.Noise = check.Noise(aa)
	}
	// The rounds' CPU profiles are the first evidence of a regression's
	// causes: profiling then runs only for the samples they lack.
	profDir, err := os.MkdirTemp("", "perfloop-check-rounds-")
	if err != nil {
		return fmt.Errorf("create profile directory: %w", err)
	}
	defer os.RemoveAll(profDir)
	abOpts := opts.abOptions()
	abOpts.CPUProfileDir = profDir
	res, runErr := abtest.Run(ctx, revs.sides, abOpts, bar)
	if errors.Is(runErr, abtest.ErrNoCommon) {
		for _, f := range res.Failures {
			fmt.Fprintf(s.Err, "perfloop: %s: %s\n", [...]string{"BASE", "HEAD"}[f.Side], f)
		}
		switch {
		case len(res.Failures) > 0:
			return failedError{"check: nothing to compare: a side failed to build"}
		case len(unaltered) > 0, opts.shard != "":
			runErr = nil // every package's code is the same, or the shard has no benchmark: pass
		default:
			return usageErrorf("check: no benchmark matching -bench %q exists on both sides", opts.bench)
		}
	}
	if runErr != nil && ctx.Err() == nil {
		return runErr
	}
	c := check.Decide(res, gopts)
	c.Unaltered = unaltered
	if ctx.Err() != nil {
		// The rows the rounds decided are printed and written, as diff
		// prints them; the verdict says the check did not finish.
		check.Interrupt(c, fmt.Sprintf("interrupted during the rounds, after %d round(s): the rows are decided with what was measured, the regressions not profiled", res.Rounds))
		return interrupted(ctx, s, opts, c, res, bar)
	}
	if len(c.Regressions) > 0 || len(c.Improvements) > 0 {
		// Regressions are profiled; both they and improvements of time
		// are checked for code layout.
		eopts := check.ExplainOptions{ProfileTime: opts.profileTime.String(), CPU: opts.cpu, Timeout: opts.timeout, Tags: opts.tags, Change: change}
		if err := check.Explain(ctx, revs.sides, c, res, eopts, bar); err != nil {
			if ctx.Err() == nil {
				return err
			}
			check.Interrupt(c, "interrupted while profiling the regressions: their causes are incomplete")
			return interrupted(ctx, s, opts, c, res, bar)
		}
	}
	bar.Done()
	return renderCheck(s, opts, c, res)
}

// interrupted renders what an interrupted check decided (see
// check.Interrupt) and returns ctx's error: exit 130.
func interrupted(ctx context.Context, s Streams, opts checkOptions, c *document.Check, res *abtest.Result, bar *progress.Bar) error {
	bar.Done()
	if err := renderCheck(s, opts, c, res); err != nil {
		return err
	}
	return ctx.Err()
}

// decideOptions reads the threshold and budgets from the flags and the
// configuration file.
func (o *checkOptions) decideOptions() (check.Options, error) {
	cfgPath := o.config
	if cfgPath == "" {
		if root, err := findModuleRoot(); err == nil {
			cfgPath = filepath.Join(root, "perfloop.json")
		}
	}
	var cfg check.Config
	if cfgPath != "" {
		var err error
		if cfg, err = check.ReadConfig(cfgPath); err != nil || o.config != "" && !exists(cfgPath) {
			if err == nil {
				err = fmt.Errorf("%s: no such file", cfgPath)
			}
			return check.Options{}, usageErrorf("-config: %v", err)
		}
	}
	g := check.Options{Threshold: o.threshold, Settle: o.settle}
	if cfg.Threshold != "" && !o.thresholdSet {
		t, err := parsePercent(cfg.Threshold)
		if err != nil {
			return check.Options{}, usageErrorf("%s: threshold: %v", cfgPath, err)
		}
		g.Threshold = t
	}
	for _, text := range append(cfg.Budgets, o.budgets...) {
		b, err := check.ParseBudget(text)
		if err != nil {
			return check.Options{}, usageErrorf("-budget: %v", err)
		}
		g.Budgets = append(g.Budgets, b)
	}
	return g, nil
}

// shardTargets keeps on both sides the benchmarks of shard i of n.
func shardTargets(sides [2]*abtest.Side, i, n int) {
	key := func(t gotest.Target) string { return t.Binary.Package.ImportPath + " " + t.Name }
	var keys []string
	for _, s := range sides {
		for _, t := range s.Suite.Targets {
			keys = append(keys, key(t))
		}
	}
	for _, s := range sides {
		s.Suite.Targets = slices.DeleteFunc(s.Suite.Targets, func(t gotest.Target) bool { return !check.InShard(key(t), keys, i, n) })
	}
}

// mergeShards reads the shards' partial results, joins them into one
// verdict and renders it as a check does.
func mergeShards(opts checkOptions, s Streams) error {
	var parts []*document.Check
	for _, f := range opts.files {
		data, err := os.ReadFile(f)
		if err != nil {
			return usageErrorf("-merge: %v", err)
		}
		var c document.Check
		if err := json.Unmarshal(data, &c); err != nil || c.Schema != document.CheckSchema {
			if err == nil {
				err = fmt.Errorf("schema %q, want %s", c.Schema, document.CheckSchema)
			}
			return usageErrorf("-merge: %s is not a shard's result (perfloop check -shard i/n): %v", f, err)
		}
		if c.Shard == "" {
			return usageErrorf("-merge: %s is not a shard's result: run perfloop check -shard i/n", f)
		}
		parts = append(parts, &c)
	}
	c, err := check.Merge(parts)
	if err != nil {
		return usageErrorf("-merge: %v", err)
	}
	return renderCheck(s, opts, c, &abtest.Result{})
}
