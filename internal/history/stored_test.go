package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/store"
)

// stores returns DSNs of empty stores to test on: a SQLite file, and a
// PostgreSQL schema of its own when PERFLOOP_TEST_POSTGRES names a server
// (required under CI).
func stores(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{"sqlite": filepath.Join(t.TempDir(), "history.db")}
	dsn := os.Getenv("PERFLOOP_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but PERFLOOP_TEST_POSTGRES is empty")
		}
		return out
	}
	schema := fmt.Sprintf("h_%s_%d", strings.ToLower(strings.NewReplacer("/", "_", "-", "_").Replace(t.Name())), os.Getpid())
	schema = schema[:min(len(schema), 60)]
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if _, err := admin.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if admin, err := sql.Open("pgx", dsn); err == nil {
			admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
			admin.Close()
		}
	})
	u, _ := url.Parse(dsn)
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	out["postgres"] = u.String()
	return out
}

func forEachStore(t *testing.T, f func(t *testing.T, dsn string)) {
	for name, dsn := range stores(t) {
		t.Run(name, func(t *testing.T) { f(t, dsn) })
	}
}

func open(t *testing.T, dsn string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

var fp = store.Fingerprint{CPU: "Test CPU", GOMAXPROCS: 2, GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64"}

// repo is a random history: commits with levels per benchmark, some of
// which step; runs of them arrive as a store receives them.
type repo struct {
	rng     *rand.Rand
	commits []string
	level   map[string][]float64 // benchmark → level per commit
	t0      time.Time
}

func newRepo(seed uint64, commits, benchmarks int) *repo {
	r := &repo{rng: rand.New(rand.NewPCG(seed, 3)), level: map[string][]float64{}, t0: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	for i := 0; i < commits; i++ {
		r.commits = append(r.commits, fmt.Sprintf("%040x", 0xc0ffee0000+i))
	}
	for b := 0; b < benchmarks; b++ {
		name := fmt.Sprintf("B%02d", b)
		l := 1000 * (1 + r.rng.Float64())
		for i := 0; i < commits; i++ {
			if r.rng.IntN(12) == 0 {
				l *= 0.6 + 0.9*r.rng.Float64()
			}
			r.level[name] = append(r.level[name], l)
		}
	}
	return r
}

// run returns a run of commit i with count samples of each benchmark
// (those in only, when only is not nil).
func (r *repo) run(i, count int, only []string) *store.Run {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: Test CPU\n")
	names := only
	if names == nil {
		for n := range r.level {
			names = append(names, n)
		}
		slices.Sort(names)
	}
	for k := 0; k < count; k++ {
		for _, n := range names {
			v := r.level[n][i] * (1 + 0.02*r.rng.NormFloat64())
			fmt.Fprintf(&b, "Benchmark%s-2 \t 1000\t %.2f ns/op\t %d B/op\t 2 allocs/op\n", n, v, 64+int(r.level[n][i])/500)
		}
	}
	return &store.Run{Module: "example.com/m", Commit: r.commits[i], CommitTime: r.t0.Add(time.Duration(i) * time.Hour),
		Subject: fmt.Sprintf("commit %d", i), Fingerprint: fp, Started: r.t0.Add(time.Duration(i)*time.Hour + time.Minute),
		Results: []byte(b.String()), Report: []byte(`{}`)}
}

// built is the history computed from the runs' results alone, as a store
// before series computed it.
func built(t *testing.T, st *store.Store, order []string) *document.History {
	t.Helper()
	ctx := context.Background()
	runs, err := st.Runs(ctx, "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	h, err := Build(runs, func(id int64) ([]byte, error) { return st.Results(ctx, id) }, "example.com/m", Options{Order: order})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func load(t *testing.T, st *store.Store, opts Options) *document.History {
	t.Helper()
	h, err := Load(context.Background(), st, "example.com/m", opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func same(t *testing.T, what string, got, want *document.History) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Fatalf("%s differs from the history computed from the results:\n got %.2000s\nwant %.2000s", what, g, w)
	}
}

// TestUpdateIsFullRecomputation records random histories the way a store
// receives them — commits in git order, now and then one recorded late
// (put between two others), a commit's benchmarks in two shards that
// arrive apart — runs Update after each, and checks that the history
// Load then reads (record's stored change points) and the one it computes
// when they are not current are both exactly the history computed from
// the runs' results from scratch.
func TestUpdateIsFullRecomputation(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st := open(t, dsn)
		r := newRepo(11, 36, 4)
		// Commits arrive in order, but 9 and 20 late (after 14 and 27).
		arrival := []int{}
		for i := range r.commits {
			if i != 9 && i != 20 {
				arrival = append(arrival, i)
			}
			if i == 14 {
				arrival = append(arrival, 9)
			}
			if i == 27 {
				arrival = append(arrival, 20)
			}
		}
		var recorded []int
		for step, i := range arrival {
			var runs []*store.Run
			switch {
			case i == 9 || i == 20: // late, and only some benchmarks
				runs = []*store.Run{r.run(i, 5, []string{"B00", "B01"})}
			case i%5 == 3: // two shards
				runs = []*store.Run{r.run(i, 5, []string{"B00", "B01"}), r.run(i, 5, []string{"B02", "B03"})}
			default:
				runs = []*store.Run{r.run(i, 5, nil)}
			}
			recorded = append(recorded, i)
			slices.Sort(recorded)
			var ancestry []string
			for k := 0; k <= slices.Max(recorded); k++ {
				ancestry = append(ancestry, r.commits[k])
			}
			for _, run := range runs {
				if _, err := st.Save(ctx, run); err != nil {
					t.Fatal(err)
				}
				// Before the update: computed, with the caches.
				if step%7 == 0 {
					same(t, fmt.Sprintf("step %d, before the update", step), load(t, st, Options{Order: ancestry}), built(t, st, ancestry))
				}
				res, err := Update(ctx, st, "example.com/m", ancestry)
				if err != nil {
					t.Fatal(err)
				}
				if res.Runs != 1 {
					t.Errorf("step %d: the update took in %d runs, want 1", step, res.Runs)
				}
			}
			want := built(t, st, ancestry)
			same(t, fmt.Sprintf("step %d (commit %d)", step, i), load(t, st, Options{Order: ancestry}), want)
			// Without a git order (serve, or a shallow clone), the
			// stored one.
			same(t, fmt.Sprintf("step %d, stored order", step), load(t, st, Options{}), want)
		}
		// A commit recorded on a branch from commit 29: its history
		// leaves out commits 30 on, so every series changes, though the
		// run has samples of one benchmark only.
		branch := r.run(29, 5, []string{"B00"})
		branch.Commit = strings.Repeat("b", 40)
		if _, err := st.Save(ctx, branch); err != nil {
			t.Fatal(err)
		}
		onBranch := append(slices.Clone(r.commits[:30]), branch.Commit)
		res, err := Update(ctx, st, "example.com/m", onBranch)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Reorder {
			t.Error("an update on a branch that leaves out commits did not compute every series")
		}
		same(t, "on the branch", load(t, st, Options{Order: onBranch}), built(t, st, onBranch))
		same(t, "on the branch, stored order", load(t, st, Options{}), built(t, st, onBranch))

		h := load(t, st, Options{Order: r.commits})
		found := 0
		for _, b := range h.Benchmarks {
			found += len(b.ChangePoints)
		}
		if found == 0 {
			t.Error("no change point in the whole history: the test tests nothing")
		}
	})
}

// TestLoadReadsStoredChangePoints: when the stored change points are
// current, Load reads them rather than compute them (a state written by
// hand shows); when a run was saved after them, or the order is another,
// it computes the change points itself.
func TestLoadReadsStoredChangePoints(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st := open(t, dsn)
		r := newRepo(5, 6, 1)
		for i := range r.commits {
			if _, err := st.Save(ctx, r.run(i, 3, nil)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Update(ctx, st, "example.com/m", r.commits); err != nil {
			t.Fatal(err)
		}
		series, _, err := st.Series(ctx, store.SeriesFilter{Module: "example.com/m", Fingerprint: fp.Key(), Search: "sec/op"})
		if err != nil || len(series) != 1 {
			t.Fatalf("%d series, %v", len(series), err)
		}
		planted := []document.ChangePoint{{Commit: r.commits[3], Delta: 0.5, Before: 1, After: 1.5, Confidence: 0.995}}
		state := *series[0].State
		state.Changes, _ = json.Marshal(storedChanges{ChangePoints: planted, At: []int{3}})
		if err := st.UpdateHistory(ctx, "example.com/m", func(tx *store.HistoryTx) error { return tx.SetState(ctx, series[0].ID, &state) }); err != nil {
			t.Fatal(err)
		}
		cps := func(h *document.History) []document.ChangePoint {
			for _, b := range h.Benchmarks {
				if b.Unit == "sec/op" {
					return b.ChangePoints
				}
			}
			return nil
		}
		if got := cps(load(t, st, Options{Order: r.commits})); !reflect.DeepEqual(got, planted) {
			t.Errorf("change points %+v, want the stored ones %+v", got, planted)
		}
		// Another order (HEAD on a branch without the last commit).
		if got := cps(load(t, st, Options{Order: r.commits[:5]})); reflect.DeepEqual(got, planted) {
			t.Error("a history in another order read the stored change points")
		}
		// A run saved since.
		if _, err := st.Save(ctx, r.run(5, 2, nil)); err != nil {
			t.Fatal(err)
		}
		if got := cps(load(t, st, Options{Order: r.commits})); reflect.DeepEqual(got, planted) {
			t.Error("a history with a run not taken in read the stored change points")
		}
	})
}

// TestLoadSince: -since keeps the commits from one on, the change points
// of the whole series among them; a commit without a run is an error.
func TestLoadSince(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st := open(t, dsn)
		r := newRepo(2, 10, 1)
		r.level["B00"] = []float64{1000, 1000, 1000, 1000, 2000, 2000, 2000, 2000, 2000, 2000}
		for i := range r.commits {
			if _, err := st.Save(ctx, r.run(i, 5, nil)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Update(ctx, st, "example.com/m", r.commits); err != nil {
			t.Fatal(err)
		}
		h := load(t, st, Options{Order: r.commits, Since: r.commits[3]})
		if len(h.Commits) != 7 || h.Commits[0].Commit != r.commits[3] {
			t.Errorf("%d commits from %s, want 7 from commit 3", len(h.Commits), h.Commits[0].Commit)
		}
		b := h.Benchmarks[0]
		if len(b.Points) != 7 || len(b.ChangePoints) != 1 || b.ChangePoints[0].Commit != r.commits[4] {
			t.Errorf("%d points, change points %+v; want 7 points and the change at commit 4", len(b.Points), b.ChangePoints)
		}
		if d := b.ChangePoints[0].Delta; d < 0.9 || d > 1.1 {
			t.Errorf("delta %.2f, want ≈ +100%% (measured on the whole series)", d)
		}
		h = load(t, st, Options{Order: r.commits, Since: r.commits[6]})
		if len(h.Benchmarks[0].ChangePoints) != 0 {
			t.Errorf("since commit 6: change points %+v, want none", h.Benchmarks[0].ChangePoints)
		}
		if _, err := Load(ctx, st, "example.com/m", Options{Order: r.commits, Since: strings.Repeat("f", 40)}); err == nil {
			t.Error("-since a commit without a run: no error")
		}
	})
}

// TestUpdateCommitJoiningTheOrder: a commit recorded while outside HEAD's
// history (a branch's commit, recorded from main's checkout) is left out;
// once HEAD's history holds it (the branch merged), the next update puts
// its samples into the series it has samples of, though its run was taken
// in long before.
func TestUpdateCommitJoiningTheOrder(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st := open(t, dsn)
		r := newRepo(21, 12, 2)
		for i := 0; i < 10; i++ {
			if _, err := st.Save(ctx, r.run(i, 4, nil)); err != nil {
				t.Fatal(err)
			}
		}
		main := r.commits[:10]
		if _, err := Update(ctx, st, "example.com/m", main); err != nil {
			t.Fatal(err)
		}
		// The branch's commit, twice as slow in B00, recorded from main.
		branch := r.run(10, 4, []string{"B00"})
		branch.Results = []byte(scaleNs(string(branch.Results), 2))
		if _, err := st.Save(ctx, branch); err != nil {
			t.Fatal(err)
		}
		if _, err := Update(ctx, st, "example.com/m", main); err != nil {
			t.Fatal(err)
		}
		same(t, "the branch's commit outside the history", load(t, st, Options{Order: main}), built(t, st, main))
		// Merged: HEAD's history holds it now, and a new commit is
		// recorded on top.
		merged := append(slices.Clone(r.commits[:5]), r.commits[10])
		merged = append(merged, r.commits[5:10]...)
		merged = append(merged, r.commits[11])
		if _, err := st.Save(ctx, r.run(11, 4, []string{"B01"})); err != nil {
			t.Fatal(err)
		}
		if _, err := Update(ctx, st, "example.com/m", merged); err != nil {
			t.Fatal(err)
		}
		same(t, "merged", load(t, st, Options{Order: merged}), built(t, st, merged))
		same(t, "merged, the stored order", load(t, st, Options{}), built(t, st, merged))
	})
}

