package git

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// testRepo makes a git repository with one commit of files small files and
// returns its directory and the commit.
func testRepo(t *testing.T, files int) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs Unix signals")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.DevNull,
		"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
	} {
		t.Setenv(k, v)
	}
	repo := t.TempDir()
	runGit(t, repo, "init", "-q")
	// One commit of files small files (and a go.mod), written straight
	// into the object database: much faster than adding them.
	var stream strings.Builder
	stream.WriteString("blob\nmark :1\ndata 2\nx\n")
	stream.WriteString("commit refs/heads/perfloop-test\ncommitter t <t@example.com> 0 +0000\ndata 6\nfiles\n")
	stream.WriteString("M 100644 inline go.mod\ndata 21\nmodule example.com/m\n\n")
	for i := range files {
		fmt.Fprintf(&stream, "M 100644 :1 d%03d/f%d.txt\n", i/200, i)
	}
	cmd := exec.Command("git", "-C", repo, "fast-import", "--quiet")
	cmd.Stdin = strings.NewReader(stream.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git fast-import: %v\n%s", err, out)
	}
	runGit(t, repo, "symbolic-ref", "HEAD", "refs/heads/perfloop-test")
	return repo, runGit(t, repo, "rev-parse", "HEAD")
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// checkOnlyMain fails unless the repository lists only its main work tree
// and has no linked work tree's files left.
func checkOnlyMain(t *testing.T, repo string) {
	t.Helper()
	list := runGit(t, repo, "worktree", "list", "--porcelain")
	if n := strings.Count(list, "worktree "); n != 1 {
		t.Errorf("git worktree list shows %d work trees, want only the main one:\n%s", n, list)
	}
	if entries, _ := os.ReadDir(filepath.Join(repo, ".git", "worktrees")); len(entries) > 0 {
		t.Errorf(".git/worktrees still holds %d entries", len(entries))
	}
}

// TestCheckoutWorktreeInterrupted cancels "git worktree add" while it is
// writing: a reference-transaction hook holds git inside the add, after it
// created the locked administrative directory and before the checkout. A
// SIGKILLed git leaves that locked entry behind, which prune keeps.
func TestCheckoutWorktreeInterrupted(t *testing.T) {
	repo, commit := testRepo(t, 10)
	mark := filepath.Join(t.TempDir(), "in-add")
	hook := "#!/bin/sh\nif [ ! -e '" + mark + "' ]; then touch '" + mark + "'; sleep 60; fi\n"
	if err := os.WriteFile(filepath.Join(repo, ".git", "hooks", "reference-transaction"), []byte(hook), 0o755); err != nil {
		t.Fatal(err)
	}
	// Scratch work trees run no hooks: this test's is let in.
	defer func(h string) { scratchHooks = h }(scratchHooks)
	scratchHooks = filepath.Join(repo, ".git", "hooks")
	path := filepath.Join(t.TempDir(), "base")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if _, err := os.Stat(mark); err == nil {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		if entries, _ := os.ReadDir(filepath.Join(repo, ".git", "worktrees")); len(entries) == 0 {
			t.Errorf("the hook ran before git created the work tree's administrative files")
		}
		cancel()
	}()
	start := time.Now()
	remove, err := CheckoutWorktree(ctx, repo, commit, path)
	if !errors.Is(err, context.Canceled) || remove != nil {
		t.Fatalf("CheckoutWorktree = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("CheckoutWorktree took %v after the cancel: it waited for the hook instead of stopping git", d)
	}
	checkOnlyMain(t, repo)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("work tree directory left behind: %v", err)
	}

	// Adding a work tree again works, at the same path.
	remove, err = CheckoutWorktree(context.Background(), repo, commit, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(path, "d000", "f0.txt")); err != nil {
		t.Errorf("checkout incomplete: %v", err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	if err := remove(); err != nil {
		t.Errorf("second remove: %v", err)
	}
	checkOnlyMain(t, repo)
}

// TestCheckoutWorktreeCancelledDuringCheckout cancels while git checks out
// 2,000 files, at whatever point that is on this machine: the repository
// must be clean afterwards. (More files make the test slow where creating
// files is: 20,000 took 16 s of system time on a test VM.)
func TestCheckoutWorktreeCancelledDuringCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2,000 files")
	}
	repo, commit := testRepo(t, 2000)
	path := filepath.Join(t.TempDir(), "base")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once git has started writing the work tree.
		for {
			if _, err := os.Stat(filepath.Join(path, ".git")); err == nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	remove, err := CheckoutWorktree(ctx, repo, commit, path)
	if err == nil {
		// git finished before the cancel arrived: remove it.
		if err := remove(); err != nil {
			t.Fatal(err)
		}
	}
	cancel()
	checkOnlyMain(t, repo)
	remove, err = CheckoutWorktree(context.Background(), repo, commit, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	checkOnlyMain(t, repo)
}

// TestRemoveWorktreeLockedAndBroken removes work trees that git itself
// refuses to remove or prune: one locked, one locked and half-written
// (its gitdir file missing, as a killed "git worktree add" can leave it).
func TestRemoveWorktreeLockedAndBroken(t *testing.T) {
	repo, commit := testRepo(t, 3)
	ctx := context.Background()
	locked := filepath.Join(t.TempDir(), "locked")
	if err := AddWorktree(ctx, repo, commit, locked); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "worktree", "lock", locked)
	if err := RemoveWorktree(repo, locked); err != nil {
		t.Fatal(err)
	}
	checkOnlyMain(t, repo)

	broken := filepath.Join(t.TempDir(), "broken")
	remove, err := CheckoutWorktree(ctx, repo, commit, broken)
	if err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "worktree", "lock", "--reason", "initializing", broken)
	if err := os.Remove(filepath.Join(repo, ".git", "worktrees", "broken", "gitdir")); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "worktree", "prune")
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	checkOnlyMain(t, repo)
}

