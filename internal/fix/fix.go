// Package fix is perfloop fix. Run takes the report of the current commit
// (measured in a scratch work tree of it, or read from a report.json),
// hands it to Try, and applies the kept patches when asked. Try, for each
// root cause of the report that has a mechanical rewrite
// (internal/rewrite), makes the edit in a scratch work tree of the
// measured commit, builds, vets and tests every package that imports the
// edited one, measures the benchmarks that hit the site with the paired
// A/B engine, and keeps the edit — as a patch git apply takes — only when
// it is significantly better in the finding's unit and no benchmark is
// significantly worse. The user's work tree is never touched, unless Run
// is asked to apply the kept patches.
//
// This package is opinionated about honesty. Every candidate ends in one
// outcome, listed with it: kept with its measured change and interval,
// "build failed", "vet failed", "tests failed", "no significant change
// (could detect ±x%)", "made … slower", "cold in production", or "not
// reached" when the time ran out. A gain is claimed only when the A/B
// engine measured it. A rewrite marked for review (it changes a type's
// fields or an exported signature) is measured like any other but never
// applied automatically.
package fix

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/rewrite"
	"github.com/perfloop/perfloop/internal/stats"
)

// Edit is a candidate rewrite of one file of the module.
type Edit struct {
	// Kind names the rewrite: perfloop's own ("presize", "builder",
	// "hoist-const", …) or the analyzer that suggests it
	// ("stringsbuilder", "perfsprint"); Description says what it does
	// in one line.
	Kind, Description string
	// File is relative to the module root; Line is the site.
	File string
	Line int
	// Review marks an edit that changes a type's fields or an exported
	// signature: never applied automatically.
	Review bool
	// Changes are the edit's changes to the file as the module at
	// Options.Dir has it; After is the whole file after them.
	Changes []rewrite.Change
	After   []byte
}

// Options says what to fix and how to measure it.
type Options struct {
	// Repo is the repository's root, Rel the module's directory within
	// it, Commit the commit the report measured (checked out in Dir).
	Repo, Rel, Commit string
	// Dir is the module as the report measured it: a work tree of Commit.
	Dir string
	// Applied, when set, is the patch (git diff) of earlier rounds'
	// kept edits: Dir is Commit with it applied, and so is every work
	// tree of a candidate.
	Applied string
	// Doc is the report whose findings say where to rewrite.
	Doc *document.Report
	// Patterns are the packages the report measured ("./..." when
	// none): they are loaded, with Tags, for the rewrites.
	Patterns []string
	// Production, when set, gives each module function's share of the
	// production profile's cost; sites below MinShare are not rewritten.
	Production map[string]float64
	MinShare   float64
	// Tags are build tags; AB says how to run the paired comparisons
	// (its Budget bounds each candidate's).
	Tags string
	AB   abtest.Options
	// Threshold is the relative change in the wrong direction a
	// significantly worse row must exceed to reject a candidate.
	Threshold float64
	// Budget bounds the whole run; candidates it does not reach are
	// listed as not reached.
	Budget time.Duration
	// Out is the directory the kept patches are written to.
	Out string
	// Program, when set, is the program fix -run measures: Doc is
	// perfloop run's report of it, and each candidate's binary runs
	// against the commit's instead of benchmarks.
	Program *Program
	program programBase

	// round is the round (1 and on) of a run of several, 0 for one;
	// numbered is how many patches earlier rounds kept.
	round, numbered int
}

// candidate is an edit and the root cause it answers.
type candidate struct {
	Edit
	finding document.Finding
}

// Try tries every candidate. It returns what it decided so far with ctx's
// error when interrupted; the scratch work trees are removed in every
// case.
func Try(ctx context.Context, opts Options, bar *progress.Bar) (*document.Fix, error) {
	res, next, err := try(ctx, opts, bar, false)
	next.close()
	return res, err
}

