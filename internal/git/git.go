package git

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
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

// git runs a git command that only reads the repository in dir and returns
// its trimmed output; the error carries git's own message. Cancelling ctx
// kills it, which cannot damage anything.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), exitDetail(err))
	}
	return strings.TrimSpace(string(out)), nil
}

// gitWrite runs a git command that writes to the repository in dir. git is
// never killed mid-write (a SIGKILLed "git worktree add" leaves a locked,
// half-written work tree that "git worktree prune" does not remove): it
// runs in its own process group, and when ctx is done it gets SIGTERM, on
// which git removes what the unfinished command created, and gitWrite waits
// for it to exit.
func gitWrite(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	ownGroup(cmd)
	cmd.Cancel = func() error { return terminateGroup(cmd) }
	cmd.WaitDelay = 0 // wait for git to exit, however long it takes
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
		return "", fmt.Errorf("%s is not in a git repository (BASE and HEAD are git revisions): %w", dir, err)
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

// CheckoutWorktree checks commit out (detached) into the new directory
// path, a linked work tree of the repository at repo, and returns a
// function that removes it again.
//
// It is safe to interrupt: when ctx is done while git works, git is asked
// to stop (SIGTERM, never SIGKILL), CheckoutWorktree waits for it, removes
// whatever of the work tree and its administrative files exists, and
// returns ctx's error. The returned remove works whatever state the work
// tree is in (locked, half-written, already gone) and may be called more
// than once; it ignores ctx.
func CheckoutWorktree(ctx context.Context, repo, commit, path string) (remove func() error, err error) {
	common, err := commonDir(ctx, repo)
	if err != nil {
		return nil, err
	}
	before := adminEntries(common)
	_, addErr := gitWrite(ctx, repo, "-c", "core.hooksPath="+scratchHooks, "worktree", "add", "--detach", "--quiet", path, commit)
	// The administrative directories this add created, whatever state
	// they are in: new entries that point to path or to nothing yet.
	var ours []string
	for _, e := range adminEntries(common) {
		if slices.Contains(before, e) {
			continue
		}
		if gd, err := os.ReadFile(filepath.Join(e, "gitdir")); err != nil || samePath(strings.TrimSpace(string(gd)), filepath.Join(path, ".git")) {
			ours = append(ours, e)
		}
	}
	remove = func() error { return removeWorktree(repo, common, path, ours) }
	if cerr := ctx.Err(); cerr != nil {
		return nil, errors.Join(cerr, remove())
	}
	if addErr != nil {
		return nil, errors.Join(addErr, remove())
	}
	if err := checkoutSubmodules(ctx, repo, common, path); err != nil {
		return nil, errors.Join(err, remove())
	}
	return remove, nil
}

// scratchHooks is the hooks directory of the git commands perfloop runs
// on a scratch work tree: none. The user's hooks (post-checkout and the
// like) are for the user's work trees. Tests point it at hooks of their
// own.
var scratchHooks = os.DevNull

// ScratchGit returns the git command with args, run in dir, a scratch
// work tree CheckoutWorktree made: the user's hooks do not run.
func ScratchGit(ctx context.Context, dir string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-c", "core.hooksPath=" + scratchHooks}, args...)...)
	cmd.Dir = dir
	return cmd
}

// checkoutSubmodules checks out the submodules of the scratch work tree
// tree (a work tree of the repository at repo, whose common git directory
// is common) from the user's checkouts of them: git clones each from its
// local git directory (objects hard-linked), never from the network, and
// the repository's configuration is left as it is (the URLs are given on
// the command line). A submodule the user has not checked out is a
// *SubmoduleError.
func checkoutSubmodules(ctx context.Context, repo, common, tree string) error {
	if _, err := os.Stat(filepath.Join(tree, ".gitmodules")); err != nil {
		return nil
	}
	out, err := git(ctx, tree, "config", "--file", ".gitmodules", "--get-regexp", `^submodule\..*\.path$`)
	if err != nil {
		return nil // no submodule has a path
	}
	args := []string{"-c", "core.hooksPath=" + scratchHooks, "-c", "protocol.file.allow=always"}
	var paths []string
	for _, l := range strings.Split(out, "\n") {
		key, sub, ok := strings.Cut(strings.TrimSpace(l), " ")
		if !ok {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(key, "submodule."), ".path")
		// Only a gitlink of the commit is a submodule: .gitmodules may
		// name paths the commit no longer has.
		if st, err := git(ctx, tree, "ls-files", "--stage", "--", sub); err != nil || !strings.HasPrefix(st, "160000 ") {
			continue
		}
		src := submoduleSource(ctx, repo, common, name, sub)
		if src == "" {
			return &SubmoduleError{Name: name, Path: sub, Repo: repo}
		}
		args = append(args, "-c", "submodule."+name+".url="+src)
		paths = append(paths, sub)
	}
	if len(paths) == 0 {
		return nil
	}
	args = append(append(args, "submodule", "update", "--init", "--quiet", "--"), paths...)
	if _, err := gitWrite(ctx, tree, args...); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("check out the submodules %s from your checkouts of them: %w", strings.Join(paths, ", "), err)
	}
	return nil
}

