// Package action_test runs the GitHub Action's script as GitHub runs it:
// in a shallow checkout, with the environment variables and event file
// GitHub gives a pull_request job, against a fake GitHub API.
package action_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// api is a fake of the GitHub REST API's issue comments.
type api struct {
	mu       sync.Mutex
	comments []map[string]any // what GET lists
	postCode int              // status of POST and PATCH (default 201/200)
	calls    []call
}

type call struct {
	method, path, auth string
	body               map[string]any
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := call{method: r.Method, path: r.URL.Path, auth: r.Header.Get("Authorization")}
	data, _ := io.ReadAll(r.Body)
	if len(data) > 0 {
		if err := json.Unmarshal(data, &c.body); err != nil {
			http.Error(w, "bad JSON: "+err.Error(), http.StatusBadRequest)
			return
		}
	}
	a.calls = append(a.calls, c)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == "GET" && r.URL.Path == "/repos/octo/widgets/issues/7/comments":
		if r.URL.Query().Get("page") != "1" {
			fmt.Fprint(w, "[]")
			return
		}
		json.NewEncoder(w).Encode(a.comments)
	case r.Method == "POST" && r.URL.Path == "/repos/octo/widgets/issues/7/comments",
		r.Method == "PATCH" && strings.HasPrefix(r.URL.Path, "/repos/octo/widgets/issues/comments/"):
		if a.postCode != 0 {
			w.WriteHeader(a.postCode)
			fmt.Fprint(w, `{"message": "Resource not accessible by integration"}`)
			return
		}
		fmt.Fprint(w, `{"id": 1}`)
	default:
		http.NotFound(w, r)
	}
}

// job is a pull_request job's workspace and environment.
type job struct {
	dir, tmp string
	env      []string
	output   string // $GITHUB_OUTPUT
	summary  string // $GITHUB_STEP_SUMMARY
}