// try is one round of Try. With keep, the work tree of the kept edits
// made together is left for the next round: the returned base, nil when
// nothing was kept.
func try(ctx context.Context, opts Options, bar *progress.Bar, keep bool) (*document.Fix, *roundBase, error) {
	start := time.Now()
	res := &document.Fix{Schema: document.FixSchema, Module: opts.Doc.Module, Commit: opts.Commit, Kept: []document.FixKept{}, Rejected: []document.FixRejected{}}
	defer func() {
		res.WallSeconds = math.Round(time.Since(start).Seconds()*10) / 10
		for i := range res.Kept {
			res.Kept[i].Round = opts.round
		}
		for i := range res.Rejected {
			res.Rejected[i].Round = opts.round
		}
	}()
	bar.Status("finding the rewrites at the root causes")
	all, callees, err := fixes(ctx, opts)
	if err != nil {
		return res, nil, err
	}
	cands, rejected := candidates(opts, all, callees)
	res.Rejected = append(res.Rejected, rejected...)
	if len(cands) == 0 {
		return res, nil, nil
	}
	tmp, err := os.MkdirTemp("", "perfloop-fix-")
	if err != nil {
		return res, nil, err
	}
	var next *roundBase
	defer func() {
		if next == nil {
			os.RemoveAll(tmp)
		}
	}()
	if opts.Out != "" {
		if err := os.MkdirAll(opts.Out, 0o755); err != nil {
			return res, nil, fmt.Errorf("create -out directory: %w", err)
		}
	}
	// The tests that fail before any edit are not held against the
	// candidates.
	bar.Status("running the tests at " + short(opts.Commit))
	base, err := baselineTests(ctx, opts, cands)
	if err != nil {
		return res, nil, err
	}
	res.BaselineFailures = base.lines()
	if opts.Program != nil {
		bar.Status("building " + opts.Program.Package + " at " + short(opts.Commit))
		if err := opts.program.build(ctx, opts, tmp); err != nil {
			return res, nil, err
		}
	}
	// The next candidate is built, vetted and tested while this one is
	// measured: the paired rounds shrug off the extra load.
	prep := func(i int) <-chan *prepared {
		ch := make(chan *prepared, 1)
		go func() { ch <- prepare(ctx, opts, base, cands[i], filepath.Join(tmp, fmt.Sprintf("c%d", i))) }()
		return ch
	}
	bases := baseSides{} // the commit's benchmark binaries, built once
	defer bases.close()
	var edits []Edit                // the kept ones'
	var benches, benchPkgs []string // the benchmarks they were measured on
	coming := prep(0)
	for i, c := range cands {
		p := <-coming
		coming = nil
		if i+1 < len(cands) && (opts.Budget <= 0 || time.Since(start) < opts.Budget) {
			coming = prep(i + 1)
		}
		bar.Status(fmt.Sprintf("candidate %d of %d: %s at %s:%d", i+1, len(cands), c.Kind, c.File, c.Line))
		kept, why, err := p.measure(ctx, opts, bases, bar)
		took := p.took
		p.close()
		if err != nil {
			if coming != nil {
				(<-coming).close()
			}
			return res, nil, err
		}
		if kept == nil {
			r := reject(c, why)
			r.Seconds = took
			res.Rejected = append(res.Rejected, r)
		} else {
			kept.Seconds = took
			name := fmt.Sprintf("%02d-%s-%s-%d.patch", opts.numbered+len(res.Kept)+1, c.Kind, strings.TrimSuffix(filepath.Base(c.File), ".go"), c.Line)
			if opts.Out != "" {
				path := filepath.Join(opts.Out, name)
				if err := os.WriteFile(path, []byte(kept.Patch), 0o644); err != nil {
					if coming != nil {
						(<-coming).close()
					}
					return res, nil, fmt.Errorf("write %s: %w", path, err)
				}
				kept.Patch = path
			}
			res.Kept = append(res.Kept, *kept)
			edits = append(edits, c.Edit)
			names, pkgs := benchmarksOf(opts.Doc, c.finding)
			benches, benchPkgs = union(benches, names), union(benchPkgs, pkgs)
		}
		if coming == nil {
			for _, c := range cands[i+1:] {
				res.Rejected = append(res.Rejected, reject(c, "not reached: -time ran out"))
			}
			break
		}
	}
	res.Together, next, err = together(ctx, opts, base, res.Kept, edits, filepath.Join(tmp, "together"), keep)
	if next != nil {
		next.benches, next.pkgs = benches, benchPkgs
		remove := next.remove
		next.remove = func() error {
			defer os.RemoveAll(tmp)
			if remove != nil {
				return remove()
			}
			return nil
		}
	}
	return res, next, err
}

