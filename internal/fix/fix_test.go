package fix

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/site"
	"github.com/perfloop/perfloop/internal/stats"
)

func table(unit string, better int, rows ...*stats.Row) *stats.Table {
	return &stats.Table{Config: []string{"pkg: example.com/m"}, Unit: unit, Better: better, Rows: rows}
}

func row(name string, delta float64, significant bool, mde float64) *stats.Row {
	return &stats.Row{Benchmark: name, FullName: name, Cells: []*stats.Cell{{}, {Compared: true, Delta: delta, Significant: significant, MDE: mde, Low: math.NaN(), High: math.NaN()}}}
}

// TestDecide: a gain counts only in the finding's units and only when
// significant; a significant loss in any unit rejects; with no gain the
// smallest detectable change of those units is reported.
func TestDecide(t *testing.T) {
	alloc := document.Finding{Kind: "alloc"}
	cpu := document.Finding{Kind: "cpu"}
	tests := []struct {
		name   string
		f      document.Finding
		tables []*stats.Table
		gain   bool
		worse  string
		mde    float64
	}{
		{"fewer allocations", alloc, []*stats.Table{
			table("sec/op", -1, row("Keys", -0.02, false, 0.04)),
			table("allocs/op", -1, row("Keys", -0.66, true, 0)),
		}, true, "", 0},
		{"faster but a cpu finding wants sec/op", cpu, []*stats.Table{
			table("allocs/op", -1, row("Label", -0.5, true, 0)),
			table("sec/op", -1, row("Label", -0.01, false, 0.03)),
		}, false, "", 0.03},
		{"one benchmark slower", cpu, []*stats.Table{
			table("sec/op", -1, row("A", -0.3, true, 0), row("B", 0.12, true, 0)),
		}, true, "made BenchmarkB worse: +12.0% sec/op", 0},
		{"worse within the threshold", cpu, []*stats.Table{
			table("sec/op", -1, row("A", -0.3, true, 0), row("B", 0.02, true, 0)),
		}, true, "", 0},
		{"higher is better", cpu, []*stats.Table{
			table("sec/op", -1, row("A", -0.2, true, 0)),
			table("B/s", 1, row("A", 0.25, true, 0)),
		}, true, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, gain, worse, mde := decide(&abtest.Result{Tables: tt.tables}, tt.f, 0.03)
			if gain != tt.gain || worse != tt.worse {
				t.Errorf("gain %v worse %q, want %v %q", gain, worse, tt.gain, tt.worse)
			}
			if !tt.gain && mde != tt.mde {
				t.Errorf("mde %v, want %v", mde, tt.mde)
			}
		})
	}
}

// TestCandidates: the suggested fixes that edit a line of a root cause
// (its own, a related line, a shape's), or lie in a module function its
// lines call, once per site and rewrite, the rewrites of the shapes that
// explain the cause first; with a production profile, a function below
// the share is rejected as cold, not tried.
func TestCandidates(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "c.go"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("package m\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := &document.Report{Findings: []document.Finding{
		{Section: "fix", Kind: "alloc", File: "a.go", Line: 3, Function: "example.com/m.Hot", Related: []document.Location{{File: "a.go", Line: 5}},
			Shapes: []document.ShapeRef{{Name: "concat-in-loop", File: "a.go", Line: 5, Rewrite: "stringsbuilder"}}},
		{Section: "fix", Kind: "cpu", File: "b.go", Line: 7, Function: "example.com/m.Cold"},
		{Section: "leave-alone", Kind: "leave-alone", File: "a.go", Line: 40},
	}}
	all := []site.Fix{
		{Rewrite: "presize", File: "a.go", Line: 4, Lines: []int{3, 4}, Function: "example.com/m.Hot"},
		{Rewrite: "stringsbuilder", File: "a.go", Line: 5, Lines: []int{5}, Function: "example.com/m.Hot"},
		{Rewrite: "strconv", File: "b.go", Line: 7, Lines: []int{7}, Function: "example.com/m.Cold"},
		{Rewrite: "builder", File: "c.go", Line: 20, Lines: []int{18, 20}, Function: "example.com/m.Helper"},
		{Rewrite: "presize", File: "a.go", Line: 40, Lines: []int{40}, Function: "example.com/m.Other"},
	}
	callees := func(file string, line int) []site.Span {
		if file == "a.go" && line == 5 {
			return []site.Span{{File: "c.go", From: 15, To: 25, Function: "example.com/m.Helper"}}
		}
		return nil
	}
	cands, rej := candidates(Options{Dir: dir, Doc: doc}, all, callees)
	var got []string
	for _, c := range cands {
		got = append(got, fmt.Sprintf("%s:%d %s%s", c.File, c.Line, c.Kind, c.Description))
	}
	want := []string{"a.go:5 stringsbuilder", "a.go:4 presize", "c.go:20 builder (in m.Helper, which a.go:5 calls)", "b.go:7 strconv"}
	if !slices.Equal(got, want) || len(rej) != 0 {
		t.Fatalf("candidates\n%q\nwant\n%q\nrejected %+v", got, want, rej)
	}
	// A cause led by a line of a loop takes the fixes anywhere in that
	// loop: a short profile samples only some of its lines.
	loopDoc := &document.Report{
		Findings: []document.Finding{{Section: "fix", Kind: "cpu", File: "b.go", Line: 44, Function: "example.com/m.Serial"}},
		Shapes: []document.Shape{{Name: "loop", File: "b.go", Line: 42, Related: []document.Location{{File: "b.go", Line: 46}}},
			{Name: "loop", File: "b.go", Line: 60, Related: []document.Location{{File: "b.go", Line: 66}}}},
	}
	loopFixes := []site.Fix{
		{Rewrite: "hoist-alloc", File: "b.go", Line: 43, Lines: []int{42, 43}, Function: "example.com/m.Serial"},
		{Rewrite: "hoist-alloc", File: "b.go", Line: 61, Lines: []int{61}, Function: "example.com/m.Serial"},
	}
	if cands, _ := candidates(Options{Dir: dir, Doc: loopDoc}, loopFixes, nil); len(cands) != 1 || cands[0].Line != 43 {
		t.Fatalf("candidates in the cause's loop: %+v, want b.go:43 alone", cands)
	}
	cands, rej = candidates(Options{Dir: dir, Doc: doc, MinShare: 0.01,
		Production: map[string]float64{"example.com/m.Hot": 0.3, "example.com/m.Helper": 0.3, "example.com/m.Cold": 0.001}}, all, callees)
	if len(cands) != 3 || len(rej) != 1 || rej[0].File != "b.go" || !strings.HasPrefix(rej[0].Reason, "cold in production: m.Cold is 0.1%") {
		t.Fatalf("with production: candidates %+v, rejected %+v", cands, rej)
	}
}

