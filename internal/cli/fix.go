package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
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
patch was kept, so it holds the patches of one run alone; a run that
keeps nothing leaves an earlier -out as it was, and a -out that holds
other files is refused.

Outcomes are listed with every candidate: kept (with the change and its
95% interval), "build failed", "vet failed", "tests failed", "no
significant change (could detect ±x%)", "made … worse", "cold in
production", "not reached" when -time ran out. A rewrite that changes a
type's fields or an exported signature is marked for review and never
applied by -apply.

-production PROFILE (a CPU or heap profile of the real program, such as
the main package's default.pgo) leaves the sites of functions below
-min-share of it alone: "cold in production: not rewritten".

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
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	if opts.from != "" && !strings.HasSuffix(opts.from, ".json") {
		opts.from = strings.TrimSuffix(opts.from, "/") + "/report.json"
	}
	// The patches are written in a directory beside -out that takes its
	// place once a patch was kept (see outputDir).
	out, err := newOutputDir("-out", opts.out, fixFile)
	if err != nil {
		return err
	}
	defer out.discard()
	bar := bar(s)
	defer bar.Done()
	cfg := fix.Config{
		From: opts.from, Loop: opts.loopConfig(), ProfileTime: opts.profileTime,
		Production: opts.production, Apply: opts.apply,
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

func renderFix(s Streams, opts fixOptions, res *document.Fix) error {
	if opts.json {
		enc := json.NewEncoder(s.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	w := tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "kept\tsite\trewrite\tbenchmarks\tchange [95%% CI]\ttests\n")
	for _, k := range res.Kept {
		review := ""
		if k.Review {
			review = " (review)"
		}
		for i, m := range k.Benchmarks {
			if !m.Significant && i > 0 {
				continue
			}
			site, rw, tests := "", "", ""
			if i == 0 {
				site, rw, tests = fmt.Sprintf("%s:%d", k.File, k.Line), k.Rewrite+review, fmt.Sprintf("%d package(s) pass", len(k.Tests))
			}
			fmt.Fprintf(w, "\t%s\t%s\t%s %s\t%s\t%s\n", site, rw, m.Name, m.Unit, change(m), tests)
		}
	}
	w.Flush()
	if len(res.Kept) == 0 {
		fmt.Fprintln(s.Out, "  (none kept)")
	}
	if len(res.Rejected) > 0 {
		fmt.Fprintln(s.Out)
		w = tabwriter.NewWriter(s.Out, 0, 4, 2, ' ', 0)
		fmt.Fprintf(w, "not kept\tsite\trewrite\treason\n")
		for _, r := range res.Rejected {
			fmt.Fprintf(w, "\t%s:%d\t%s\t%s\n", r.File, r.Line, r.Rewrite, r.Reason)
		}
		w.Flush()
	}
	if len(res.BaselineFailures) > 0 {
		fmt.Fprintf(s.Out, "\nfailing at %s before any edit (not held against the candidates):\n", short(res.Commit))
		for _, f := range res.BaselineFailures {
			fmt.Fprintf(s.Out, "  %s\n", f)
		}
	}
	if res.Together != "" {
		fmt.Fprintf(s.Out, "\n%s\n", res.Together)
	}
	if len(res.Kept) > 0 {
		if res.Applied {
			fmt.Fprintf(s.Out, "applied to the work tree (not committed); measure again with:\n  perfloop diff HEAD %s\n", strings.Join(opts.patterns, " "))
		} else {
			fmt.Fprintf(s.Out, "patches in %s: git apply %s/all.patch (or one NN-*.patch on its own), then perfloop diff HEAD\n", opts.out, opts.out)
		}
	}
	return nil
}

// fixFile says whether a name in a fix -out directory is one perfloop fix
// writes there: NN-KIND-FILE-LINE.patch and all.patch.
func fixFile(name string, isDir bool) bool {
	return !isDir && strings.HasSuffix(name, ".patch")
}

// change formats a measured row: "−33.3% [−33.3%, −33.3%]".
func change(m document.FixMeasured) string {
	t := fmt.Sprintf("%+.1f%%", m.Delta*100)
	if m.CI != [2]float64{} && !math.IsNaN(m.CI[0]) {
		t += fmt.Sprintf(" [%+.1f%%, %+.1f%%]", m.CI[0]*100, m.CI[1]*100)
	}
	if !m.Significant {
		t += " (n.s.)"
	}
	return t
}
