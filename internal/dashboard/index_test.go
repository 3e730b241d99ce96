package dashboard

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/history"
	"github.com/perfloop/perfloop/internal/store"
)

// wide is a store of commits × benchmarks (× sec/op, B/op, allocs/op):
// the benchmarks in shifted double at the middle commit, the others are
// noise. It returns the store and the commits, oldest first.
func wide(t *testing.T, commits, benchmarks int, shifted map[int]bool) (*store.Store, []string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	var hashes []string
	for c := 0; c < commits; c++ {
		commit := fmt.Sprintf("%08x%032x", uint32(c+1)*2654435761, c)
		hashes = append(hashes, commit)
		var res strings.Builder
		res.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: Test CPU\n")
		for k := 0; k < 3; k++ {
			for b := 0; b < benchmarks; b++ {
				ns := 1000.0 * float64(1+b%7)
				if shifted[b] && c >= commits/2 {
					ns *= 2
				}
				ns *= 1 + 0.03*(2*rng.Float64()-1)
				fmt.Fprintf(&res, "BenchmarkB%04d-2 \t 1000\t %.1f ns/op\t 64 B/op\t 1 allocs/op\n", b, ns)
			}
		}
		run := &store.Run{Module: "example.com/m", Commit: commit, CommitTime: base.Add(time.Duration(c) * time.Hour),
			Subject: fmt.Sprintf("commit %d", c), Started: base.Add(time.Duration(c) * time.Hour),
			Fingerprint: store.Fingerprint{CPU: "Test CPU", GOMAXPROCS: 2, GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64"},
			Results:     []byte(res.String())}
		if _, err := st.Save(ctx, run); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := history.Update(ctx, st, "example.com/m", hashes); err != nil {
		t.Fatal(err)
	}
	return st, hashes
}

var rowName = regexp.MustCompile(`<tr><td><a href="/series\?[^"]*">([^<]*)</a>`)

func names(body string) []string {
	var out []string
	for _, m := range rowName.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestIndexPages: the first page lists 50 series, the ones that shifted
// first, each with a sparkline; the pages link to each other; the search
// keeps what matches name, package or unit.
func TestIndexPages(t *testing.T) {
	st, _ := wide(t, 12, 40, map[int]bool{7: true, 31: true})
	h := New(st, Options{Module: "example.com/m"})

	code, body := get(t, h, "/")
	if code != 200 {
		t.Fatalf("GET / = %d", code)
	}
	got := names(body)
	if len(got) != 50 {
		t.Fatalf("the first page lists %d series, want 50", len(got))
	}
	if !strings.HasPrefix(got[0], "BenchmarkB0007") && !strings.HasPrefix(got[0], "BenchmarkB0031") ||
		!strings.HasPrefix(got[1], "BenchmarkB0007") && !strings.HasPrefix(got[1], "BenchmarkB0031") {
		t.Errorf("first rows %q: want the two shifted series first", got[:3])
	}
	if n := strings.Count(body, `<svg class="spark"`); n != 50 {
		t.Errorf("%d sparklines on the page, want 50", n)
	}
	if !strings.Contains(body, "Series 1–50 of 120") || !strings.Contains(body, `href="/?page=2"`) || !strings.Contains(body, `href="/?page=3"`) {
		t.Errorf("the first page does not say 1–50 of 120 and link pages 2 and 3:\n%.3000s", body)
	}
	code, body = get(t, h, "/?page=3")
	if got := names(body); code != 200 || len(got) != 20 || !strings.Contains(body, "Series 101–120 of 120") {
		t.Errorf("page 3: %d, %d series, want the last 20", code, len(got))
	}
	// Past the end: an empty page, not an error.
	if code, body := get(t, h, "/?page=9"); code != 200 || len(names(body)) != 0 {
		t.Errorf("page 9: %d, %d series", code, len(names(body)))
	}
	for q, want := range map[string]int{"B0031": 3, "b0031 allocs": 1, "B/op": 40, "example.com/m": 120, "nothing": 0} {
		code, body := get(t, h, "/?q="+strings.ReplaceAll(q, " ", "+"))
		if got := names(body); code != 200 || len(got) != min(want, 50) {
			t.Errorf("search %q: %d, %d series; want %d", q, code, len(got), min(want, 50))
		}
		if want == 0 && !strings.Contains(body, "No series matches") {
			t.Errorf("search %q: the page does not say nothing matches", q)
		}
	}
	// The pages of a search keep the search.
	if _, body := get(t, h, "/?q=B%2Fop"); strings.Contains(body, `href="/?page=2"`) {
		t.Error("a search of 40 series links a second page")
	}
	if _, body := get(t, h, "/?q=sec"); !strings.Contains(body, `href="/?page=1&amp;q=sec"`) && !strings.Contains(body, `href="/?q=sec"`) {
		// 40 sec/op series fit one page: no links at all.
		if strings.Contains(body, `page=2`) {
			t.Error("a one-page search links page 2")
		}
	}
	if _, body := get(t, h, "/?q=op"); !strings.Contains(body, `href="/?page=2&amp;q=op"`) {
		t.Errorf("the pages of a search do not keep it:\n%.2000s", body)
	}
}

// TestIndexStale: a run saved after the last history update (record
// stores it, then is interrupted before the update) is counted on the
// first page, and a series page computes its change points with it.
func TestIndexStale(t *testing.T) {
	st, commits := fixture(t)
	h := New(st, Options{Module: "example.com/m"})
	if _, body := get(t, h, "/"); strings.Contains(body, "not in the change points") {
		t.Error("an up-to-date store's first page says runs are not taken in")
	}
	ctx := context.Background()
	runs, err := st.Runs(ctx, "example.com/m")
	if err != nil {
		t.Fatal(err)
	}
	// Commit 6: BenchmarkSum doubles again.
	last := runs[len(runs)-1]
	var res strings.Builder
	res.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: Test CPU\n")
	for k := 0; k < 5; k++ {
		fmt.Fprintf(&res, "BenchmarkSum-2 \t 1000\t %.1f ns/op\t 0 B/op\t 0 allocs/op\n", 4000*(1+0.01*float64(k-2)))
	}
	for i := 0; i < 2; i++ {
		run := &store.Run{Module: "example.com/m", Commit: strings.Repeat(fmt.Sprintf("%x", 15+i), 40), CommitTime: last.CommitTime.Add(time.Duration(i+1) * time.Hour),
			Subject: "slower again", Started: last.Started.Add(time.Duration(i+1) * time.Hour), Fingerprint: last.Fingerprint, Results: []byte(res.String())}
		if _, err := st.Save(ctx, run); err != nil {
			t.Fatal(err)
		}
	}
	_, body := get(t, h, "/")
	if !strings.Contains(body, "2 run(s) of this machine are not in the change points below yet") {
		t.Errorf("the first page does not count the runs not taken in:\n%.2000s", body)
	}
	_, body = get(t, h, "/series?pkg=example.com%2Fm&name=BenchmarkSum&unit=sec%2Fop&procs=2")
	if !strings.Contains(body, "slower again") || strings.Count(body, `class="cplabel"`) != 2 {
		t.Errorf("the series page does not show the new commits and both change points (%d):\n%.3000s", strings.Count(body, `class="cplabel"`), body)
	}
	_ = commits
}

// TestPageSizes: at 1,000 commits, the first page and a series page stay
// under 500 KB (sparklines are drawn from at most 120 values, the points
// table is paged).
func TestPageSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("stores 1,000 commits")
	}
	st, _ := wide(t, 1000, 20, map[int]bool{3: true})
	h := New(st, Options{Module: "example.com/m"})
	for _, target := range []string{"/", "/series?pkg=example.com%2Fm&name=BenchmarkB0003&unit=sec%2Fop&procs=2"} {
		code, body := get(t, h, target)
		if code != 200 {
			t.Fatalf("GET %s = %d", target, code)
		}
		t.Logf("%s: %d bytes", target, len(body))
		if len(body) > 500<<10 {
			t.Errorf("GET %s is %d KB, over 500 KB", target, len(body)>>10)
		}
	}
	_, body := get(t, h, "/series?pkg=example.com%2Fm&name=BenchmarkB0003&unit=sec%2Fop&procs=2")
	if !strings.Contains(body, "&#43;100.") || !strings.Contains(body, "page=10&amp;") {
		t.Errorf("the series page lacks the change or the tenth page of points")
	}
}