// submoduleSource returns the git directory of the user's checkout of
// submodule name at path sub, or "" when there is none: the submodule's
// work tree in the user's work tree, or the git directory git keeps for it
// (.git/modules/NAME).
func submoduleSource(ctx context.Context, repo, common, name, sub string) string {
	dir := filepath.Join(repo, filepath.FromSlash(sub))
	if top, err := git(ctx, dir, "rev-parse", "--show-toplevel"); err == nil && samePath(top, dir) {
		if gd, err := git(ctx, dir, "rev-parse", "--absolute-git-dir"); err == nil {
			return gd
		}
	}
	for _, gitDir := range []string{filepath.Join(repo, ".git"), common} {
		m := filepath.Join(gitDir, "modules", filepath.FromSlash(name))
		if _, err := os.Stat(filepath.Join(m, "HEAD")); err == nil {
			return m
		}
	}
	return ""
}

// AddWorktree checks commit out (detached) into the new directory path, a
// linked work tree of the repository at repo. Remove it with
// RemoveWorktree. When it fails or ctx is done, nothing is left behind (see
// CheckoutWorktree).
func AddWorktree(ctx context.Context, repo, commit, path string) error {
	_, err := CheckoutWorktree(ctx, repo, commit, path)
	return err
}

// RemoveWorktree removes the linked work tree at path and its
// administrative files, also when the work tree is locked or half-written.
// It runs even when the caller's context is done.
func RemoveWorktree(repo, path string) error {
	ctx := context.Background()
	common, err := commonDir(ctx, repo)
	if err != nil {
		return err
	}
	var ours []string
	for _, e := range adminEntries(common) {
		if gd, err := os.ReadFile(filepath.Join(e, "gitdir")); err == nil && samePath(strings.TrimSpace(string(gd)), filepath.Join(path, ".git")) {
			ours = append(ours, e)
		}
	}
	return removeWorktree(repo, common, path, ours)
}

// removeWorktree removes the work tree at path whose administrative
// directories are admin: "git worktree remove" when git still knows it as
// a work tree, and otherwise by hand (unlock, delete both directories,
// prune), so that "git worktree list" is as before.
func removeWorktree(repo, common, path string, admin []string) error {
	ctx := context.Background()
	if _, err := os.Stat(path); err == nil || len(admin) > 0 {
		// Twice --force: also a locked work tree.
		_, _ = gitWrite(ctx, repo, "worktree", "remove", "--force", "--force", path)
	}
	var errs []error
	for _, e := range admin {
		if err := os.RemoveAll(e); err != nil {
			errs = append(errs, fmt.Errorf("remove work tree administrative files: %w", err))
		}
	}
	if err := os.RemoveAll(path); err != nil {
		errs = append(errs, fmt.Errorf("remove work tree: %w", err))
	}
	if _, err := gitWrite(ctx, repo, "worktree", "prune"); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// commonDir returns the absolute path of the repository's common git
// directory, which holds worktrees/.
func commonDir(ctx context.Context, repo string) (string, error) {
	d, err := git(ctx, repo, "rev-parse", "--git-common-dir")
	if err != nil {
		return "", err
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(repo, d)
	}
	return d, nil
}

// adminEntries lists the administrative directories of linked work trees.
func adminEntries(common string) []string {
	entries, _ := os.ReadDir(filepath.Join(common, "worktrees"))
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(common, "worktrees", e.Name()))
		}
	}
	return dirs
}

// samePath reports whether a and b name the same file, as git records
// paths with symbolic links resolved. Either may no longer exist.
func samePath(a, b string) bool {
	return filepath.Clean(a) == filepath.Clean(b) || realPath(a) == realPath(b)
}

// realPath resolves the symbolic links in p's longest existing prefix.
func realPath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(realPath(parent), filepath.Base(p))
}