func reject(c candidate, why string) document.FixRejected {
	return document.FixRejected{File: c.File, Line: c.Line, Rewrite: c.Kind, Description: c.Description, Reason: why, Cause: causeOf(c.finding)}
}

// causeOf names the root cause a candidate answers, as report -from-fix
// finds it again.
func causeOf(f document.Finding) document.FixCause {
	return document.FixCause{File: f.File, Line: f.Line, Message: f.Message}
}

// seconds is a duration in seconds, to a hundredth.
func seconds(d time.Duration) float64 { return math.Round(d.Seconds()*100) / 100 }

// prepared is a candidate's edit in its own work tree, built, vetted and
// tested, or why not.
type prepared struct {
	c        candidate
	dir, mod string
	remove   func() error
	pkgs     []string
	patch    string
	why      string // the rejection, when the checks failed
	err      error  // a failure of perfloop or the machine, or cancellation
	took     document.FixTiming
}

func (p *prepared) close() {
	if p.remove != nil {
		_ = p.remove()
	}
}

// prepare makes one candidate's edit in a fresh work tree of the commit
// and builds, vets and tests the packages it reaches; the tests fail it
// only on failures base (the commit's) does not have.
func prepare(ctx context.Context, opts Options, base testFailures, c candidate, dir string) *prepared {
	p := &prepared{c: c, dir: dir}
	remove, err := git.CheckoutWorktree(ctx, opts.Repo, opts.Commit, dir)
	if err != nil {
		p.err = fmt.Errorf("check out %s: %w", short(opts.Commit), err)
		return p
	}
	p.remove = remove
	p.mod = filepath.Join(dir, opts.Rel)
	if err := applyIndex(ctx, dir, opts.Applied); err != nil {
		p.err = err
		return p
	}
	file := filepath.Join(p.mod, filepath.FromSlash(c.File))
	if err := os.WriteFile(file, c.After, 0o644); err != nil {
		p.err = fmt.Errorf("write the edit: %w", err)
		return p
	}
	pkgs, edited, err := importers(ctx, p.mod, path.Dir(c.File), opts.Tags)
	switch {
	case ctx.Err() != nil:
		p.err = ctx.Err()
	case err != nil:
		p.why = "build failed: " + firstLine(err.Error())
	}
	if p.err != nil || p.why != "" {
		return p
	}
	p.pkgs = pkgs
	fail := func(what, msg string) *prepared {
		if ctx.Err() != nil {
			p.err = ctx.Err()
		} else {
			p.why = what + msg
		}
		return p
	}
	t := time.Now()
	build, err := withGoFiles(ctx, p.mod, opts.Tags, pkgs)
	if err != nil {
		return fail("build failed: ", firstLine(err.Error()))
	}
	var out string
	if len(build) > 0 {
		out, err = goRun(ctx, p.mod, append([]string{"build", "-tags", opts.Tags}, build...)...)
	}
	p.took.Build = seconds(time.Since(t))
	if err != nil {
		return fail("build failed: ", compilerLine(out))
	}
	t = time.Now()
	out, err = goRun(ctx, p.mod, "vet", "-tags", opts.Tags, edited)
	p.took.Vet = seconds(time.Since(t))
	if err != nil {
		return fail("vet failed: ", compilerLine(out))
	}
	t = time.Now()
	failed, err := runTests(ctx, p.mod, opts.Tags, pkgs)
	p.took.Tests = seconds(time.Since(t))
	if err != nil {
		p.err = err
		return p
	}
	if fails := failed.without(base); len(fails) > 0 {
		return fail("tests failed: ", summary(fails))
	}
	patch, err := gitDiff(ctx, dir)
	if err != nil || patch == "" {
		return fail("the edit changed nothing", "")
	}
	p.patch = patch
	return p
}

