package cli

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/report"
	"github.com/perfloop/perfloop/internal/results"
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
or shown by its 80% interval to be within ±-settle of no change. Beside each
"no significant change" it prints the smallest change the run could have
detected. See docs/diff.md for the method and why it is valid.

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
	settle     float64 // relative change below which a row may settle early
	alpha      float64
	seed       uint64
	json       bool
	pin        bool
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
	opts.addBenchFlags(fs, 0)
	fs.IntVar(&opts.minRounds, "min-rounds", 6, "first look at the data after `n` rounds")
	fs.IntVar(&opts.maxRounds, "rounds", 30, "run at most `n` rounds")
	fs.DurationVar(&opts.budget, "time", 5*time.Minute, "stop after about `d` and decide with what was measured")
	threshold := fs.String("threshold", "0%", "fail (exit 1) only on slowdowns larger than `pct`")
	settle := fs.String("settle", "3%", "stop early when every unchanged row is known to within ±`pct`")
	fs.Float64Var(&opts.alpha, "alpha", stats.Alpha, "false discovery rate across rows")
	fs.Uint64Var(&opts.seed, "seed", 0, "seed for the run order (0: random)")
	fs.BoolVar(&opts.json, "json", false, "print perfloop.compare/v1 JSON with rounds and wall_seconds")
	fs.BoolVar(&opts.pin, "pin", true, "run every benchmark process on one quiet CPU (Linux; off with -cpu)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return usageErrorf("diff: give the BASE revision (e.g. perfloop diff HEAD)")
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
	if opts.threshold, err = parsePercent(*threshold); err != nil {
		return usageErrorf("-threshold: %v", err)
	}
	if opts.settle, err = parsePercent(*settle); err != nil {
		return usageErrorf("-settle: %v", err)
	}
	if opts.minRounds < 2 || opts.maxRounds < opts.minRounds {
		return usageErrorf("want 2 <= -min-rounds <= -rounds, got %d and %d", opts.minRounds, opts.maxRounds)
	}
	if opts.seed == 0 {
		opts.seed = uint64(time.Now().UnixNano())
	}
	if err := opts.validate(); err != nil {
		return err
	}
	return diff(ctx, opts, s)
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

// diffSide is one revision's checkout and built benchmarks.
type diffSide struct {
	label string // "BASE abc1234" for headers
	dir   string // module directory in the checkout
	suite *gotest.Suite
}

// diffUnit is one benchmark (sub-benchmark) run as a unit of a round.
type diffUnit struct {
	pkg        string
	base, head *gotest.Binary
	name       string // top-level benchmark
	sub        string // exact sub-benchmark pattern, or ""
	benchtime  string // "Nx", calibrated
	failed     string // error once a side failed
}

func diff(ctx context.Context, opts diffOptions, s Streams) (err error) {
	start := time.Now()
	p := newProgress(s)
	defer p.done()

	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := gotest.RepoRoot(ctx, cwd)
	if err != nil {
		return usageError{err}
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "perfloop-diff-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	checkout := func(rev, name string) (string, string, error) {
		commit, err := gotest.ResolveRevision(ctx, root, rev)
		if err != nil {
			return "", "", usageError{err}
		}
		dir := filepath.Join(tmp, name)
		p.status(fmt.Sprintf("checking out %s", rev))
		if err := gotest.AddWorktree(ctx, root, commit, dir); err != nil {
			return "", "", err
		}
		return filepath.Join(dir, rel), commit[:min(12, len(commit))], nil
	}
	baseDir, baseCommit, err := checkout(opts.base, "base")
	if err != nil {
		return err
	}
	defer gotest.RemoveWorktree(root, filepath.Join(tmp, "base"))
	headDir, headLabel := cwd, "work tree"
	if opts.head != "" {
		var commit string
		headDir, commit, err = checkout(opts.head, "head")
		if err != nil {
			return err
		}
		defer gotest.RemoveWorktree(root, filepath.Join(tmp, "head"))
		headLabel = opts.head + " " + commit
	}

	sides := []*diffSide{
		{label: opts.base + " " + baseCommit, dir: baseDir},
		{label: headLabel, dir: headDir},
	}
	// Both sides build at once: much of a build is waiting on the
	// linker and the go command, not on the CPU.
	var wg sync.WaitGroup
	errs := make([]error, len(sides))
	for i, side := range sides {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tc := &gotest.Toolchain{Dir: side.dir, Tags: opts.tags, BuildFlags: []string{"-trimpath"}}
			which := [...]string{"BASE", "HEAD"}[i]
			suite, err := tc.Prepare(ctx, opts.patterns, opts.bench, func(msg string) { p.status(which + ": " + msg) })
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", which, err)
				return
			}
			side.suite = suite
		}()
	}
	wg.Wait()
	for _, side := range sides {
		if side.suite != nil {
			defer side.suite.Close()
		}
	}
	for i, err := range errs {
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return usageError{err}
		}
		for _, pe := range sides[i].suite.Failed {
			fmt.Fprintf(s.Err, "perfloop: %s: %s: %v\n", [...]string{"BASE", "HEAD"}[i], pe.Package, pe.Err)
		}
	}

	units, onlyBase, onlyHead := matchTargets(sides[0].suite, sides[1].suite)
	for _, n := range onlyBase {
		fmt.Fprintf(s.Err, "perfloop: only in BASE, not compared: %s\n", n)
	}
	for _, n := range onlyHead {
		fmt.Fprintf(s.Err, "perfloop: only in HEAD, not compared: %s\n", n)
	}
	if len(units) == 0 {
		return usageErrorf("diff: no benchmark matching -bench %q exists on both sides", opts.bench)
	}

	units, err = calibrate(ctx, units, opts, sides[0].suite.Sub, p)
	if err != nil {
		return err
	}

	run := &pairedRun{opts: opts, labels: [2]string{sides[0].label, sides[1].label}, pairs: map[rowKey]*pairs{}}
	rng := rand.New(rand.NewPCG(opts.seed, opts.seed>>1|1))
	looks := stats.Looks(opts.minRounds, opts.maxRounds)
	nextLook, prevLook := 0, 0
	p.start(opts.maxRounds*len(units), "")
	var roundTime time.Duration
	for round := 1; round <= opts.maxRounds; round++ {
		roundStart := time.Now()
		order := rng.Perm(len(units))
		if round == 1 {
			// Source order first, so tables list benchmarks as declared;
			// later rounds shuffle.
			for i := range order {
				order[i] = i
			}
		}
		for _, i := range order {
			u := units[i]
			if u.failed != "" {
				p.step("")
				continue
			}
			p.describe(fmt.Sprintf("%s (round %d/%d)", u.displayName(), round, opts.maxRounds))
			baseFirst := rng.IntN(2) == 0
			if err := run.round(ctx, u, baseFirst, opts); err != nil {
				return err
			}
			p.step("")
		}
		run.rounds = round
		roundTime = time.Since(roundStart)
		last := round == opts.maxRounds || time.Since(start)+roundTime > opts.budget
		if round == looks[nextLook] || last {
			level := stats.Spend(opts.alpha, prevLook, round, opts.maxRounds)
			if last {
				// Spend everything left: the sum over looks stays α.
				level = stats.Spend(opts.alpha, prevLook, opts.maxRounds, opts.maxRounds)
			}
			prevLook = round
			for nextLook < len(looks)-1 && looks[nextLook] <= round {
				nextLook++
			}
			if run.look(level) || last {
				break
			}
		}
	}
	p.done()
	run.wall = time.Since(start)
	return run.finish(units, s)
}

