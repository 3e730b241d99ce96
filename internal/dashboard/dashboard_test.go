package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/history"
	"github.com/perfloop/perfloop/internal/store"
)

// fixture is a store of five commits: BenchmarkSum doubles at the third,
// BenchmarkEscape/<b>bold</b> never moves. Each run has a report and
// Sum's CPU profile.
func fixture(t *testing.T) (*store.Store, []string) {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "history.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	prof, err := os.ReadFile("testdata/BenchmarkSum.cpu.pprof")
	if err != nil {
		t.Fatal(err)
	}
	var commits []string
	base := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	for i := 0; i < 5; i++ {
		commit := strings.Repeat(fmt.Sprintf("%x", i+10), 40) // aaaa…, bbbb…
		commits = append(commits, commit)
		ns := 1000.0
		if i >= 2 {
			ns = 2000
		}
		var results strings.Builder
		results.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: Test CPU\n")
		for k := 0; k < 5; k++ {
			fmt.Fprintf(&results, "BenchmarkSum-2 \t 1000\t %.1f ns/op\t 0 B/op\t 0 allocs/op\n", ns*(1+0.01*float64(k-2)))
			fmt.Fprintf(&results, "BenchmarkEscape/<b>bold</b>-2 \t 1000\t %.1f ns/op\n", 500*(1+0.01*float64(k-2)))
		}
		doc := document.Report{Schema: document.Schema, Module: "example.com/m", Benchmarks: []document.Benchmark{{
			Package: "example.com/m", Name: "BenchmarkSum", Status: "ok", CPUProfile: "/tmp/gone/BenchmarkSum.cpu.pprof",
			Metrics: map[string]*document.Metric{"sec/op": {Median: ns * 1e-9, N: 5}},
		}}, Hotspots: []document.Hotspot{{Package: "example.com/m", Benchmark: "BenchmarkSum", Function: "example.com/m.Sum", File: "sum.go", Line: 5, Flat: 0.9, Cum: 0.9}}}
		report, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		run := &store.Run{Module: "example.com/m", Commit: commit, CommitTime: base.Add(time.Duration(i) * time.Hour),
			Subject: fmt.Sprintf("commit %d <script>alert(1)</script>", i+1), Started: base.Add(time.Duration(i) * time.Hour),
			Fingerprint: store.Fingerprint{CPU: "Test CPU", GOMAXPROCS: 2, GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64"},
			Results:     []byte(results.String()), Report: report, Profiles: map[string][]byte{"BenchmarkSum.cpu.pprof": prof}}
		if _, err := st.Save(context.Background(), run); err != nil {
			t.Fatal(err)
		}
	}
	// As perfloop record does after each run.
	if _, err := history.Update(context.Background(), st, "example.com/m", commits); err != nil {
		t.Fatal(err)
	}
	return st, commits
}

func get(t *testing.T, h http.Handler, target string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, target, nil)
	req.Host = "127.0.0.1:8080"
	h.ServeHTTP(rec, req)
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, string(body)
}

func TestIndex(t *testing.T) {
	st, commits := fixture(t)
	h := New(st, Options{Module: "example.com/m"})
	code, body := get(t, h, "/")
	if code != 200 {
		t.Fatalf("GET / = %d:\n%s", code, body)
	}
	for _, want := range []string{"BenchmarkSum", "BenchmarkEscape/&lt;b&gt;bold&lt;/b&gt;", "&#43;100.0%", commits[2][:12], "5 commits"} {
		if !strings.Contains(body, want) {
			t.Errorf("/ lacks %q", want)
		}
	}
	if strings.Contains(body, "<b>bold</b>") {
		t.Error("/ has the benchmark's name unescaped")
	}
	// The series that shifted comes before the steady one.
	if strings.Index(body, "BenchmarkSum") > strings.Index(body, "BenchmarkEscape") {
		t.Error("/ lists the steady series before the one that shifted")
	}
}

func TestSeries(t *testing.T) {
	st, commits := fixture(t)
	h := New(st, Options{Module: "example.com/m"})
	code, body := get(t, h, "/series?pkg=example.com%2Fm&name=BenchmarkSum&unit=sec%2Fop&procs=2")
	if code != 200 {
		t.Fatalf("GET /series = %d:\n%s", code, body)
	}
	for _, want := range []string{`<svg class="trend"`, `href="/run/3"`, "+100.0%", commits[2][:12], "commit 3 &lt;script&gt;"} {
		if !strings.Contains(body, want) {
			t.Errorf("/series lacks %q", want)
		}
	}
	if strings.Contains(body, "<script>alert") {
		t.Error("/series has a commit subject unescaped")
	}
	if code, _ := get(t, h, "/series?name=BenchmarkNone&unit=sec%2Fop"); code != 404 {
		t.Errorf("unknown series: %d, want 404", code)
	}
}

func TestRunAndDiff(t *testing.T) {
	st, _ := fixture(t)
	h := New(st, Options{Module: "example.com/m"})
	code, body := get(t, h, "/run/3")
	if code != 200 || !strings.Contains(body, "BenchmarkSum") || !strings.Contains(body, "perfloop</a> · run 3") {
		t.Errorf("GET /run/3 = %d, want the report with the dashboard's bar:\n%.400s", code, body)
	}
	code, body = get(t, h, "/run/3/profiles/BenchmarkSum.cpu.pprof")
	if code != 200 || len(body) < 100 {
		t.Errorf("GET profile = %d, %d bytes", code, len(body))
	}
	for _, target := range []string{"/run/99", "/run/x", "/run/3/profiles/none.pprof"} {
		if code, _ := get(t, h, target); code != 404 {
			t.Errorf("GET %s = %d, want 404", target, code)
		}
	}
	code, body = get(t, h, "/diff?a=1&b=3&bench=BenchmarkSum")
	if code != 200 || !strings.Contains(body, "B − A") || !strings.Contains(body, "sec/op") {
		t.Errorf("GET /diff = %d:\n%.600s", code, body)
	}
	if code, _ := get(t, h, "/diff?a=1&b=x&bench=BenchmarkSum"); code != 400 {
		t.Errorf("diff with a bad run id: %d, want 400", code)
	}
	rec := httptest.NewRecorder()
	post := httptest.NewRequest(http.MethodPost, "/", nil)
	post.Host = "127.0.0.1:8080"
	h.ServeHTTP(rec, post)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405: the dashboard is read-only", rec.Code)
	}
}
