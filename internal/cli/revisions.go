package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/progress"
)

// revisions are two git revisions of the module in the current directory,
// checked out and built as the A/B engine's sides: BASE, and HEAD (the work
// tree with its uncommitted changes when no HEAD revision is given).
type revisions struct {
	sides [2]*abtest.Side
	// root is the repository's top directory; rel the module directory
	// within it.
	root, rel string
	// commits are the full commit hashes ("" for the work tree).
	commits [2]string
	cleanup []func() error
}

// close removes the binaries and the work trees, whatever state they are
// in.
func (r *revisions) close() {
	abtest.Close(r.sides)
	for i := len(r.cleanup) - 1; i >= 0; i-- {
		_ = r.cleanup[i]()
	}
}

// buildRevisions checks base (and head) out into temporary work trees —
// git is never killed mid-write, and the trees are removed after Ctrl-C
// too — and builds both sides at once.
func buildRevisions(ctx context.Context, base, head, tags string, patterns []string, bench string, bar *progress.Bar) (revs *revisions, err error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root, err := git.RepoRoot(ctx, cwd)
	if err != nil {
		return nil, usageError{err}
	}
	rel, err := filepath.Rel(root, cwd)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "perfloop-revisions-")
	if err != nil {
		return nil, err
	}
	r := &revisions{root: root, rel: rel}
	r.cleanup = append(r.cleanup, func() error { return os.RemoveAll(tmp) })
	defer func() {
		if err != nil {
			r.close()
		}
	}()
	checkout := func(rev, name string) (string, string, error) {
		commit, err := git.ResolveRevision(ctx, root, rev)
		if err != nil {
			return "", "", usageError{err}
		}
		dir := filepath.Join(tmp, name)
		bar.Status(fmt.Sprintf("checking out %s", rev))
		rm, err := git.CheckoutWorktree(ctx, root, commit, dir)
		if err != nil {
			return "", "", err
		}
		r.cleanup = append(r.cleanup, rm)
		return filepath.Join(dir, rel), commit, nil
	}
	baseDir, baseCommit, err := checkout(base, "base")
	if err != nil {
		return nil, err
	}
	r.commits[0] = baseCommit
	headSpec := abtest.Spec{Role: "HEAD", Label: "work tree", Dir: cwd, Tags: tags}
	if head != "" {
		dir, commit, err := checkout(head, "head")
		if err != nil {
			return nil, err
		}
		r.commits[1] = commit
		headSpec.Dir, headSpec.Label = dir, label(head, commit)
	}
	baseSpec := abtest.Spec{Role: "BASE", Label: label(base, baseCommit), Dir: baseDir, Tags: tags}
	sides, err := abtest.Build(ctx, [2]abtest.Spec{baseSpec, headSpec}, patterns, bench, bar)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, usageError{err}
	}
	r.sides = sides
	return r, nil
}

// label names a side: the revision as written and its commit, or the
// commit alone when the revision is (a prefix of) its hash.
func label(rev, commit string) string {
	if strings.HasPrefix(commit, strings.ToLower(rev)) {
		return short(commit)
	}
	return rev + " " + short(commit)
}

// short is a commit hash as tables show it.
func short(commit string) string { return commit[:min(12, len(commit))] }

// module returns the module's directory within the repository, its root
// directory on each side, and its path, from the sides' benchmarks; ok is
// false when a side has none.
func (r *revisions) module() (rel string, dirs [2]string, path string, ok bool) {
	for i, s := range r.sides {
		if s == nil || len(s.Suite.Targets) == 0 {
			return "", dirs, "", false
		}
		p := s.Suite.Targets[0].Binary.Package
		dirs[i], path = p.ModuleDir, p.ModulePath
	}
	root, err := findModuleRoot()
	if err != nil {
		return "", dirs, "", false
	}
	rel, err = filepath.Rel(r.root, root)
	if err != nil {
		return "", dirs, "", false
	}
	return rel, dirs, path, true
}
