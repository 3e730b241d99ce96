package fix

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/runprog"
)

// Config is a whole fix run: where the module is, the report to start
// from (or the loop configuration to measure one), and what to do with
// the kept patches.
type Config struct {
	// Dir is the module directory in the user's work tree.
	Dir string
	// From, if set, is a report.json to take the findings from instead
	// of running the report pipeline (loop.Report) on the current commit.
	From string
	Loop loop.Config
	// ProfileTime is the report's -profiletime.
	ProfileTime time.Duration
	// Production is a CPU or heap profile of the real program; sites of
	// functions below MinShare of it are not rewritten.
	Production string
	// Apply applies the kept patches that are not for review to the work
	// tree (which must have no uncommitted changes).
	Apply bool
	// Program, when set, is fix -run: the root causes are perfloop run's
	// of the program, and candidates are measured by running it.
	Program *Program
	// Rounds is how many rounds to run (fix -rounds; 0 and 1 run one):
	// after a round that kept a patch, its kept patches are made in the
	// scratch tree, the report is measured there again and its root
	// causes are tried.
	Rounds int
	// Fix holds the rewriting and measuring options (Repo, Rel, Commit,
	// Dir and Doc are set by Run).
	Fix Options
	// Stage, if set, is told when a stage starts.
	Stage func(string)
}

// ErrNoRepo is returned by Run when the module is not in a git
// repository with a commit: fix edits scratch work trees of a commit.
var ErrNoRepo = errors.New("fix needs a git repository with a commit (it edits scratch work trees of the current commit)")

// ErrBadReport is returned by Run when the -from report cannot be read.
var ErrBadReport = errors.New("-from")

// ErrDirty is returned by Run with Apply when the work tree has
// uncommitted changes.
var ErrDirty = errors.New("the work tree has uncommitted changes: commit or stash them before -apply (fix never overwrites your edits)")

// ErrTreeChanged is returned by Run with Apply when the work tree
// changed while fix ran: nothing is applied.
var ErrTreeChanged = errors.New("the work tree changed while fix ran")

// Run is perfloop fix: it checks the current commit out into a scratch work
// tree, measures the report there (or reads cfg.From), tries the
// rewrites (Try) and, with Apply, applies the kept patches to the work
// tree. The work tree is read, never written, unless Apply.
func Run(ctx context.Context, cfg Config, bar *progress.Bar) (*document.Fix, error) {
	stage := cfg.Stage
	if stage == nil {
		stage = func(string) {}
	}
	dir, err := filepath.Abs(cmp.Or(cfg.Dir, "."))
	if err != nil {
		return nil, err
	}
	repo, err := git.RepoRoot(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not in one", ErrNoRepo, dir)
	}
	rel, err := filepath.Rel(repo, dir)
	if err != nil {
		return nil, err
	}
	commit, err := git.ResolveRevision(ctx, repo, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("%w: %s has none", ErrNoRepo, repo)
	}
	// With Apply, the work tree as it is now: it is read again right
	// before git apply, and a change in between (an edit while fix ran)
	// is never mixed with the patches.
	var before treeState
	if cfg.Apply {
		if dirty, err := isDirty(ctx, repo); err != nil || dirty {
			if err != nil {
				return nil, err
			}
			return nil, ErrDirty
		}
		if before, err = readTree(ctx, repo, cfg.Fix.Out); err != nil {
			return nil, err
		}
	}
	tmp, err := os.MkdirTemp("", "perfloop-fix-base-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	base := filepath.Join(tmp, "base")
	remove, err := git.CheckoutWorktree(ctx, repo, commit, base)
	if err != nil {
		return nil, fmt.Errorf("check out %s: %w", short(commit), err)
	}
	defer remove()
	mod := filepath.Join(base, rel)

	var doc *document.Report
	var failures []string
	var reported time.Duration
	if cfg.From != "" {
		doc, err = document.ReadFile(cfg.From)
		if err != nil {
			return nil, fmt.Errorf("%w: %v (give the directory perfloop report wrote, or its report.json)", ErrBadReport, err)
		}
	} else {
		if cfg.Program == nil {
			stage("measuring the report on " + short(commit))
		}
		started := time.Now()
		doc, failures, err = measureDoc(ctx, cfg, mod, stage, bar)
		reported = time.Since(started)
		if err != nil {
			return nil, err
		}
	}
	opts := cfg.Fix
	opts.Repo, opts.Rel, opts.Commit, opts.Dir, opts.Doc = repo, rel, commit, mod, doc
	opts.Program = cfg.Program
	opts.Patterns = cfg.Loop.PackagePatterns()
	if cfg.Production != "" {
		if opts.Production, err = profiles.FunctionShares(cfg.Production); err != nil {
			return nil, err
		}
	}
	res, err := tryRounds(ctx, cfg, opts, stage, bar)
	bar.Done()
	if res != nil {
		res.Failures = failures
		if reported > 0 {
			res.ReportSeconds = math.Round(reported.Seconds()*10) / 10
			res.ReportTiming = doc.Timing
		}
	}
	if err != nil || !cfg.Apply {
		return res, err
	}
	// The kept patches, merged and tested together (all.patch).
	all, err := filepath.Abs(filepath.Join(opts.Out, "all.patch"))
	if err != nil {
		return res, err
	}
	if opts.Out == "" || !strings.HasPrefix(res.Together, "the ") {
		if res.Together != "" {
			return res, fmt.Errorf("not applied: %s", res.Together)
		}
		return res, nil
	}
	now, err := readTree(ctx, repo, opts.Out)
	if err != nil {
		return res, err
	}
	if changed := before.changed(now); changed != "" {
		return res, fmt.Errorf("%w (%s): nothing applied, so your edits and the patches are not mixed; git apply %s when you are ready", ErrTreeChanged, changed, all)
	}
	cmd := exec.CommandContext(ctx, "git", "apply", all)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return res, fmt.Errorf("git apply %s: %s", all, firstLine(string(out)))
	}
	res.Applied = true
	return res, nil
}