// measure runs the benchmarks that hit a prepared candidate's site against
// the commit and decides. It returns the kept patch, or why not.
func (p *prepared) measure(ctx context.Context, opts Options, bases baseSides, bar *progress.Bar) (*document.FixKept, string, error) {
	if p.err != nil || p.why != "" {
		return nil, p.why, p.err
	}
	if opts.Program != nil {
		return p.measureProgram(ctx, opts, bar)
	}
	c := p.c
	benches, bpkgs := benchmarksOf(opts.Doc, c.finding)
	if len(benches) == 0 {
		return nil, "no benchmark hits the site: not measured", nil
	}
	bar.Status(fmt.Sprintf("%s:%d: measuring %s", c.File, c.Line, strings.Join(benches, ", ")))
	t := time.Now()
	r, why, err := compare(ctx, opts, [2]abtest.Spec{
		{Role: "BASE", Label: short(opts.Commit), Dir: opts.Dir, Tags: opts.Tags},
		{Role: "HEAD", Label: c.Kind, Dir: p.mod, Tags: opts.Tags},
	}, benches, bpkgs, bases, bar)
	p.took.AB = seconds(time.Since(t))
	if r == nil {
		return nil, why, err
	}
	if len(r.Failures) > 0 {
		return nil, "a benchmark failed with the edit: " + firstLine(r.Failures[0].String()), nil
	}
	rows, gain, worse, mde := decide(r, c.finding, opts.Threshold)
	if worse != "" && timeOnlyAgainstAllocs(rows, opts.Threshold) {
		// Fewer allocations, counted exactly, and a time that looks
		// worse: on a loaded machine a burst of noise can pass the
		// test once. Measure again before rejecting; only a
		// regression that repeats rejects the candidate.
		bar.Status(fmt.Sprintf("%s:%d: fewer allocations but slower: measuring again", c.File, c.Line))
		again, _, err := compare(ctx, opts, [2]abtest.Spec{
			{Role: "BASE", Label: short(opts.Commit), Dir: opts.Dir, Tags: opts.Tags},
			{Role: "HEAD", Label: c.Kind, Dir: p.mod, Tags: opts.Tags},
		}, benches, bpkgs, bases, bar)
		if err != nil {
			return nil, "", err
		}
		if again != nil && len(again.Failures) == 0 {
			rows, gain, worse, mde = decide(again, c.finding, opts.Threshold)
		}
	}
	if worse != "" {
		return nil, worse, nil
	}
	if !gain {
		if mde > 0 && !math.IsInf(mde, 0) {
			return nil, fmt.Sprintf("no significant change (could detect ±%.1f%%)", mde*100), nil
		}
		return nil, "no significant change", nil
	}
	return &document.FixKept{File: c.File, Line: c.Line, Rewrite: c.Kind, Description: c.Description, Patch: p.patch,
		Review: c.Review, Benchmarks: rows, Tests: p.pkgs, Finding: c.finding.Message, Cause: causeOf(c.finding)}, "", nil
}

// compare builds the benchmarks of pkgs on both sides and runs the
// paired A/B comparison of those named benches. It returns the result,
// or why there is none (a build that failed, a comparison that could not
// run) and the error of an interrupted run.
func compare(ctx context.Context, opts Options, specs [2]abtest.Spec, benches, pkgs []string, bases baseSides, bar *progress.Bar) (*abtest.Result, string, error) {
	pattern := "^(" + strings.Join(quoteAll(benches), "|") + ")$"
	var sides [2]*abtest.Side
	var err error
	key := strings.Join(pkgs, " ") + "\x00" + pattern
	if base := bases[key]; base != nil {
		// The commit's binaries of an earlier candidate: only the
		// candidate's side is built.
		sides[0] = base
		sides[1], err = buildSide(ctx, specs[1], pkgs, pattern, bar)
		if err == nil {
			defer abtest.Close([2]*abtest.Side{nil, sides[1]})
		}
	} else {
		sides, err = abtest.Build(ctx, specs, pkgs, pattern, bar)
		builds.Add(2)
		if err == nil {
			if bases != nil {
				bases[key] = sides[0]
				defer abtest.Close([2]*abtest.Side{nil, sides[1]})
			} else {
				defer abtest.Close(sides)
			}
		}
	}
	if err != nil {
		if cerr := ctxErr(ctx); cerr != nil {
			return nil, "", cerr
		}
		return nil, "build failed: " + firstLine(err.Error()), nil
	}
	r, err := abtest.Run(ctx, sides, opts.AB, bar)
	if err != nil {
		if cerr := ctxErr(ctx); cerr != nil {
			return nil, "", cerr
		}
		return nil, "not measured: " + firstLine(err.Error()), nil
	}
	return r, "", nil
}

