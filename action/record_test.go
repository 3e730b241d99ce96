package action_test

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/rogpeppe/go-internal/txtar"
)

// postgres returns the DSN of a schema of its own in the PostgreSQL
// database PERFLOOP_TEST_POSTGRES names, dropped when the test ends; the
// test is skipped without one (CI has one).
func postgres(t *testing.T, name string) string {
	t.Helper()
	dsn := os.Getenv("PERFLOOP_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("PERFLOOP_TEST_POSTGRES is empty: .ci/run starts PostgreSQL for this test")
		}
		t.Skip("PERFLOOP_TEST_POSTGRES is not set: no PostgreSQL to record into")
	}
	schema := fmt.Sprintf("fleet_%s_%d", name, os.Getpid())
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", dsn); err == nil {
			db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
			db.Close()
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// fleetJob is one runner's job of the fleet workflow (action/fleet.yml):
// a checkout of the pushed commit as actions/checkout makes it, and the
// environment GitHub gives the record action's step.
type fleetJob struct {
	dir, tmp, summary string
	env               []string
}

// newFleetJob checks commit of origin out as actions/checkout does: a
// fetch of that commit alone (depth 1) unless full, then the record
// action's environment with its inputs.
func newFleetJob(t *testing.T, root, origin, commit, perfloop string, full bool, inputs ...string) *fleetJob {
	t.Helper()
	j := &fleetJob{dir: filepath.Join(root, "work"), tmp: filepath.Join(root, "runner-temp")}
	os.MkdirAll(j.tmp, 0o755)
	git(t, root, "init", "-q", j.dir)
	git(t, j.dir, "remote", "add", "origin", "file://"+origin)
	if full {
		git(t, j.dir, "fetch", "-q", "--no-tags", "origin", "+refs/heads/*:refs/remotes/origin/*")
	} else {
		git(t, j.dir, "fetch", "-q", "--no-tags", "--depth=1", "origin", commit)
	}
	git(t, j.dir, "checkout", "-q", "--detach", commit)
	j.summary = filepath.Join(root, "step_summary")
	j.env = append(os.Environ(),
		"PATH="+filepath.Dir(perfloop)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"CI=true", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=push", "GITHUB_REF=refs/heads/main",
		"GITHUB_SHA="+commit, "GITHUB_REPOSITORY=octo/widgets", "GITHUB_WORKSPACE="+j.dir,
		"GITHUB_STEP_SUMMARY="+j.summary, "GITHUB_OUTPUT="+filepath.Join(root, "github_output"),
		"RUNNER_TEMP="+j.tmp, "GIT_CONFIG_GLOBAL=/dev/null",
	)
	j.env = append(j.env, inputs...)
	return j
}

// run runs the record action's script as its step does.
func (j *fleetJob) run(t *testing.T) (string, int) {
	script, err := filepath.Abs("record.sh")
	if err != nil {
		t.Error(err)
		return "", -1
	}
	cmd := exec.Command("bash", script)
	cmd.Dir = j.dir
	cmd.Env = j.env
	out, err := cmd.CombinedOutput()
	code := 0
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	} else if err != nil {
		t.Error(err)
		return string(out), -1
	}
	return string(out), code
}

// history is what the test compares of two stores' perfloop.history/v1.
type history struct {
	Commits []struct {
		Commit string
		Runs   []int64
	}
	Benchmarks []struct {
		Name, Unit string
		Points     []struct {
			Commit string
			Value  float64
			N      int
		}
		ChangePoints []struct {
			Commit string
			Delta  float64
		} `json:"change_points"`
	}
}