// measureDoc measures the findings of the module at mod: perfloop run's
// analysis of the program with cfg.Program, else the report's (and the
// report's failures, one line each).
func measureDoc(ctx context.Context, cfg Config, mod string, stage func(string), bar *progress.Bar) (*document.Report, []string, error) {
	if cfg.Program != nil {
		prof, err := os.MkdirTemp("", "perfloop-fix-run-")
		if err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(prof)
		stage("running " + cfg.Program.Package + " (perfloop run)")
		run, err := runprog.Run(ctx, runprog.Config{Dir: mod, Package: cfg.Program.Package, Tags: cfg.Loop.Tags,
			Variants: cfg.Program.Variants, Runs: max(cfg.Program.Runs, 1), Out: prof, Stdout: io.Discard, Stderr: io.Discard,
			CPU: runprog.CPUAuto, Stage: stage})
		if err != nil {
			return nil, nil, err
		}
		return run.Doc, nil, nil
	}
	lc := cfg.Loop
	lc.Dir = mod
	run, err := loop.Report(ctx, lc, loop.ReportOptions{ProfileTime: cfg.ProfileTime, Stage: stage}, bar)
	bar.Done()
	if err != nil {
		return nil, nil, err
	}
	if run == nil || run.Doc == nil {
		return nil, nil, errors.New("the report measured nothing")
	}
	return run.Doc, append(run.Bench.FailureLines(), run.Failures...), nil
}

// tryRounds tries the candidates of cfg.Rounds rounds (one when it is 0
// or 1): each round after the first starts from a report measured on the
// commit with every patch kept so far made, and the rounds stop at the
// first that keeps nothing. With more than one round, the tree with every
// kept patch made is then measured against the commit (Cumulative).
func tryRounds(ctx context.Context, cfg Config, opts Options, stage func(string), bar *progress.Bar) (*document.Fix, error) {
	rounds := max(cfg.Rounds, 1)
	if rounds == 1 {
		stage("rewriting and measuring")
		return Try(ctx, opts, bar)
	}
	start := time.Now()
	budget := opts.Budget
	orig := opts.Dir
	var res *document.Fix
	var last *roundBase
	defer func() { last.close() }()
	var benches, pkgs []string
	for r := 1; r <= rounds; r++ {
		opts.round = r
		if budget > 0 {
			opts.Budget = budget - time.Since(start)
			if opts.Budget <= 0 {
				break
			}
		}
		stage(fmt.Sprintf("round %d: rewriting and measuring", r))
		got, next, err := try(ctx, opts, bar, true)
		bar.Done()
		if res == nil {
			res = got
		} else {
			res.Kept = append(res.Kept, got.Kept...)
			res.Rejected = append(res.Rejected, got.Rejected...)
			res.BaselineFailures = union(res.BaselineFailures, got.BaselineFailures)
			if got.Together != "" {
				res.Together = got.Together
			}
		}
		res.Rounds = r
		if err != nil {
			next.close()
			return res, err
		}
		if next == nil {
			break // nothing kept, or the kept patches do not go together
		}
		last.close()
		last = next
		benches, pkgs = union(benches, next.benches), union(pkgs, next.pkgs)
		if r == rounds {
			break
		}
		stage(fmt.Sprintf("round %d: measuring the report with round %d's patches made", r+1, r))
		doc, _, err := measureDoc(ctx, cfg, next.mod, stage, bar)
		if err != nil {
			return res, err
		}
		opts.Dir, opts.Applied, opts.Doc = next.mod, next.patch, doc
		opts.numbered += len(got.Kept)
	}
	res.WallSeconds = seconds(time.Since(start))
	if last != nil && opts.Program != nil {
		err := cumulativeProgram(ctx, opts, orig, last.mod, res, bar)
		res.WallSeconds = seconds(time.Since(start))
		return res, err
	}
	if last == nil || len(benches) == 0 {
		return res, nil
	}
	stage(fmt.Sprintf("measuring every kept patch together against %s", short(opts.Commit)))
	ab, _, err := compare(ctx, opts, [2]abtest.Spec{
		{Role: "BASE", Label: short(opts.Commit), Dir: orig, Tags: opts.Tags},
		{Role: "HEAD", Label: "all rounds", Dir: last.mod, Tags: opts.Tags},
	}, benches, pkgs, nil, bar)
	bar.Done()
	if err != nil {
		return res, err
	}
	if ab != nil {
		res.Cumulative, _, _, _ = decide(ab, document.Finding{Kind: document.KindAlloc}, opts.Threshold)
	}
	res.WallSeconds = seconds(time.Since(start))
	return res, nil
}