// units returns the units a finding's gain may show in: sec/op, and the
// allocation units when the cause allocates.
func units(f document.Finding) []string {
	if f.Kind == document.KindAlloc {
		return []string{"allocs/op", "B/op", "sec/op"}
	}
	for _, c := range f.Costs {
		if c.AllocsPerOp > 0 || c.BytesPerOp > 0 {
			return []string{"allocs/op", "B/op", "sec/op"}
		}
	}
	return []string{"sec/op"}
}

// timeOnlyAgainstAllocs reports whether the rows' only significant
// regressions beyond threshold are in sec/op while allocs/op or B/op is
// significantly lower: a time regression that contradicts an exact count,
// worth a second measurement before it rejects a candidate.
func timeOnlyAgainstAllocs(rows []document.FixMeasured, threshold float64) bool {
	slower, fewer := false, false
	for _, m := range rows {
		if !m.Significant {
			continue
		}
		switch {
		case m.Unit == "sec/op" && m.Delta > threshold:
			slower = true
		case (m.Unit == "allocs/op" || m.Unit == "B/op") && m.Delta > threshold:
			return false
		case (m.Unit == "allocs/op" || m.Unit == "B/op") && m.Delta < 0:
			fewer = true
		}
	}
	return slower && fewer
}

// decide reads a comparison: the rows, whether a row in the finding's units
// is significantly better, the first row significantly worse by more than
// threshold (in any unit), and the smallest change the finding's units
// could have shown.
func decide(r *abtest.Result, f document.Finding, threshold float64) (rows []document.FixMeasured, gain bool, worse string, mde float64) {
	want := units(f)
	mde = math.Inf(1)
	for _, t := range r.Tables {
		for _, row := range t.Rows {
			if len(row.Cells) < 2 || row.Cells[1] == nil || !row.Cells[1].Compared {
				continue
			}
			cell := row.Cells[1]
			m := document.FixMeasured{Name: "Benchmark" + row.Benchmark, Unit: t.Unit, Delta: cell.Delta, CI: [2]float64{cell.Low, cell.High}, Significant: cell.Significant}
			if d, lo, hi, _, ok := r.Interval(tablePkg(t), row.FullName, t.Unit); ok {
				m.Delta, m.CI = d, [2]float64{lo, hi}
			}
			for k := range m.CI {
				if math.IsNaN(m.CI[k]) {
					m.CI[k] = 0
				}
			}
			if math.IsNaN(m.Delta) {
				m.Delta = 0
			}
			rows = append(rows, m)
			better := t.Better
			if better == 0 {
				better = -1
			}
			improved := cell.Significant && float64(better)*cell.Delta > 0
			regressed := cell.Significant && float64(better)*cell.Delta < -threshold
			if regressed && worse == "" {
				worse = fmt.Sprintf("made %s worse: %+.1f%% %s", m.Name, cell.Delta*100, t.Unit)
			}
			if slices.Contains(want, t.Unit) {
				gain = gain || improved
				if !math.IsNaN(cell.MDE) {
					mde = min(mde, cell.MDE)
				}
			}
		}
	}
	return rows, gain, worse, mde
}

// tablePkg is the package a table's rows belong to.
func tablePkg(t *stats.Table) string {
	for _, c := range t.Config {
		if p, ok := strings.CutPrefix(c, "pkg: "); ok {
			return p
		}
	}
	return ""
}

// benchmarksOf returns the top-level benchmarks a finding costs, and their
// packages.
func benchmarksOf(doc *document.Report, f document.Finding) (names, pkgs []string) {
	want := f.Benchmarks
	if len(want) == 0 && f.Benchmark != "" {
		want = []string{f.Benchmark}
	}
	for _, w := range want {
		top, _, _ := strings.Cut(w, "/")
		for _, b := range doc.Benchmarks {
			if b.Name == w || strings.HasPrefix(b.Name, top+"/") || b.Name == top {
				if !slices.Contains(names, top) {
					names = append(names, top)
				}
				if !slices.Contains(pkgs, b.Package) {
					pkgs = append(pkgs, b.Package)
				}
			}
		}
	}
	slices.Sort(names)
	slices.Sort(pkgs)
	return names, pkgs
}

