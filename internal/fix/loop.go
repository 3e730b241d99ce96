package fix

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
)

// Config is a whole fix run: where the module is, the report to start
// from (or the loop configuration to measure one), and what to do with
// the kept patches.
type Config struct {
	// Dir is the module directory in the user's work tree.
	Dir string
	// From, if set, is a report.json to take the findings from instead
	// of running the report pipeline (Loop) on the current commit.
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
	// Fix holds the rewriting and measuring options (Repo, Rel, Commit,
	// Dir and Doc are set by Loop).
	Fix Options
	// Stage, if set, is told when a stage starts.
	Stage func(string)
}

// ErrNoRepo is returned by Loop when the module is not in a git
// repository with a commit: fix edits scratch work trees of a commit.
var ErrNoRepo = errors.New("fix needs a git repository with a commit (it edits scratch work trees of the current commit)")

// ErrBadReport is returned by Loop when the -from report cannot be read.
var ErrBadReport = errors.New("-from")

// ErrDirty is returned by Loop with Apply when the work tree has
// uncommitted changes.
var ErrDirty = errors.New("the work tree has uncommitted changes: commit or stash them before -apply (fix never overwrites your edits)")

// Loop runs a fix: it checks the current commit out into a scratch work
// tree, measures the report there (or reads cfg.From), tries the
// rewrites (Run) and, with Apply, applies the kept patches to the work
// tree. The work tree is read, never written, unless Apply.
func Loop(ctx context.Context, cfg Config, bar *progress.Bar) (*Result, error) {
	stage := cfg.Stage
	if stage == nil {
		stage = func(string) {}
	}
	dir, err := filepath.Abs(cmp.Or(cfg.Dir, "."))
	if err != nil {
		return nil, err
	}
	repo, err := gotest.RepoRoot(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not in one", ErrNoRepo, dir)
	}
	rel, err := filepath.Rel(repo, dir)
	if err != nil {
		return nil, err
	}
	commit, err := gotest.ResolveRevision(ctx, repo, "HEAD")
	if err != nil {
		return nil, fmt.Errorf("%w: %s has none", ErrNoRepo, repo)
	}
	if cfg.Apply {
		if dirty, err := isDirty(ctx, repo); err != nil || dirty {
			if err != nil {
				return nil, err
			}
			return nil, ErrDirty
		}
	}
	tmp, err := os.MkdirTemp("", "perfloop-fix-base-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	base := filepath.Join(tmp, "base")
	remove, err := gotest.CheckoutWorktree(ctx, repo, commit, base)
	if err != nil {
		return nil, fmt.Errorf("check out %s: %w", short(commit), err)
	}
	defer remove()
	mod := filepath.Join(base, rel)

	var doc *document.Report
	var failures []string
	if cfg.From != "" {
		doc, err = document.ReadFile(cfg.From)
		if err != nil {
			return nil, fmt.Errorf("%w: %v (give the directory perfloop report wrote, or its report.json)", ErrBadReport, err)
		}
	} else {
		stage("measuring the report on " + short(commit))
		lc := cfg.Loop
		lc.Dir = mod
		run, err := loop.Report(ctx, lc, loop.ReportOptions{ProfileTime: cfg.ProfileTime, Stage: stage}, bar)
		bar.Done()
		if err != nil {
			return nil, err
		}
		if run == nil || run.Doc == nil {
			return nil, errors.New("the report measured nothing")
		}
		doc = run.Doc
		failures = append(run.Bench.FailureLines(), run.Failures...)
	}
	opts := cfg.Fix
	opts.Repo, opts.Rel, opts.Commit, opts.Dir, opts.Doc = repo, rel, commit, mod, doc
	if cfg.Production != "" {
		if opts.Production, err = profiles.FunctionShares(cfg.Production); err != nil {
			return nil, err
		}
	}
	stage("rewriting and measuring")
	res, err := Run(ctx, opts, bar)
	bar.Done()
	if res != nil {
		res.Failures = failures
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
	cmd := exec.CommandContext(ctx, "git", "apply", all)
	cmd.Dir = repo
	if out, err := cmd.CombinedOutput(); err != nil {
		return res, fmt.Errorf("git apply %s: %s", all, firstLine(string(out)))
	}
	res.Applied = true
	return res, nil
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