func tools(t *testing.T) {
	for _, tool := range []string{"bash", "git", "jq", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed: .ci/run installs it", tool)
			}
			t.Skipf("%s is not installed", tool)
		}
	}
}

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// newJob makes the origin repository with a base commit and a pull
// request's commit, clones it with depth 1 as actions/checkout does, and
// writes the pull_request event.
func newJob(t *testing.T, perfloop, apiURL string) (*job, string) {
	t.Helper()
	root := t.TempDir()
	origin := filepath.Join(root, "origin")
	ar, err := txtar.ParseFile("testdata/module.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		p := filepath.Join(origin, f.Name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, origin, "init", "-q", "-b", "main")
	git(t, origin, "add", "-A")
	git(t, origin, "commit", "-qm", "base")
	base := git(t, origin, "rev-parse", "HEAD")
	bad, _ := os.ReadFile(filepath.Join(origin, "bad.go.txt"))
	os.WriteFile(filepath.Join(origin, "codec.go"), bad, 0o644)
	git(t, origin, "commit", "-qam", "write the header from the stack")

	j := &job{dir: filepath.Join(root, "work"), tmp: filepath.Join(root, "runner-temp")}
	os.Mkdir(j.tmp, 0o755)
	git(t, root, "clone", "-q", "--depth=1", "file://"+origin, j.dir)
	event := filepath.Join(root, "event.json")
	ev := fmt.Sprintf(`{"action": "synchronize", "number": 7, "pull_request": {"number": 7, "base": {"ref": "main", "sha": %q}}}`, base)
	os.WriteFile(event, []byte(ev), 0o644)
	j.output = filepath.Join(root, "github_output")
	j.summary = filepath.Join(root, "step_summary")
	j.env = append(os.Environ(),
		"PATH="+filepath.Dir(perfloop)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CI=true", "GITHUB_ACTIONS=true",
		"GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH="+event,
		"GITHUB_API_URL="+apiURL, "GITHUB_REPOSITORY=octo/widgets",
		"GITHUB_WORKSPACE="+j.dir, "GITHUB_OUTPUT="+j.output, "GITHUB_STEP_SUMMARY="+j.summary,
		"RUNNER_TEMP="+j.tmp, "GITHUB_TOKEN=ghs_test",
		"GIT_CONFIG_GLOBAL=/dev/null",
	)
	return j, base
}

// run runs the action's script in the job with the action's inputs and
// returns its output and exit status.
func (j *job) run(t *testing.T, inputs ...string) (string, int) {
	t.Helper()
	script, err := filepath.Abs("check.sh")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", script)
	cmd.Dir = j.dir
	cmd.Env = append(j.env, inputs...)
	out, err := cmd.CombinedOutput()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func read(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestPullRequest runs the real perfloop: the pull request's new heap
// allocation fails the job, names the line in the summary and the
// comment, and the base commit the shallow clone lacked is fetched.
func TestPullRequest(t *testing.T) {
	tools(t)
	if testing.Short() {
		t.Skip("builds and benchmarks a module")
	}
	bin := filepath.Join(t.TempDir(), "perfloop")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/perfloop").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fake := &api{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	j, _ := newJob(t, bin, srv.URL)

	out, code := j.run(t, "INPUT_ARGS=-threshold 50% -min-rounds 6 -rounds 12 -benchtime 5ms -profiletime 200ms", "INPUT_PACKAGES=./...")
	t.Logf("the job's log:\n%s", out)
	if code != 1 {
		t.Fatalf("exit status %d, want 1 (a regression)", code)
	}
	for _, want := range []string{"fetching ", "::error title=perfloop check::"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if got := read(t, j.output); got != "verdict=fail\n" {
		t.Errorf("$GITHUB_OUTPUT = %q, want verdict=fail", got)
	}
	summary := read(t, j.summary)
	for _, want := range []string{"perfloop check: fail", "BenchmarkWriteFrame", "codec.go:8"} {
		if !strings.Contains(summary, want) {
			t.Errorf("job summary lacks %q:\n%s", want, summary)
		}
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	var posts []call
	for _, c := range fake.calls {
		if c.auth != "Bearer ghs_test" {
			t.Errorf("%s %s without the token: Authorization %q", c.method, c.path, c.auth)
		}
		if c.method == "POST" {
			posts = append(posts, c)
		}
	}
	if len(posts) != 1 {
		t.Fatalf("%d comments posted, want 1; calls: %+v", len(posts), fake.calls)
	}
	body, _ := posts[0].body["body"].(string)
	if !strings.HasPrefix(body, "<!-- perfloop check -->") || !strings.Contains(body, "codec.go:8") {
		t.Errorf("comment body:\n%s", body)
	}
}

// stub writes a perfloop that writes the Markdown verdict and exits with
// code, as perfloop check does.
func stub(t *testing.T, verdict string, code int) string {
	dir := t.TempDir()
	p := filepath.Join(dir, "perfloop")
	script := fmt.Sprintf(`#!/usr/bin/env bash
echo "perfloop $*" >>%q
md=
while [ $# -gt 0 ]; do
	if [ "$1" = -markdown ]; then md=$2; fi
	shift
done
printf '<!-- perfloop check -->\n### perfloop check: %s\n' >"$md"
exit %d
`, filepath.Join(dir, "args"), verdict, code)
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A second push edits the comment the first made instead of adding one;
// the inputs reach perfloop check as the shell would split them.
func TestCommentUpdated(t *testing.T) {
	tools(t)
	fake := &api{comments: []map[string]any{
		{"id": 41, "body": "LGTM"},
		{"id": 42, "body": "<!-- perfloop check -->\n### perfloop check: fail"},
	}}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	bin := stub(t, "pass", 0)
	j, base := newJob(t, bin, srv.URL)
	out, code := j.run(t, `INPUT_ARGS=-calibrate -budget 'BenchmarkWriteFrame allocs/op == 0'`, "INPUT_PACKAGES=./codec ./wire")
	if code != 0 {
		t.Fatalf("exit status %d, want 0:\n%s", code, out)
	}
	args := read(t, filepath.Join(filepath.Dir(bin), "args"))
	want := "-calibrate -budget BenchmarkWriteFrame allocs/op == 0 " + base + " HEAD ./codec ./wire"
	if !strings.Contains(args, want) {
		t.Errorf("perfloop ran as %q, want it to end %q", args, want)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	last := fake.calls[len(fake.calls)-1]
	if last.method != "PATCH" || last.path != "/repos/octo/widgets/issues/comments/42" {
		t.Errorf("last call %s %s, want PATCH of comment 42", last.method, last.path)
	}
	if got := read(t, j.output); got != "verdict=pass\n" {
		t.Errorf("$GITHUB_OUTPUT = %q", got)
	}
}

// A fork's token cannot comment: a warning, and the job's status is
// still perfloop's.
func TestForkCannotComment(t *testing.T) {
	tools(t)
	fake := &api{postCode: http.StatusForbidden}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	j, _ := newJob(t, stub(t, "inconclusive", 0), srv.URL)
	out, code := j.run(t)
	if code != 0 {
		t.Fatalf("exit status %d, want perfloop's 0:\n%s", code, out)
	}
	for _, want := range []string{"::warning title=perfloop check::cannot comment on pull request #7", "Resource not accessible", "::notice title=perfloop check::"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Without a pull request or a base input there is nothing to compare
// with: a usage error, and perfloop never runs.
func TestNoBase(t *testing.T) {
	tools(t)
	bin := stub(t, "pass", 0)
	j, _ := newJob(t, bin, "http://127.0.0.1:1")
	ev := filepath.Join(j.tmp, "push.json")
	os.WriteFile(ev, []byte(`{"ref": "refs/heads/main"}`), 0o644)
	out, code := j.run(t, "GITHUB_EVENT_NAME=workflow_dispatch", "GITHUB_EVENT_PATH="+ev)
	if code != 2 || !strings.Contains(out, "no base revision") {
		t.Errorf("exit status %d, want 2 and the reason:\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(bin), "args")); err == nil {
		t.Error("perfloop ran without a base")
	}
}

// TestShardedPullRequest runs the sharded workflow's steps as GitHub runs
// them (workflows/check-sharded.yml): each shard job checks its share and
// writes its result, which the merge job finds under the directory its
// artifacts were downloaded to (one subdirectory per artifact); the merge
// gives one verdict, one comment naming the cause and one exit status.
func TestShardedPullRequest(t *testing.T) {
	tools(t)
	if testing.Short() {
		t.Skip("builds and benchmarks a module")
	}
	wf := read(t, "workflows/check-sharded.yml")
	for _, want := range []string{"shard: ${{ matrix.shard }}", "path: ${{ steps.check.outputs.result }}", "merge: perfloop-shards", `shard: ["1/3", "2/3", "3/3"]`} {
		if !strings.Contains(wf, want) {
			t.Fatalf("the workflow lacks %q: the test runs the steps it describes", want)
		}
	}
	bin := filepath.Join(t.TempDir(), "perfloop")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/perfloop").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fake := &api{}
	srv := httptest.NewServer(fake)
	defer srv.Close()
	j, _ := newJob(t, bin, srv.URL)
	args := "INPUT_ARGS=-threshold 50% -min-rounds 6 -rounds 12 -benchtime 5ms -profiletime 200ms"
	downloads := filepath.Join(j.dir, "perfloop-shards")
	for i, shard := range []string{"1/3", "2/3", "3/3"} {
		os.Remove(j.output)
		out, code := j.run(t, args, "INPUT_SHARD="+shard)
		t.Logf("shard %s's log:\n%s", shard, out)
		if code != 0 {
			t.Fatalf("shard %s: exit status %d, want 0 (the merge decides)", shard, code)
		}
		result := ""
		for _, l := range strings.Split(read(t, j.output), "\n") {
			if v, ok := strings.CutPrefix(l, "result="); ok {
				result = v
			}
		}
		if result == "" {
			t.Fatalf("shard %s: no result output", shard)
		}
		// upload-artifact, then download-artifact with a pattern: one
		// directory per artifact.
		dir := filepath.Join(downloads, fmt.Sprintf("perfloop-shard-%d", i))
		os.MkdirAll(dir, 0o755)
		data := read(t, result)
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(result)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fake.mu.Lock()
	if len(fake.calls) != 0 {
		t.Errorf("the shards called the API: %+v", fake.calls)
	}
	fake.mu.Unlock()

	os.Remove(j.output)
	out, code := j.run(t, "INPUT_MERGE=perfloop-shards")
	t.Logf("the merge job's log:\n%s", out)
	if code != 1 {
		t.Fatalf("merge: exit status %d, want 1 (a regression)", code)
	}
	if got := read(t, j.output); got != "verdict=fail\n" {
		t.Errorf("$GITHUB_OUTPUT = %q, want verdict=fail", got)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	var posts []call
	for _, c := range fake.calls {
		if c.method == "POST" || c.method == "PATCH" {
			posts = append(posts, c)
		}
	}
	if len(posts) != 1 {
		t.Fatalf("%d comments written, want 1; calls: %+v", len(posts), fake.calls)
	}
	body, _ := posts[0].body["body"].(string)
	if strings.Count(body, "<!-- perfloop check -->") != 1 || !strings.Contains(body, "BenchmarkWriteFrame") || !strings.Contains(body, "codec.go:8") {
		t.Errorf("comment body:\n%s", body)
	}
}