// baseSides are the commit's built benchmark binaries of one round, by
// the packages and benchmarks they were built for: built for the first
// candidate that needs them and measured against every later one.
type baseSides map[string]*abtest.Side

func (b baseSides) close() {
	for _, s := range b {
		abtest.Close([2]*abtest.Side{s, nil})
	}
}

// buildSide builds one side of a comparison; builds counts the sides
// built (for tests).
var (
	buildSide = func(ctx context.Context, sp abtest.Spec, pkgs []string, pattern string, bar *progress.Bar) (*abtest.Side, error) {
		builds.Add(1)
		return abtest.BuildSide(ctx, sp, pkgs, pattern, bar)
	}
	builds atomic.Int64
)

// union returns a with the elements of b it lacks, sorted.
func union(a, b []string) []string {
	for _, e := range b {
		if !slices.Contains(a, e) {
			a = append(a, e)
		}
	}
	slices.Sort(a)
	return a
}

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = regexp.QuoteMeta(n)
	}
	return out
}

// importers lists the module's packages that are the edited one or import
// it (directly or not), and the edited package's path.
func importers(ctx context.Context, mod, dir, tags string) ([]string, string, error) {
	out, err := goRun(ctx, mod, "list", "-tags", tags, "-f", "{{.ImportPath}}", "./"+dir)
	if err != nil {
		return nil, "", errors.New(compilerLine(out))
	}
	edited := strings.TrimSpace(out)
	out, err = goRun(ctx, mod, "list", "-e", "-tags", tags, "-test", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", "./...")
	if err != nil {
		return nil, "", errors.New(compilerLine(out))
	}
	var pkgs []string
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		// The test variants ("p [p.test]", "p_test [p.test]", "p.test")
		// name the package whose tests they are.
		p := strings.TrimSuffix(strings.TrimSuffix(f[0], ".test"), "_test")
		if p == edited || slices.Contains(f[1:], edited) {
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
		}
	}
	slices.Sort(pkgs)
	return pkgs, edited, nil
}

// withGoFiles returns the packages of pkgs that have non-test Go files:
// go build refuses a package of test files alone ("no non-test Go
// files"), which its tests build anyway.
func withGoFiles(ctx context.Context, mod, tags string, pkgs []string) ([]string, error) {
	out, err := goRun(ctx, mod, append([]string{"list", "-e", "-tags", tags, "-f", "{{if .GoFiles}}{{.ImportPath}}{{end}}"}, pkgs...)...)
	if err != nil {
		return nil, errors.New(compilerLine(out))
	}
	return strings.Fields(out), nil
}