func (u *diffUnit) displayName() string {
	if u.sub == "" {
		return u.name
	}
	return u.name + "/" + u.sub
}

// matchTargets pairs the benchmarks of both suites by package and name.
func matchTargets(base, head *gotest.Suite) (units []*diffUnit, onlyBase, onlyHead []string) {
	key := func(t gotest.Target) string { return t.Binary.Package.ImportPath + " " + t.Name }
	heads := map[string]gotest.Target{}
	for _, t := range head.Targets {
		heads[key(t)] = t
	}
	seen := map[string]bool{}
	for _, t := range base.Targets {
		k := key(t)
		seen[k] = true
		h, ok := heads[k]
		if !ok {
			onlyBase = append(onlyBase, k)
			continue
		}
		units = append(units, &diffUnit{pkg: t.Binary.Package.ImportPath, base: t.Binary, head: h.Binary, name: t.Name})
	}
	for _, t := range head.Targets {
		if !seen[key(t)] {
			onlyHead = append(onlyHead, key(t))
		}
	}
	return units, onlyBase, onlyHead
}

// calibrate runs each benchmark once on BASE for -benchtime and fixes its
// iteration count, per sub-benchmark, so every later run does the same work
// on both sides without the testing package's ramp-up. With an explicit Nx
// -benchtime, that N is used as is.
func calibrate(ctx context.Context, units []*diffUnit, opts diffOptions, userSub string, p *progress) ([]*diffUnit, error) {
	bt := opts.benchtime
	if strings.HasSuffix(bt, "x") {
		for _, u := range units {
			u.sub, u.benchtime = userSub, bt
		}
		return units, nil
	}
	var out []*diffUnit
	p.start(len(units), "calibrating")
	for _, u := range units {
		p.describe("calibrating " + u.name)
		o, err := u.base.Run(ctx, gotest.RunConfig{Name: u.name, Sub: userSub, Benchtime: bt, CPU: opts.cpu, Timeout: opts.timeout, Pin: opts.pinCPUs()})
		p.step("")
		if err != nil {
			return nil, err
		}
		if o.Status != results.StatusOK || len(o.Results) == 0 {
			u.failed = "BASE: " + o.Error
			out = append(out, u)
			continue
		}
		// One unit per sub-benchmark (GOMAXPROCS variants share it).
		seen := map[string]bool{}
		for _, r := range o.Results {
			name, _ := stats.SplitProcs(r.Name)
			if seen[name] {
				continue
			}
			seen[name] = true
			c := *u
			c.benchtime = fmt.Sprintf("%dx", r.Iters)
			if _, parts := r.Name.Parts(); len(parts) > 0 {
				var subs []string
				for _, part := range parts {
					if part[0] == '/' {
						subs = append(subs, "^"+regexp.QuoteMeta(string(part[1:]))+"$")
					}
				}
				c.sub = strings.Join(subs, "/")
			}
			out = append(out, &c)
		}
	}
	return out, nil
}

