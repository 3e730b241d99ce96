package cli

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/stats"
)

const diffUsage = `
usage: perfloop diff [flags] BASE [HEAD]

Diff answers "did my change make it faster?". It checks out the git
revision BASE (and HEAD, which defaults to the work tree with its
uncommitted changes) into temporary work trees, builds each side's test
binaries once (with -trimpath, so identical code gives identical binaries),
and runs the benchmarks of both sides interleaved: every round runs each
benchmark once per side, back to back in random order, so drift and noisy
neighbours hit both sides alike.

Runs are short (-benchtime, default 10ms, calibrated once into a fixed
iteration count for both sides) and many: a burst of noise spoils one short
run, which the rank test below shrugs off, instead of every long one.

On Linux the benchmark processes of both sides are pinned to one CPU (the
highest-numbered; -pin=false to turn off, and off with -cpu), which removes
the largest source of run-to-run noise on a shared machine: landing on a
CPU busy with interrupts or a neighbour. GOMAXPROCS is then 1.

Each round's HEAD/BASE ratio is one paired observation. The verdict is the
exact Wilcoxon signed-rank test on those ratios, looked at after -min-rounds
rounds and then every few rounds, with the significance level spent across
the looks (alpha spending) and the Benjamini–Hochberg correction across the
rows of each unit. The run stops as soon as every row is decided: changed,
or shown by its 80% interval to be within ±-settle of no change; otherwise
it goes on while -rounds and -time allow. A row still undecided then is
"inconclusive", with the interval of changes it could not rule out. Beside
each row that is not significant it prints the smallest change the run
could have detected at the level it spent. See docs/diff.md for the method
and why it is valid.

Benchmarks present on one side only are listed, not compared.

Exit status: 0 when no benchmark got significantly slower, 1 when one did
(by more than -threshold), 2 on bad flags or revisions, 130 when
interrupted. The temporary work trees are removed in every case.

Examples:

	perfloop diff HEAD                   # uncommitted changes vs the last commit
	perfloop diff -bench Encode main     # the work tree vs branch main
	perfloop diff -json v1.2.0 v1.3.0 ./codec
`

type diffOptions struct {
	benchConfig
	base, head string
	minRounds  int
	maxRounds  int
	budget     time.Duration
	threshold  float64 // relative slowdown that fails the run
	// thresholdSet reports that -threshold was given.
	thresholdSet bool
	settle       float64 // relative change below which a row may settle early
	alpha        float64
	seed         uint64
	json         bool
	pin          bool
}

// pinCPUs returns the CPUs to pin benchmark processes to: one quiet CPU
// with -pin (unless -cpu asks for specific GOMAXPROCS values), else none.
func (o *diffOptions) pinCPUs() []int {
	if !o.pin || o.cpu != "" {
		return nil
	}
	if c := gotest.QuietCPU(); c >= 0 {
		return []int{c}
	}
	return nil
}

func runDiff(ctx context.Context, args []string, s Streams) error {
	var opts diffOptions
	fs := newFlagSet("diff", diffUsage, s)
	threshold := opts.addDiffFlags(fs, "0%")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := opts.finishDiffFlags(fs, pos, *threshold); err != nil {
		return err
	}
	return diff(ctx, opts, s)
}

// addDiffFlags defines the flags diff and check share; it returns the
// -threshold flag's text, which finishDiffFlags parses.
func (opts *diffOptions) addDiffFlags(fs *flag.FlagSet, threshold string) *string {
	opts.addBenchFlags(fs, 0)
	fs.Lookup("benchtime").Usage = "run each benchmark for about `d` per run (default 10ms: calibrated once into a fixed iteration count, raised where the first iteration is cold) or Nx iterations"
	fs.IntVar(&opts.minRounds, "min-rounds", 6, "first look at the data after `n` rounds")
	fs.IntVar(&opts.maxRounds, "rounds", 100, "run at most `n` rounds (the run stops sooner when every row is decided, or at -time)")
	fs.DurationVar(&opts.budget, "time", 5*time.Minute, "stop after about `d` and decide with what was measured")
	th := fs.String("threshold", threshold, "fail (exit 1) only on slowdowns larger than `pct`")
	fs.Func("settle", "stop early when every unchanged row is known to within ±`pct` (default 3%)", func(v string) error {
		var err error
		opts.settle, err = parsePercent(v)
		return err
	})
	opts.settle = 0.03
	fs.Float64Var(&opts.alpha, "alpha", stats.Alpha, "false discovery rate across rows")
	fs.Uint64Var(&opts.seed, "seed", 0, "seed for the run order (0: random)")
	fs.BoolVar(&opts.json, "json", false, "print JSON (diff: perfloop.compare/v1 with rounds and wall_seconds; check: perfloop.check/v1)")
	fs.BoolVar(&opts.pin, "pin", true, "run every benchmark process on one quiet CPU (Linux; off with -cpu)")
	return th
}

// finishDiffFlags takes BASE, HEAD and the packages from the positional
// arguments and checks the flags.
func (opts *diffOptions) finishDiffFlags(fs *flag.FlagSet, pos []string, threshold string) error {
	if len(pos) == 0 {
		return usageErrorf("%s: give the BASE revision (e.g. perfloop %s HEAD)", fs.Name(), fs.Name())
	}
	opts.base, pos = pos[0], pos[1:]
	// HEAD is the second argument when it is not a package pattern.
	if len(pos) > 0 && !looksLikePattern(pos[0]) {
		opts.head, pos = pos[0], pos[1:]
	}
	opts.patterns = pos
	opts.count = 1
	if opts.benchtime == "" {
		opts.benchtime = "10ms"
	}
	var err error
	if opts.threshold, err = parsePercent(threshold); err != nil {
		return usageErrorf("-threshold: %v", err)
	}
	fs.Visit(func(f *flag.Flag) { opts.thresholdSet = opts.thresholdSet || f.Name == "threshold" })
	if !(opts.alpha > 0 && opts.alpha < 1) {
		return usageErrorf("-alpha must be between 0 and 1, got %g", opts.alpha)
	}
	if opts.minRounds < 2 || opts.maxRounds < opts.minRounds {
		return usageErrorf("want 2 <= -min-rounds <= -rounds, got %d and %d", opts.minRounds, opts.maxRounds)
	}
	if opts.seed == 0 {
		opts.seed = uint64(time.Now().UnixNano())
	}
	return opts.validate()
}

// looksLikePattern reports whether arg is a package pattern rather than a
// revision.
func looksLikePattern(arg string) bool {
	return strings.HasPrefix(arg, ".") || strings.HasPrefix(arg, "/") || strings.Contains(arg, "...")
}

func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("want a percentage such as 5%%, got %q", s)
	}
	return v / 100, nil
}

func diff(ctx context.Context, opts diffOptions, s Streams) error {
	bar := bar(s)
	defer bar.Done()
	revs, err := buildRevisions(ctx, opts.base, opts.head, opts.tags, opts.patterns, opts.bench, bar)
	if err != nil {
		return err
	}
	defer revs.close()
	res, err := abtest.Run(ctx, revs.sides, opts.abOptions(), bar)
	bar.Done()
	return renderDiff(s, opts, res, err)
}

func (o *diffOptions) abOptions() abtest.Options {
	return abtest.Options{
		Benchtime: o.benchtime, CPU: o.cpu, Timeout: o.timeout, Pin: o.pinCPUs(),
		MinRounds: o.minRounds, MaxRounds: o.maxRounds, Budget: o.budget,
		Alpha: o.alpha, Settle: o.settle, Seed: o.seed,
	}
}