// together makes the kept edits that are not for review in one work
// tree of the round's base: the changes to each file merged
// (rewrite.Merge) and made at once (rewrite.Apply), so that two rewrites
// of one file — two hoisted regexps, an import both add — always go
// together; an edit whose changes overlap those of an edit kept before
// it is left out, and said. It runs the tests of every package they
// touch (failing only on failures base does not have) and writes the
// whole change from the commit as all.patch into opts.Out. With keep,
// the work tree is left for the next round (in the returned base).
func together(ctx context.Context, opts Options, base testFailures, kept []document.FixKept, edits []Edit, dir string, keep bool) (string, *roundBase, error) {
	byFile := map[string][]rewrite.Change{}
	var files, pkgs, left []string
	n := 0
	for i, e := range edits {
		if e.Review {
			continue
		}
		merged, err := rewrite.Merge(byFile[e.File], e.Changes)
		if err != nil {
			left = append(left, fmt.Sprintf("%s at %s:%d", e.Kind, e.File, e.Line))
			continue
		}
		if _, ok := byFile[e.File]; !ok {
			files = append(files, e.File)
		}
		byFile[e.File] = merged
		n++
		for _, p := range kept[i].Tests {
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
		}
	}
	if n == 0 {
		return "", nil, nil
	}
	remove, err := git.CheckoutWorktree(ctx, opts.Repo, opts.Commit, dir)
	if err != nil {
		return "", nil, fmt.Errorf("check out %s: %w", short(opts.Commit), err)
	}
	defer func() {
		if !keep {
			remove()
		}
	}()
	if err := applyIndex(ctx, dir, opts.Applied); err != nil {
		return "", nil, err
	}
	mod := filepath.Join(dir, opts.Rel)
	for _, file := range files {
		src, err := os.ReadFile(filepath.Join(opts.Dir, filepath.FromSlash(file)))
		if err != nil {
			return "", nil, err
		}
		after, err := rewrite.Apply(file, src, byFile[file])
		if err != nil {
			// Merge let them through, so this is a fault of the
			// edits, not of the module: say so and keep nothing.
			return fmt.Sprintf("the kept edits of %s do not go together: %s", file, firstLine(err.Error())), nil, nil
		}
		if err := os.WriteFile(filepath.Join(mod, filepath.FromSlash(file)), after, 0o644); err != nil {
			return "", nil, fmt.Errorf("write the kept edits: %w", err)
		}
	}
	slices.Sort(pkgs)
	failed, err := runTests(ctx, mod, opts.Tags, pkgs)
	if err != nil {
		return "", nil, err
	}
	if fails := failed.without(base); len(fails) > 0 {
		return "together, the kept patches fail the tests: " + summary(fails), nil, nil
	}
	msg := fmt.Sprintf("the %d kept patch(es) apply together and pass the tests of %d package(s)", n, len(pkgs))
	if opts.Applied != "" {
		msg = fmt.Sprintf("the %d kept patch(es) of round %d apply together on top of the earlier rounds' and pass the tests of %d package(s)", n, opts.round, len(pkgs))
	}
	if len(base) > 0 {
		msg += " (but for the tests that fail at the commit already)"
	}
	if len(left) > 0 {
		msg += fmt.Sprintf("; left out of all.patch, as it edits the lines of a rewrite kept before it: %s", strings.Join(left, ", "))
	}
	// The whole change from the commit: earlier rounds' and this one's.
	whole, err := git.ScratchGit(ctx, dir, "diff", "--no-color", "--no-ext-diff", "HEAD").Output()
	if err != nil {
		return msg, nil, fmt.Errorf("git diff: %w", err)
	}
	if opts.Out != "" {
		path := filepath.Join(opts.Out, "all.patch")
		if err := os.WriteFile(path, whole, 0o644); err != nil {
			return msg, nil, fmt.Errorf("write %s: %w", path, err)
		}
		msg += "; " + path + " holds them as one patch for git apply"
	}
	rb := &roundBase{dir: dir, mod: mod, patch: string(whole)}
	if keep {
		rb.remove = remove
	}
	return msg, rb, nil
}

// roundBase is what a round leaves for the next: a work tree of the
// commit with every kept edit so far made, and the patch from the commit
// to it.
type roundBase struct {
	dir, mod string
	remove   func() error
	patch    string
	// benches and pkgs are the benchmarks the round's kept edits were
	// measured on, and their packages.
	benches, pkgs []string
}

func (b *roundBase) close() {
	if b != nil && b.remove != nil {
		_ = b.remove()
	}
}

// applyIndex applies a patch (git diff output) to a scratch work tree and
// its index, so that git diff then shows only what is changed after it.
func applyIndex(ctx context.Context, dir, patch string) error {
	if patch == "" {
		return nil
	}
	cmd := git.ScratchGit(ctx, dir, "apply", "--index", "-")
	cmd.Stdin = strings.NewReader(patch)
	if out, err := cmd.CombinedOutput(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("apply the earlier rounds' patch: %s", firstLine(string(out)))
	}
	return nil
}

func goRun(ctx context.Context, dir string, args ...string) (string, error) {
	cmd, done, err := gotest.GoCommand(ctx, dir, nil, args...)
	if err != nil {
		return "", err
	}
	defer done()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func gitDiff(ctx context.Context, dir string) (string, error) {
	out, err := git.ScratchGit(ctx, dir, "diff", "--no-color", "--no-ext-diff").Output()
	return string(out), err
}

func ctxErr(ctx context.Context) error { return ctx.Err() }

// compilerLine is the first line of the go command's output that says
// something (not a "# package" header).
func compilerLine(out string) string {
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return "no output"
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

func short(commit string) string { return commit[:min(12, len(commit))] }