// rowKey names one compared row: a benchmark's full name in a package, and
// a unit.
type rowKey struct{ pkg, name, unit string }

// pairs holds a row's paired observations and its decision so far.
type pairs struct {
	base, head  []float64
	significant bool // decided changed at some look
	settled     bool // decided unchanged at some look
	last        stats.Paired
	q           float64
}

// pairedRun accumulates an interleaved run.
type pairedRun struct {
	opts    diffOptions
	labels  [2]string
	pairs   map[rowKey]*pairs
	results [2][]*benchfmt.Result // every result of each side, .file labelled
	rounds  int
	wall    time.Duration
}

// round runs u once per side in the given order and records the pairs.
func (r *pairedRun) round(ctx context.Context, u *diffUnit, baseFirst bool, opts diffOptions) error {
	bins := [2]*gotest.Binary{u.base, u.head}
	order := [2]int{0, 1}
	if !baseFirst {
		order = [2]int{1, 0}
	}
	var got [2]map[string]*benchfmt.Result
	for _, side := range order {
		o, err := bins[side].Run(ctx, gotest.RunConfig{Name: u.name, Sub: u.sub, Benchtime: u.benchtime, CPU: opts.cpu, Timeout: opts.timeout, Pin: opts.pinCPUs()})
		if err != nil {
			return err
		}
		if o.Status != results.StatusOK {
			u.failed = [...]string{"BASE", "HEAD"}[side] + ": " + o.Error
			return nil
		}
		got[side] = map[string]*benchfmt.Result{}
		for _, res := range o.Results {
			res.SetConfig(".file", r.labels[side])
			r.results[side] = append(r.results[side], res)
			got[side][res.Name.String()] = res
		}
	}
	for name, b := range got[0] {
		h, ok := got[1][name]
		if !ok {
			continue
		}
		for _, v := range b.Values {
			hv, ok := h.Value(v.Unit)
			if !ok {
				continue
			}
			k := rowKey{u.pkg, name, v.Unit}
			pr := r.pairs[k]
			if pr == nil {
				pr = &pairs{}
				r.pairs[k] = pr
			}
			pr.base = append(pr.base, v.Value)
			pr.head = append(pr.head, hv)
		}
	}
	return nil
}

