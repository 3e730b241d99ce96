package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/cmdbench"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/fix"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/stats"
)

const fixUsage = `
usage: perfloop fix [flags] [packages]

Fix closes the loop: it makes the rewrite where the profile says it
matters, and keeps it only when it is measured to help.

It checks the current commit out into a scratch work tree and runs the
report pipeline there (or reads -from DIR/report.json). For every root
cause of the report that has a mechanical rewrite — a slice, map or
builder presized from a known length, string concatenation in a loop
turned into a strings.Builder, fmt.Sprintf with simple verbs turned into
strconv or concatenation, a constant regexp.MustCompile or template moved
to a package variable, an allocation of loop-invariant size hoisted out of
its loop where it is not retained — it:

 1. writes the edit in a fresh work tree of the commit (never in yours);
 2. builds it, vets it and runs the tests of every package that imports the
    edited one; a candidate that fails is dropped, with the reason (tests
    that already fail at the commit, run first, are not held against it:
    they are named in the output);
 3. measures the benchmarks that hit the site with the paired A/B engine
    (as perfloop diff), and keeps the edit only if it is significantly
    better in the finding's unit (allocs/op and B/op for an allocation,
    sec/op for CPU) and no benchmark is significantly worse;
 4. writes one git apply-able patch per kept edit into -out and checks that
    the kept patches apply together and pass the tests.

-out is written in a directory beside it that takes its place once a
candidate was tried, so it holds one run's fix.json and patches alone; a
run that tries no candidate leaves an earlier -out as it was, and a -out
that holds other files is refused.

Outcomes are listed with every candidate: kept (with the change and its
95% interval), "build failed", "vet failed", "tests failed", "no
significant change (could detect ±x%)", "made … worse", "cold in
production", "not reached" when -time ran out. A rewrite that changes a
type's fields or an exported signature is marked for review and never
applied by -apply.

-production PROFILE (a CPU or heap profile of the real program, such as
the main package's default.pgo) leaves the sites of functions below
-min-share of it alone: "cold in production: not rewritten".

-rounds N tries the next layer: after a round that kept a patch, its
kept patches are made in the scratch tree, the report is measured there
again, and its root causes are tried; the rounds stop at the first that
keeps nothing. A table per round, then the tree with every kept patch
measured against the commit (one more A/B comparison, not a sum of the
rounds'); a numbered patch of round 2 applies on top of round 1's, and
all.patch holds them all.

-run PACKAGE -- ARGS (or -run 'PACKAGE ARGS' as perfloop pgo takes it,
or -args 'ARGS', repeated for variants, as perfloop run takes them)
fixes a program instead of benchmarks: the root
causes are perfloop run's, and each candidate's binary runs against the
commit's, paired and interleaved (a round runs each side once, in random
order). It is kept when wall time, CPU time or allocations are
significantly better and the program's stdout and exit status are
byte-identical to the commit's on every run; it runs in the current
directory, its stderr dropped. With -rounds, each next round runs the
program again with the kept patches made, and the tree with every kept
patch runs against the commit's at the end.

Each candidate's time is shown: the build, go vet, the tests and the A/B
comparison. fix writes its result to fix.json in -out, which perfloop
report -from-fix reads.

-apply applies the kept patches that are not for review to the work tree
(which must have no uncommitted changes); it never commits. Then
perfloop diff HEAD measures them again. The work tree is read again right
before the patches are applied: if it changed while fix ran (a file
edited, HEAD moved), nothing is applied (exit 2) and the patches stay in
-out.

Exit status: 0 when the run finished (whether or not anything was kept), 1
when a benchmark failed in the report (its sites are not tried; the rest
are) or perfloop failed, 2 on bad flags, no git repository, or -apply on a
work tree with uncommitted changes or one that changed while fix ran, 130
when interrupted. The scratch work
trees are removed in every case.

Examples:

	perfloop fix ./...
	perfloop fix -json -out fixes ./... > fix.json
	perfloop fix -from perfloop-report/report.json -production cmd/server/default.pgo
	perfloop fix -apply ./codec && perfloop diff HEAD ./codec
	perfloop fix -rounds 3 ./...
	perfloop fix -run ./cmd/wc -- big.txt
`