// TestFleet runs the fleet workflow on three pushes: for each, four
// runners record one shard each, at once, into one PostgreSQL database
// (each checkout shallow, as actions/checkout makes it by default, so the
// action fetches the history itself); beside it one runner records every
// benchmark into another. The two histories are the same: the same
// commits and series, each point pooling the same number of samples
// (every benchmark in exactly one shard), the same values and change
// points where the measurement is the same on every run (work/op), and
// the third commit's slowdown found in both.
func TestFleet(t *testing.T) {
	tools(t)
	if testing.Short() {
		t.Skip("records three commits on five runners")
	}
	sharded, whole := postgres(t, "sharded"), postgres(t, "whole")
	bin := filepath.Join(t.TempDir(), "perfloop")
	if out, err := exec.Command("go", "build", "-o", bin, "../cmd/perfloop").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := t.TempDir()
	origin := filepath.Join(root, "origin")
	ar, err := txtar.ParseFile("testdata/fleet.txtar")
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
	git(t, origin, "config", "uploadpack.allowAnySHA1InWant", "true")
	git(t, origin, "add", "-A")
	git(t, origin, "commit", "-qm", "c1: eight benchmarks")
	commits := []string{git(t, origin, "rev-parse", "HEAD")}
	f, _ := os.OpenFile(filepath.Join(origin, "work.go"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("\n// A comment.\n")
	f.Close()
	git(t, origin, "commit", "-qam", "c2: a comment")
	commits = append(commits, git(t, origin, "rev-parse", "HEAD"))
	slow, _ := os.ReadFile(filepath.Join(origin, "slow.go.txt"))
	os.WriteFile(filepath.Join(origin, "work.go"), slow, 0o644)
	git(t, origin, "commit", "-qam", "c3: B5 does twenty times the work")
	commits = append(commits, git(t, origin, "rev-parse", "HEAD"))

	args := "INPUT_ARGS=-count 2 -benchtime 20ms -profiletime 10ms -pair-time 1m"
	for c, commit := range commits {
		// Four runners with one shard each, at once, and one with all.
		var jobs []*fleetJob
		var names []string
		for shard := 1; shard <= 4; shard++ {
			jobs = append(jobs, newFleetJob(t, filepath.Join(root, fmt.Sprintf("c%d-shard%d", c+1, shard)), origin, commit, bin, false,
				"INPUT_STORE="+sharded, fmt.Sprintf("INPUT_SHARD=%d/4", shard), args))
			names = append(names, fmt.Sprintf("c%d shard %d/4", c+1, shard))
		}
		jobs = append(jobs, newFleetJob(t, filepath.Join(root, fmt.Sprintf("c%d-whole", c+1)), origin, commit, bin, true, "INPUT_STORE="+whole, args))
		names = append(names, fmt.Sprintf("c%d, one runner", c+1))
		outs := make([]string, len(jobs))
		codes := make([]int, len(jobs))
		var wg sync.WaitGroup
		for i, j := range jobs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i], codes[i] = j.run(t)
			}()
		}
		wg.Wait()
		for i, j := range jobs {
			t.Logf("%s:\n%s", names[i], outs[i])
			if codes[i] != 0 {
				t.Errorf("%s: exit status %d", names[i], codes[i])
			}
			if i == 4 {
				continue
			}
			if c == 0 && !strings.Contains(outs[i], "fetching the history") {
				t.Errorf("%s: the shallow checkout's history was not fetched", names[i])
			}
			if s := read(t, j.summary); !strings.Contains(s, fmt.Sprintf("### perfloop record (shard %d/4)", i+1)) || !strings.Contains(s, "recorded run ") {
				t.Errorf("%s: job summary:\n%s", names[i], s)
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}

	// Both histories, read where the repository is.
	clone := filepath.Join(root, "clone")
	git(t, root, "clone", "-q", "file://"+origin, clone)
	read := func(dsn string) history {
		t.Helper()
		cmd := exec.Command(bin, "history", "-json", "-store", dsn)
		cmd.Dir = clone
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("perfloop history -store %s: %v", dsn, err)
		}
		var h history
		if err := json.Unmarshal(out, &h); err != nil {
			t.Fatal(err)
		}
		return h
	}
	hs, hw := read(sharded), read(whole)
	var cs, cw []string
	for i := range hs.Commits {
		cs = append(cs, hs.Commits[i].Commit)
		if n := len(hs.Commits[i].Runs); n != 4 {
			t.Errorf("commit %d has %d runs in the sharded store, want 4", i+1, n)
		}
	}
	for _, c := range hw.Commits {
		cw = append(cw, c.Commit)
	}
	if !slices.Equal(cs, commits) || !slices.Equal(cw, commits) {
		t.Fatalf("commits: sharded %v, one runner %v; want %v", cs, cw, commits)
	}
	type key struct{ name, unit string }
	byKey := map[key]int{}
	for i, b := range hw.Benchmarks {
		byKey[key{b.Name, b.Unit}] = i
	}
	if len(hs.Benchmarks) != len(hw.Benchmarks) || len(hw.Benchmarks) != 8*4 {
		t.Errorf("%d series sharded, %d from one runner; want 32 (8 benchmarks × sec/op, B/op, allocs/op, work/op)", len(hs.Benchmarks), len(hw.Benchmarks))
	}
	step := map[string]bool{}
	for _, b := range hs.Benchmarks {
		i, ok := byKey[key{b.Name, b.Unit}]
		if !ok {
			t.Errorf("series %s %s is in the sharded store only", b.Name, b.Unit)
			continue
		}
		w := hw.Benchmarks[i]
		var ns, nw []int
		for k := range b.Points {
			ns = append(ns, b.Points[k].N)
		}
		for k := range w.Points {
			nw = append(nw, w.Points[k].N)
		}
		if !slices.Equal(ns, nw) || !slices.Equal(ns, []int{2, 2, 2}) {
			t.Errorf("%s %s: samples per point %v sharded, %v from one runner; want 2 at each commit", b.Name, b.Unit, ns, nw)
		}
		if b.Unit == "work/op" && (!reflect.DeepEqual(b.Points, w.Points) || !reflect.DeepEqual(b.ChangePoints, w.ChangePoints)) {
			t.Errorf("%s work/op: sharded points %v, change points %v; one runner %v, %v", b.Name, b.Points, b.ChangePoints, w.Points, w.ChangePoints)
		}
		if b.Name == "BenchmarkB5" {
			for _, h := range []struct {
				cps []struct {
					Commit string
					Delta  float64
				}
				what string
			}{{b.ChangePoints, "sharded"}, {w.ChangePoints, "one runner"}} {
				if len(h.cps) > 0 && h.cps[len(h.cps)-1].Commit == commits[2] && h.cps[len(h.cps)-1].Delta > 5 {
					step[b.Unit+" "+h.what] = true
				}
			}
		}
	}
	for _, want := range []string{"work/op sharded", "work/op one runner", "sec/op sharded", "sec/op one runner"} {
		if !step[want] {
			t.Errorf("B5's twentyfold slowdown at c3 is not a change point of its %s series (%v)", want, step)
		}
	}
}