// look analyzes every row at significance level level and reports whether
// every row is decided. A row decided changed stays changed; a row whose
// 80% interval lies within ±settle is decided unchanged for now.
func (r *pairedRun) look(level float64) bool {
	byUnit := map[string][]*pairs{}
	for k, pr := range r.pairs {
		pr.last = stats.ComparePaired(pr.base, pr.head, r.opts.alpha)
		byUnit[k.unit] = append(byUnit[k.unit], pr)
	}
	all := true
	for _, rows := range byUnit {
		ps := make([]float64, len(rows))
		for i, pr := range rows {
			ps[i] = pr.last.P
		}
		qs := stats.BenjaminiHochberg(ps)
		for i, pr := range rows {
			pr.q = qs[i]
			if !pr.significant && qs[i] <= level && pr.last.Delta != 0 {
				pr.significant = true
			}
			lo, hi := pr.last.SettleLow, pr.last.SettleHigh
			if pr.last.Ratio {
				pr.settled = !pr.significant && lo > -r.opts.settle && hi < r.opts.settle
			} else {
				pr.settled = !pr.significant && lo == 0 && hi == 0
			}
			if !pr.significant && !pr.settled {
				all = false
			}
		}
	}
	return all
}

// finish prints the verdict table and decides the exit status.
func (r *pairedRun) finish(units []*diffUnit, s Streams) error {
	for _, u := range units {
		if u.failed != "" {
			fmt.Fprintf(s.Err, "perfloop: %s %s: %s\n", u.pkg, u.displayName(), u.failed)
		}
	}
	if len(r.results[0]) == 0 || len(r.results[1]) == 0 {
		return failedError{"diff: no benchmark ran on both sides"}
	}
	// BASE first: stats.Compare makes the first column seen the baseline.
	all := append(append([]*benchfmt.Result(nil), r.results[0]...), r.results[1]...)
	tables, err := stats.Compare(all, nil, stats.Options{Alpha: r.opts.alpha})
	if err != nil {
		return err
	}
	slower := 0
	var noisy []string
	for _, t := range tables {
		pkg := ""
		for _, c := range t.Config {
			if v, ok := strings.CutPrefix(c, "pkg: "); ok {
				pkg = v
			}
		}
		t.Method = fmt.Sprintf("paired: exact Wilcoxon signed-rank on per-round HEAD/BASE ratios (delta = their median), "+
			"sequential with alpha spending, Benjamini–Hochberg across %s rows; %d rounds", t.Unit, r.rounds)
		for _, row := range t.Rows {
			if len(row.Cells) < 2 || row.Cells[1] == nil || !row.Cells[1].Compared {
				continue
			}
			pr := r.pairs[rowKey{pkg, row.FullName, t.Unit}]
			if pr == nil {
				continue
			}
			c := row.Cells[1]
			c.Delta, c.P, c.Q, c.MDE = pr.last.Delta, pr.last.P, pr.q, math.NaN()
			if !pr.last.Ratio {
				// A difference, not a ratio: report the ratio of medians.
				c.Delta = ratioDelta(row.Cells[0].Summary.Median, c.Summary.Median)
			}
			c.Decide(t, pr.significant)
			if !pr.significant && pr.last.Ratio {
				c.MDE = pr.last.MDE
				if pr.last.MDE > 0.05 {
					noisy = append(noisy, fmt.Sprintf("%s %s (could detect only ±%.0f%%)", row.FullName, t.Unit, 100*pr.last.MDE))
				}
			}
			if c.Significant && stats.IsTime(t.Unit) && t.Better*int(math.Copysign(1, c.Delta)) < 0 && math.Abs(c.Delta) > r.opts.threshold {
				slower++
			}
		}
	}
	if r.opts.json {
		doc := report.NewCompareJSON(tables)
		doc.Rounds = r.rounds
		doc.WallSeconds = math.Round(r.wall.Seconds()*1000) / 1000
		if err := report.WriteJSON(s.Out, doc); err != nil {
			return err
		}
	} else {
		if err := report.CompareText(s.Out, tables, r.opts.alpha); err != nil {
			return err
		}
		fmt.Fprintf(s.Out, "\nBASE = %s, HEAD = %s: %d rounds in %.1fs\n", r.labels[0], r.labels[1], r.rounds, r.wall.Seconds())
	}
	if len(noisy) > 0 {
		sort.Strings(noisy)
		fmt.Fprintf(s.Err, "perfloop: too noisy to see a 5%% change in %d row(s): %s; try more -rounds, a longer -benchtime, or a quieter machine\n",
			len(noisy), strings.Join(noisy, ", "))
	}
	if slower > 0 {
		return failedError{fmt.Sprintf("%d benchmark(s) significantly slower", slower)}
	}
	return nil
}

func ratioDelta(old, new float64) float64 {
	if old == new {
		return 0
	}
	if old == 0 {
		return math.NaN()
	}
	return new/old - 1
}
