package gotest

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// VCS describes the version control state of a directory.
type VCS struct {
	Commit string // full revision, "" outside a git repository
	Dirty  bool   // uncommitted changes to tracked files
}

// ReadVCS returns the git revision of dir, or a zero VCS when dir is not in a
// git work tree or git is missing.
func ReadVCS(ctx context.Context, dir string) VCS {
	rev, err := git(ctx, dir, "rev-parse", "HEAD")
	if err != nil {
		return VCS{}
	}
	st, err := git(ctx, dir, "status", "--porcelain", "--untracked-files=no")
	return VCS{Commit: rev, Dirty: err == nil && st != ""}
}

// git runs git in dir and returns its trimmed output; the error carries
// git's own message.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), exitDetail(err))
	}
	return strings.TrimSpace(string(out)), nil
}

// RepoRoot returns the top directory of the git work tree containing dir.
func RepoRoot(ctx context.Context, dir string) (string, error) {
	root, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", fmt.Errorf("%s is not in a git repository (diff compares git revisions): %w", dir, err)
	}
	return root, nil
}

// ResolveRevision returns the full commit hash that rev names in the
// repository at dir.
func ResolveRevision(ctx context.Context, dir, rev string) (string, error) {
	h, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil || h == "" {
		return "", fmt.Errorf("unknown revision %q: want a commit, branch or tag", rev)
	}
	return h, nil
}

// AddWorktree checks out commit (detached) into the new directory path, a
// linked work tree of the repository at repo. Remove it with
// RemoveWorktree.
func AddWorktree(ctx context.Context, repo, commit, path string) error {
	_, err := git(ctx, repo, "worktree", "add", "--detach", "--quiet", path, commit)
	return err
}

// RemoveWorktree removes the linked work tree at path and its
// administrative files. It runs even when the caller's context is done.
func RemoveWorktree(repo, path string) error {
	_, err := git(context.Background(), repo, "worktree", "remove", "--force", path)
	if err != nil {
		_, _ = git(context.Background(), repo, "worktree", "prune")
	}
	return err
}
