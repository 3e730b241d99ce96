package fix

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// gitRepo makes a repository of files with one commit and returns its
// directory and commit.
func gitRepo(t *testing.T, files map[string]string) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for k, v := range map[string]string{
		"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.DevNull,
		"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
		"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
	} {
		t.Setenv(k, v)
	}
	dir := writeModule(t, files)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "base"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	out, err := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	return dir, strings.TrimSpace(string(out))
}

// TestTogetherTwoHoists: two constant regexps hoisted out of one
// function go into one all.patch (the two patches, each adding its
// variable before the function, applied one after the other, conflicted
// and no all.patch was written).
func TestTogetherTwoHoists(t *testing.T) {
	repo, commit := gitRepo(t, map[string]string{
		"go.mod": "module example.com/re\n\ngo 1.24\n",
		"re.go": `package re

import "regexp"

// Value returns the value of a "key=value" field.
func Value(s string) (string, bool) {
	if !regexp.MustCompile("^[a-z]+=").MatchString(s) {
		return "", false
	}
	return regexp.MustCompile("[^=]*$").FindString(s), true
}
`,
		"re_test.go": `package re

import "testing"

func TestAB(t *testing.T) {
	if v, ok := Value("k=v"); !ok || v != "v" {
		t.Error("wrong")
	}
}
`,
	})
	ctx := context.Background()
	out := t.TempDir()
	opts := Options{Repo: repo, Rel: ".", Commit: commit, Dir: repo, Out: out, Doc: &document.Report{Findings: []document.Finding{
		{Section: "fix", Kind: "alloc", File: "re.go", Line: 7, Function: "example.com/re.Value", Related: []document.Location{{File: "re.go", Line: 10}}},
	}}}
	all, callees, err := fixes(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	cands, _ := candidates(opts, all, callees)
	var kept []document.FixKept
	var edits []Edit
	for _, c := range cands {
		if c.Kind == "hoist-const" {
			kept = append(kept, document.FixKept{File: c.File, Line: c.Line, Rewrite: c.Kind, Tests: []string{"example.com/re"}})
			edits = append(edits, c.Edit)
		}
	}
	if len(kept) != 2 {
		t.Fatalf("%d hoist-const candidates, want 2: %+v", len(kept), cands)
	}
	msg, _, err := together(ctx, opts, testFailures{}, kept, edits, filepath.Join(t.TempDir(), "together"), false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(msg, "the 2 kept patch(es) apply together and pass the tests") {
		t.Fatalf("together: %s", msg)
	}
	patch, err := os.ReadFile(filepath.Join(out, "all.patch"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("git", "-C", repo, "apply", "-")
	cmd.Stdin = strings.NewReader(string(patch))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply all.patch: %v\n%s", err, out)
	}
	after, _ := os.ReadFile(filepath.Join(repo, "re.go"))
	if strings.Count(string(after), "= regexp.MustCompile") != 2 || strings.Contains(string(after), ").MatchString") {
		t.Errorf("re.go with all.patch:\n%s", after)
	}
}