// cumulativeProgram runs the program of the tree with every kept patch
// (mod) against the commit's (orig), as a candidate's, and sets
// res.Cumulative; a stdout or exit status that differs is said in
// res.Together.
func cumulativeProgram(ctx context.Context, opts Options, orig, mod string, res *document.Fix, bar *progress.Bar) error {
	work, err := os.MkdirTemp("", "perfloop-fix-all-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	o := opts
	o.Dir = orig
	var base programBase
	if err := base.build(ctx, o, work); err != nil {
		return err
	}
	rows, _, why, err := comparePrograms(ctx, opts, base.baseBin, mod, filepath.Join(work, "all"), "every kept patch", 0, bar)
	bar.Done()
	if err != nil {
		return err
	}
	if why != "" {
		res.Together += fmt.Sprintf("; every kept patch against %s: %s", short(opts.Commit), why)
		return nil
	}
	res.Cumulative = rows
	return nil
}

func isDirty(ctx context.Context, repo string) (bool, error) {
	cmd := exec.CommandContext(ctx, "git", "status", "--porcelain", "--untracked-files=no")
	cmd.Dir = repo
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("git status: %w", err)
	}
	return strings.TrimSpace(string(out)) != "", nil
}

// treeState is what a work tree holds: the commit checked out, git status
// (untracked files included) and a hash of the changes to tracked files
// and of the untracked files' contents.
type treeState struct {
	head   string
	status []string // "XY path", as git status --porcelain writes them
	sum    [sha256.Size]byte
}

// readTree reads the state of the work tree at repo, leaving out the
// directory out (where fix writes its patches) when it is inside it.
func readTree(ctx context.Context, repo, out string) (treeState, error) {
	pathspec := []string{"--", "."}
	if abs, err := filepath.Abs(out); err == nil && out != "" {
		if rel, err := filepath.Rel(repo, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			pathspec = append(pathspec, ":(exclude)"+filepath.ToSlash(rel))
		}
	}
	run := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"--no-optional-locks"}, args...)...)
		cmd.Dir = repo
		b, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git %s: %w", args[0], err)
		}
		return b, nil
	}
	var t treeState
	head, err := run("rev-parse", "HEAD")
	if err != nil {
		return t, err
	}
	t.head = strings.TrimSpace(string(head))
	status, err := run(append([]string{"status", "--porcelain=v1", "-z", "--untracked-files=all"}, pathspec...)...)
	if err != nil {
		return t, err
	}
	for _, e := range strings.Split(string(status), "\x00") {
		if e != "" {
			t.status = append(t.status, e)
		}
	}
	diff, err := run(append([]string{"diff", "--binary", "--no-color", "--no-ext-diff", "HEAD"}, pathspec...)...)
	if err != nil {
		return t, err
	}
	// The changes to tracked files, and the untracked files' contents
	// (git status names them only).
	h := sha256.New()
	h.Write(diff)
	for _, e := range t.status {
		if strings.HasPrefix(e, "?? ") {
			fmt.Fprintf(h, "\x00%s\x00", e[3:])
			if f, err := os.Open(filepath.Join(repo, filepath.FromSlash(e[3:]))); err == nil {
				_, _ = io.Copy(h, f)
				f.Close()
			}
		}
	}
	h.Sum(t.sum[:0])
	return t, nil
}

// changed names what differs between two states of a work tree, "" when
// nothing does: the files whose status or changes differ, or the commit.
func (t treeState) changed(now treeState) string {
	if t.head != now.head {
		return "HEAD moved from " + short(t.head) + " to " + short(now.head)
	}
	var files []string
	for _, e := range symmetricDiff(t.status, now.status) {
		if len(e) > 3 {
			files = append(files, e[3:])
		}
	}
	if len(files) == 0 && t.sum != now.sum {
		// The same files changed, differently.
		for _, e := range now.status {
			if len(e) > 3 {
				files = append(files, e[3:])
			}
		}
	}
	if len(files) == 0 && t.sum != now.sum {
		return "the files"
	}
	slices.Sort(files)
	return strings.Join(slices.Compact(files), ", ")
}

// symmetricDiff returns the entries in one list and not the other.
func symmetricDiff(a, b []string) []string {
	var out []string
	for _, e := range a {
		if !slices.Contains(b, e) {
			out = append(out, e)
		}
	}
	for _, e := range b {
		if !slices.Contains(a, e) {
			out = append(out, e)
		}
	}
	return out
}