type fixOptions struct {
	benchConfig
	out         string
	from        string
	json        bool
	apply       bool
	production  string
	minShare    float64
	budget      time.Duration
	abBudget    time.Duration
	profileTime time.Duration
	rounds      int
	run         string
	variants    stringList
	runs        int
}

func runFix(ctx context.Context, args []string, s Streams) error {
	var opts fixOptions
	fs := newFlagSet("fix", fixUsage, s)
	opts.addBenchFlags(fs, 6)
	fs.StringVar(&opts.out, "out", "perfloop-fix", "write the kept patches into `dir`")
	fs.StringVar(&opts.from, "from", "", "take the findings from `dir`/report.json (or a report.json file) instead of measuring a report")
	fs.BoolVar(&opts.json, "json", false, "print the result as JSON (perfloop.fix/v1)")
	fs.BoolVar(&opts.apply, "apply", false, "apply the kept patches not marked for review to the work tree (never commits)")
	fs.StringVar(&opts.production, "production", "", "CPU or heap `profile` of the real program: leave functions below -min-share of it alone")
	opts.minShare = 0.01
	fs.Var((*shareValue)(&opts.minShare), "min-share", "smallest `share` of the production profile (0.01 or 1%) a site's function must have to be rewritten")
	fs.DurationVar(&opts.budget, "time", 20*time.Minute, "stop trying candidates after about `d`; the rest are listed as not reached")
	fs.DurationVar(&opts.abBudget, "candidate-time", 2*time.Minute, "measure each candidate for at most `d`")
	fs.DurationVar(&opts.profileTime, "profiletime", time.Second, "profile each benchmark's CPU for at least `d` in the report (see perfloop report)")
	fs.StringVar(&opts.run, "run", "", "fix the program `'PKG ARGS'` (a main package, its arguments here, after --, or in -args) instead of the benchmarks")
	fs.Var(&opts.variants, "args", "with -run: run the program with these `arguments` (split as a shell would); repeat for variants")
	fs.IntVar(&opts.runs, "runs", 1, "with -run: run each variant `n` times for the report (perfloop run -runs)")
	fs.IntVar(&opts.rounds, "rounds", 1, "try up to `n` rounds: each next one on a report measured with the earlier rounds' kept patches made")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	if opts.rounds < 1 {
		return usageErrorf("-rounds must be 1 or more, got %d", opts.rounds)
	}
	var prog *fix.Program
	if opts.run != "" {
		p, err := fixProgram(&opts)
		if err != nil {
			return err
		}
		prog = p
	}

	if opts.from != "" && !strings.HasSuffix(opts.from, ".json") {
		opts.from = strings.TrimSuffix(opts.from, "/") + "/report.json"
	}
	// The patches are written in a directory beside -out that takes its
	// place once a candidate was tried (see outputDir).
	out, err := newOutputDir("-out", opts.out, fixFile)
	if err != nil {
		return err
	}
	defer out.discard()
	bar := bar(s)
	defer bar.Done()
	cfg := fix.Config{
		From: opts.from, Loop: opts.loopConfig(), ProfileTime: opts.profileTime,
		Production: opts.production, Apply: opts.apply, Rounds: opts.rounds, Program: prog,
		Fix: fix.Options{
			MinShare: opts.minShare, Tags: opts.tags, Budget: opts.budget, Out: out.path(), Threshold: 0.03,
			AB: abtest.Options{Benchtime: "10ms", Timeout: opts.timeout, MinRounds: 6, MaxRounds: 60,
				Budget: opts.abBudget, Alpha: stats.Alpha, Settle: 0.03, Seed: uint64(time.Now().UnixNano())},
		},
		Stage: func(stage string) { bar.Done(); fmt.Fprintf(s.Err, "perfloop: %s\n", stage) },
	}
	res, err := fix.Run(ctx, cfg, bar)
	bar.Done()
	if errors.Is(err, fix.ErrDirty) || errors.Is(err, fix.ErrNoRepo) || errors.Is(err, fix.ErrBadReport) {
		return usageError{err}
	}
	if errors.Is(err, fix.ErrTreeChanged) {
		// What was kept is shown; nothing was applied.
		err = usageError{err}
	}
	if res == nil {
		return err
	}
	for i := range res.Kept {
		res.Kept[i].Patch = out.shown(res.Kept[i].Patch)
	}
	res.Together = out.shown(res.Together)
	// fix.json says what was tried, for perfloop report -from-fix; a run
	// that tried nothing leaves an earlier -out as it was.
	if len(res.Kept)+len(res.Rejected) > 0 {
		if werr := writeFixJSON(out.path("fix.json"), res); werr != nil && err == nil {
			err = werr
		}
	}
	if kerr := keepOutput(s, out, err, "patches"); kerr != nil && err == nil {
		err = kerr
	}
	if rerr := renderFix(s, opts, res); rerr != nil && err == nil {
		err = rerr
	}
	if res.ReportSeconds > 0 {
		fmt.Fprintf(s.Err, "perfloop: the report took %.1fs: %s\n", res.ReportSeconds, render.TimeSpent(res.ReportTiming))
	}
	for _, f := range res.Failures {
		fmt.Fprintf(s.Err, "perfloop: %s\n", f)
	}
	if n := len(res.Failures); n > 0 && err == nil {
		err = failedError{fmt.Sprintf("%d benchmark(s) failed in the report: the sites only they cost were not tried", n)}
	}
	return err
}