// TestLoadEach: a history streamed series by series (Options.Each) is the
// history Load returns whole — same commits, same series in the same
// order, same points and change points — over more series than one chunk
// reads, current or recomputed, with -since; and Load keeps none of them.
func TestLoadEach(t *testing.T) {
	forEachStore(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		st := open(t, dsn)
		r := newRepo(9, 8, streamChunk/2+7) // three units each: > 1 chunk
		for i := range r.commits {
			if _, err := st.Save(ctx, r.run(i, 3, nil)); err != nil {
				t.Fatal(err)
			}
		}
		for _, opts := range []Options{
			{Order: r.commits},                                        // not current: computed here
			{Order: r.commits, Since: r.commits[2]},                   // -since
			{Order: r.commits[:6], MinDelta: 0.05},                    // another order
			{Match: func(n string) bool { return n < "BenchmarkB9" }}, // a selection
		} {
			if _, err := Update(ctx, st, "example.com/m", r.commits); err != nil {
				t.Fatal(err)
			}
			want := load(t, st, opts)
			var streamed []document.HistoryBenchmark
			var commits []document.HistoryCommit
			opts.Each = func(h *document.History, b *document.HistoryBenchmark) error {
				commits = h.Commits
				streamed = append(streamed, *b)
				return nil
			}
			got := load(t, st, opts)
			if len(got.Benchmarks) != 0 {
				t.Fatalf("Load with Each kept %d series", len(got.Benchmarks))
			}
			if len(want.Benchmarks) <= streamChunk {
				t.Fatalf("%d series: fewer than a chunk, the test proves nothing", len(want.Benchmarks))
			}
			if !reflect.DeepEqual(commits, want.Commits) || !reflect.DeepEqual(got.Commits, want.Commits) {
				t.Errorf("commits differ")
			}
			got.Benchmarks = streamed
			same(t, "the streamed history", got, want)
		}
	})
}