// FileChange is a file a change touched and the lines it touched.
type FileChange struct {
	// Path is relative to the repository's top directory, slash-separated.
	Path string
	// Hunks are the diff's hunks as written: old start, old lines, new
	// start, new lines ("@@ -8,2 +8,3 @@" is {8, 2, 8, 3}; a side with no
	// lines starts at the line after which the other side's are). A new
	// file is {0, 0, 1, n}.
	Hunks [][4]int
}

// Changes lists the files that differ between commit base and head (""
// for the work tree, untracked files included) and the lines that differ.
func Changes(ctx context.Context, repo, base, head string) ([]FileChange, error) {
	args := []string{"-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-renames", "--no-prefix", "-U0", base}
	if head != "" {
		args = append(args, head)
	}
	out, err := git(ctx, repo, args...)
	if err != nil {
		return nil, err
	}
	changes := ParseDiff(out)
	if head == "" {
		out, err := git(ctx, repo, "-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard")
		if err != nil {
			return nil, err
		}
		for _, l := range strings.Split(out, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				changes = append(changes, FileChange{Path: l, Hunks: [][4]int{{0, 0, 1, math.MaxInt32}}})
			}
		}
	}
	return changes, nil
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// ParseDiff reads the files and line ranges of a unified diff made with
// -U0 --no-prefix (git diff's output); it ignores what it does not
// understand.
func ParseDiff(diff string) []FileChange {
	var out []FileChange
	var cur *FileChange
	var oldPath string
	for _, l := range strings.Split(diff, "\n") {
		switch {
		case strings.HasPrefix(l, "diff --git "):
			cur, oldPath = nil, ""
		case strings.HasPrefix(l, "--- ") && cur == nil:
			oldPath = unquote(strings.TrimPrefix(l, "--- "))
		case strings.HasPrefix(l, "+++ ") && cur == nil:
			p := unquote(strings.TrimPrefix(l, "+++ "))
			if p == "/dev/null" {
				p = oldPath
			}
			if p == "" || p == "/dev/null" {
				continue
			}
			out = append(out, FileChange{Path: p})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "@@ ") && cur != nil:
			m := hunkHeader.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			num := func(s string, def int) int {
				if s == "" {
					return def
				}
				n, _ := strconv.Atoi(s)
				return n
			}
			cur.Hunks = append(cur.Hunks, [4]int{num(m[1], 0), num(m[2], 1), num(m[3], 0), num(m[4], 1)})
		}
	}
	return out
}

// unquote undoes git's quoting of a path with unusual characters.
func unquote(p string) string {
	if strings.HasPrefix(p, `"`) {
		if u, err := strconv.Unquote(p); err == nil {
			return u
		}
	}
	return p
}

// Commit is a commit's hash, committer time and subject line.
type Commit struct {
	Hash    string
	Time    time.Time
	Subject string
}

// CommitInfo reads a commit's time and subject.
func CommitInfo(ctx context.Context, repo, rev string) (Commit, error) {
	out, err := git(ctx, repo, "log", "-1", "--format=%H%x00%cI%x00%s", rev, "--")
	if err != nil {
		return Commit{}, fmt.Errorf("%s: %w", rev, err)
	}
	f := strings.SplitN(out, "\x00", 3)
	if len(f) != 3 {
		return Commit{}, fmt.Errorf("%s: unexpected git log output %q", rev, out)
	}
	t, err := time.Parse(time.RFC3339, f[1])
	if err != nil {
		return Commit{}, fmt.Errorf("%s: commit time %q: %w", rev, f[1], err)
	}
	return Commit{Hash: f[0], Time: t, Subject: f[2]}, nil
}

// IsShallow reports whether the repository at repo is a shallow clone.
func IsShallow(ctx context.Context, repo string) bool {
	out, err := git(ctx, repo, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(out) == "true"
}

// Ancestry lists the commits reachable from rev, oldest first, in git's
// topological order: the order a history is drawn in.
func Ancestry(ctx context.Context, repo, rev string) ([]string, error) {
	out, err := git(ctx, repo, "rev-list", "--topo-order", "--reverse", rev, "--")
	if err != nil {
		return nil, err
	}
	return strings.Fields(out), nil
}

// SubmoduleError is a submodule of a commit that a scratch work tree
// cannot get without the network: the user has not checked it out.
type SubmoduleError struct {
	Name, Path string
	// Repo is the user's work tree.
	Repo string
}

// Error names the submodule and says what to do, in one line.
func (e *SubmoduleError) Error() string {
	return fmt.Sprintf("submodule %q (%s) is not checked out in %s: run git submodule update --init %s there (scratch work trees take submodules from your checkouts, never from the network)", e.Name, e.Path, e.Repo, e.Path)
}