// TestNewTestFailures: a candidate's tests are held only to the failures
// the baseline (the commit) does not have, compared by test name (go test
// -json); a package that fails outside its tests (a test file that does
// not compile) is a failure of its own.
func TestNewTestFailures(t *testing.T) {
	read := func(name string) testFailures {
		data, err := os.ReadFile(filepath.Join("testdata", "gotestjson", name))
		if err != nil {
			t.Fatal(err)
		}
		return parseTestJSON(data)
	}
	base := read("base.json")
	if got, want := strings.Join(base.lines(), "\n"), "example.com/tj/p TestBroken/a: p_test.go:8: a is wrong"; got != want {
		t.Errorf("baseline failures:\n%s\nwant\n%s", got, want)
	}
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"same.json", nil},
		{"pass.json", nil},
		{"newsub.json", []string{"example.com/tj/p TestBroken/b: p_test.go:9: b is wrong"}},
		{"build.json", []string{`example.com/tj/q: q/q_test.go:5:40: cannot use "s" (untyped string constant) as int value in variable declaration`}},
		{"panic.json", []string{"example.com/tj/q TestQ: panic: assignment to entry in nil map [recovered, repanicked]"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got := read(tc.file).without(base)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("new failures:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestReadTreeChanged: the work tree's state, read before and right
// before -apply, tells an edit, a new untracked file and a moved HEAD
// from fix's own patches written into -out inside the work tree.
func TestReadTreeChanged(t *testing.T) {
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
	git := func(dir string, args ...string) {
		t.Helper()
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(path, text string) {
		t.Helper()
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		edit    func(repo string)
		changed string
	}{
		{"nothing", func(string) {}, ""},
		{"patches written into -out", func(repo string) { write(filepath.Join(repo, "perfloop-fix", "all.patch"), "diff") }, ""},
		{"a tracked file edited", func(repo string) { write(filepath.Join(repo, "a.go"), "package a\n// edited\n") }, "a.go"},
		{"an untracked file edited", func(repo string) { write(filepath.Join(repo, "notes.txt"), "more notes") }, "notes.txt"},
		{"a new file", func(repo string) { write(filepath.Join(repo, "b.go"), "package a\n") }, "b.go"},
		{"a commit", func(repo string) { git(repo, "commit", "-q", "--allow-empty", "-m", "next") }, "HEAD moved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := t.TempDir()
			git(repo, "init", "-q")
			write(filepath.Join(repo, "a.go"), "package a\n")
			git(repo, "add", "a.go")
			git(repo, "commit", "-qm", "a")
			write(filepath.Join(repo, "notes.txt"), "notes")
			ctx := context.Background()
			out := filepath.Join(repo, "perfloop-fix")
			before, err := readTree(ctx, repo, out)
			if err != nil {
				t.Fatal(err)
			}
			tc.edit(repo)
			now, err := readTree(ctx, repo, out)
			if err != nil {
				t.Fatal(err)
			}
			if got := before.changed(now); !strings.HasPrefix(got, tc.changed) || (tc.changed == "") != (got == "") {
				t.Errorf("changed = %q, want %q", got, tc.changed)
			}
		})
	}
}

// TestTimeOnlyAgainstAllocs: a candidate that removes allocations (an
// exact count) but looks slower is measured again before it is rejected;
// one that also allocates more, or that only looks slower, is not.
func TestTimeOnlyAgainstAllocs(t *testing.T) {
	row := func(unit string, delta float64, sig bool) document.FixMeasured {
		return document.FixMeasured{Name: "BenchmarkKeys", Unit: unit, Delta: delta, Significant: sig}
	}
	for _, tc := range []struct {
		name string
		rows []document.FixMeasured
		want bool
	}{
		{"fewer allocs, slower", []document.FixMeasured{row("sec/op", 1.656, true), row("allocs/op", -0.8, true), row("B/op", -0.5, true)}, true},
		{"slower, allocs unchanged", []document.FixMeasured{row("sec/op", 0.5, true), row("allocs/op", 0, false)}, false},
		{"fewer allocs, more bytes", []document.FixMeasured{row("sec/op", 0.5, true), row("allocs/op", -0.8, true), row("B/op", 0.4, true)}, false},
		{"fewer allocs, time within the threshold", []document.FixMeasured{row("sec/op", 0.02, true), row("allocs/op", -0.8, true)}, false},
	} {
		if got := timeOnlyAgainstAllocs(tc.rows, 0.03); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