func TestParseDiff(t *testing.T) {
	diff := `diff --git codec.go codec.go
index 12ffaf6..cb28db1 100644
--- codec.go
+++ codec.go
@@ -8,2 +8,3 @@ func WriteFrame(w io.Writer, prefix, payload []byte) error {
-	prefix[0] = byte(n)
--- a removed line that looks like a header
+	var hdr [4]byte
+++ an added line that looks like a header
+	hdr[0] = byte(n)
@@ -20,0 +22 @@ func Sum(xs []int) int {
+	// a comment
@@ -30 +32,0 @@ func Sum(xs []int) int {
-	s = 0
diff --git gone.go gone.go
deleted file mode 100644
--- gone.go
+++ /dev/null
@@ -1,3 +0,0 @@
-package ck
diff --git "dir/na\303\257ve.go" "dir/na\303\257ve.go"
new file mode 100644
--- /dev/null
+++ "dir/na\303\257ve.go"
@@ -0,0 +1,2 @@
+package ck
+// x
`
	got := ParseDiff(diff)
	want := []FileChange{
		{Path: "codec.go", Hunks: [][4]int{{8, 2, 8, 3}, {20, 0, 22, 1}, {30, 1, 32, 0}}},
		{Path: "gone.go", Hunks: [][4]int{{1, 3, 0, 0}}},
		{Path: "dir/naïve.go", Hunks: [][4]int{{0, 0, 1, 2}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseDiff:\n got %+v\nwant %+v", got, want)
	}
}

// FuzzParseDiff checks that any text parses without panicking into
// hunks without negative counts.
func FuzzParseDiff(f *testing.F) {
	f.Add("--- a.go\n+++ a.go\n@@ -1,2 +1,3 @@\n")
	f.Add("--- /dev/null\n+++ b.go\n@@ -0,0 +1 @@ x\n@@ -99999999999999999999 +1 @@\n")
	f.Fuzz(func(t *testing.T, diff string) {
		for _, c := range ParseDiff(diff) {
			for _, h := range c.Hunks {
				if h[0] < 0 || h[1] < 0 || h[2] < 0 || h[3] < 0 {
					t.Errorf("%s: negative hunk %v", c.Path, h)
				}
			}
		}
	})
}

// submoduleRepo makes a repository whose go.mod replaces a module with
// the directory of a git submodule, dep, checked out as git submodule add
// leaves it; it returns the repository and its commit.
func submoduleRepo(t *testing.T) (string, string) {
	t.Helper()
	repo, _ := testRepo(t, 1)
	dep := t.TempDir()
	runGit(t, dep, "init", "-q")
	if err := os.WriteFile(filepath.Join(dep, "go.mod"), []byte("module example.com/dep\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, dep, "add", "go.mod")
	runGit(t, dep, "commit", "-qm", "dep")
	runGit(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", dep, "dep")
	gomod := "module example.com/m\n\ngo 1.24\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ./dep\n"
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	runGit(t, repo, "add", "go.mod")
	runGit(t, repo, "commit", "-qm", "dep as a submodule")
	return repo, runGit(t, repo, "rev-parse", "HEAD")
}

// TestCheckoutWorktreeSubmodules: a scratch work tree gets the commit's
// submodules from the user's checkouts of them (no network, the
// repository's configuration unchanged), and a submodule the user has not
// checked out is named in one line.
func TestCheckoutWorktreeSubmodules(t *testing.T) {
	repo, commit := submoduleRepo(t)
	// The submodule's own remote is gone: only the local checkout can
	// serve it.
	runGit(t, repo, "config", "submodule.dep.url", filepath.Join(t.TempDir(), "gone"))
	config := runGit(t, repo, "config", "--list", "--local")
	path := filepath.Join(t.TempDir(), "base")
	remove, err := CheckoutWorktree(context.Background(), repo, commit, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(path, "dep", "go.mod")); err != nil {
		t.Errorf("the submodule is not checked out in the scratch work tree: %v", err)
	}
	if got := runGit(t, repo, "config", "--list", "--local"); got != config {
		t.Errorf("the repository's configuration changed:\n%s\nwant\n%s", got, config)
	}
	if err := remove(); err != nil {
		t.Fatal(err)
	}
	checkOnlyMain(t, repo)

	// A clone whose submodule was never initialised.
	clone := filepath.Join(t.TempDir(), "clone")
	runGit(t, repo, "clone", "-q", repo, clone)
	_, err = CheckoutWorktree(context.Background(), clone, commit, filepath.Join(t.TempDir(), "base"))
	var se *SubmoduleError
	if !errors.As(err, &se) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), `submodule "dep"`) {
		t.Fatalf("CheckoutWorktree = %v, want one line naming submodule dep", err)
	}
	checkOnlyMain(t, clone)
}

// TestCheckoutWorktreeRunsNoHooks: the user's hooks are for the user's
// work tree; a post-checkout hook does not run in a scratch work tree,
// nor in its submodules.
func TestCheckoutWorktreeRunsNoHooks(t *testing.T) {
	repo, commit := submoduleRepo(t)
	mark := filepath.Join(t.TempDir(), "hooked")
	hook := "#!/bin/sh\necho \"$PWD\" >> '" + mark + "'\n"
	for _, dir := range []string{filepath.Join(repo, ".git", "hooks"), filepath.Join(repo, ".git", "modules", "dep", "hooks")} {
		if err := os.WriteFile(filepath.Join(dir, "post-checkout"), []byte(hook), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	remove, err := CheckoutWorktree(context.Background(), repo, commit, filepath.Join(t.TempDir(), "base"))
	if err != nil {
		t.Fatal(err)
	}
	defer remove()
	if b, err := os.ReadFile(mark); err == nil {
		t.Errorf("the post-checkout hook ran in:\n%s", b)
	}
}