// fixProgram reads fix -run's program: its package, and its argument
// lists from -args or the words after the flags (after --), which are
// then not package patterns.
func fixProgram(opts *fixOptions) (*fix.Program, error) {
	switch {
	case opts.runs < 1:
		return nil, usageErrorf("-runs must be at least 1, got %d", opts.runs)
	case opts.from != "":
		return nil, usageErrorf("-from with -run: fix -run takes its findings from perfloop run of the program; drop -from")
	}
	words, err := cmdbench.Split(opts.run)
	if err != nil || len(words) == 0 {
		return nil, usageErrorf("-run %q: want 'PKG ARGS', a main package and its arguments", opts.run)
	}
	given := 0
	for _, n := range []int{len(words) - 1, len(opts.positional), len(opts.variants)} {
		if n > 0 {
			given++
		}
	}
	if given > 1 {
		return nil, usageErrorf("fix -run: give the program's arguments in -run, after -- or with -args: one of them")
	}
	args := opts.positional
	if len(words) > 1 {
		args = words[1:]
	}
	prog := &fix.Program{Package: words[0], Runs: opts.runs, Variants: [][]string{args}}
	if len(opts.variants) > 0 {
		prog.Variants = prog.Variants[:0]
		for _, a := range opts.variants {
			words, err := cmdbench.Split(a)
			if err != nil {
				return nil, usageErrorf("-args %q: %v", a, err)
			}
			prog.Variants = append(prog.Variants, words)
		}
	}
	opts.patterns = nil
	return prog, nil
}

func renderFix(s Streams, opts fixOptions, res *document.Fix) error {
	if opts.json {
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return render.Fix(s.Out, res, opts.patterns, opts.out)
}

// fixFile says whether a name in a fix -out directory is one perfloop fix
// writes there: NN-KIND-FILE-LINE.patch, all.patch and fix.json.
func fixFile(name string, isDir bool) bool {
	return !isDir && (strings.HasSuffix(name, ".patch") || name == "fix.json")
}

// writeFixJSON writes a fix result as perfloop fix -json prints it.
func writeFixJSON(path string, res *document.Fix) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
