package abtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/stats"
)

// module writes a tiny module whose BenchmarkWork loops work times and
// whose BenchmarkSame never changes; extra is appended to the test file.
func module(t *testing.T, work int, extra string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/ab\n\ngo 1.24\n",
		"ab.go": `package ab

var sink int

// Work does n units of work.
func Work(n int) {
	s := 0
	for i := 0; i < n*1000; i++ {
		s += i ^ (s >> 3)
	}
	sink = s
}
`,
		"ab_test.go": `package ab

import "testing"

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Work(` + itoa(work) + `)
	}
}

func BenchmarkSame(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Work(1)
	}
}
` + extra,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func itoa(n int) string {
	const digits = "0123456789"
	if n < 10 {
		return digits[n : n+1]
	}
	return itoa(n/10) + digits[n%10:n%10+1]
}

func build(t *testing.T, a, b string) [2]*Side {
	t.Helper()
	sides, err := Build(context.Background(), [2]Spec{
		{Role: "BASE", Label: "A", Dir: a},
		{Role: "HEAD", Label: "B", Dir: b},
	}, []string{"./..."}, ".", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Close(sides) })
	return sides
}

func options() Options {
	return Options{Benchtime: "5ms", Timeout: time.Minute, MinRounds: 6, MaxRounds: 12,
		Budget: 5 * time.Minute, Alpha: stats.Alpha, Settle: 0.03, Seed: 1}
}

// TestSlowerSideIsFlagged compares two prepared sides directly: Work
// does five times the work on side B, Same is the same code on both.
func TestSlowerSideIsFlagged(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	sides := build(t, module(t, 2, ""), module(t, 10, ""))
	res, err := Run(context.Background(), sides, options(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rounds < 6 {
		t.Errorf("Rounds = %d, want at least MinRounds 6", res.Rounds)
	}
	if n := res.Slower(0.5); n != 1 {
		t.Errorf("Slower(50%%) = %d, want 1 (Work)", n)
	}
	var work, same *stats.Cell
	for _, tab := range res.Tables {
		if tab.Unit != "sec/op" {
			continue
		}
		for _, row := range tab.Rows {
			switch row.Benchmark {
			case "Work":
				work = row.Cells[1]
			case "Same":
				same = row.Cells[1]
			}
		}
	}
	if work == nil || same == nil {
		t.Fatalf("missing rows: Work %v, Same %v", work, same)
	}
	if !work.Significant || work.Delta < 1 {
		t.Errorf("Work: significant %v, delta %+.2f; want a significant slowdown of more than +100%%", work.Significant, work.Delta)
	}
	if same.Significant && same.Delta > 1 {
		t.Errorf("Same: delta %+.2f flagged; the code is the same", same.Delta)
	}
	if len(res.Failures) != 0 {
		t.Errorf("Failures = %v, want none", res.Failures)
	}
}

// TestFailuresAndOneSidedBenchmarks: a benchmark that panics on side B is
// a failure of side B; a benchmark on one side only is listed, not
// compared.
func TestFailuresAndOneSidedBenchmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	onlyA := "\nfunc BenchmarkOld(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tWork(1)\n\t}\n}\n"
	panics := "\nfunc BenchmarkOld(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tWork(1)\n\t\tif i == 3 {\n\t\t\tvar m map[int]int\n\t\t\tm[0] = 1\n\t\t}\n\t}\n}\n" +
		"\nfunc BenchmarkNew(b *testing.B) {\n\tfor i := 0; i < b.N; i++ {\n\t\tWork(1)\n\t}\n}\n"
	sides := build(t, module(t, 1, onlyA), module(t, 1, panics))
	opts := options()
	opts.MinRounds, opts.MaxRounds = 2, 2
	res, err := Run(context.Background(), sides, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.OnlyHead) != 1 || res.OnlyHead[0].Name != "BenchmarkNew" {
		t.Errorf("OnlyHead = %v, want BenchmarkNew", res.OnlyHead)
	}
	if len(res.Failures) != 1 || res.Failures[0].Side != 1 || !strings.Contains(res.Failures[0].Err, "nil map") {
		t.Errorf("Failures = %+v, want BenchmarkOld panicking on side B", res.Failures)
	}
	for _, tab := range res.Tables {
		for _, row := range tab.Rows {
			if row.Benchmark == "Old" {
				t.Errorf("%s: BenchmarkOld has a row although side B never measured it", tab.Unit)
			}
		}
	}
}

// TestNothingInCommon is ErrNoCommon.
func TestNothingInCommon(t *testing.T) {
	if testing.Short() {
		t.Skip("builds benchmarks")
	}
	sides := build(t, module(t, 1, ""), module(t, 1, ""))
	sides[1].Suite.Targets = nil
	_, err := Run(context.Background(), sides, options(), nil)
	if !errors.Is(err, ErrNoCommon) {
		t.Errorf("err = %v, want ErrNoCommon", err)
	}
}

// TestInterruptedRunKeepsRounds: cancelling during the rounds returns the
// rounds measured so far, decided, with the context's error.
func TestInterruptedRunKeepsRounds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	sides := build(t, module(t, 2, ""), module(t, 2, ""))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opts := options()
	opts.MinRounds, opts.MaxRounds = 20, 50
	opts.AfterRound = func(n int) {
		if n == 3 {
			cancel()
		}
	}
	res, err := Run(ctx, sides, opts, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if res.Rounds != 3 {
		t.Errorf("Rounds = %d, want the 3 completed before the interruption", res.Rounds)
	}
	if len(res.Tables) == 0 {
		t.Fatal("no tables: the rounds measured before the interruption were lost")
	}
	for _, tab := range res.Tables {
		for _, row := range tab.Rows {
			if c := row.Cells[1]; c == nil || c.Verdict == "" {
				t.Errorf("%s %s: no verdict", tab.Unit, row.Benchmark)
			}
		}
	}
}

// TestInconclusiveRows: rows the rounds run out on before they are
// decided say so, with the change they could detect at the level spent.
func TestInconclusiveRows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	sides := build(t, module(t, 2, ""), module(t, 2, ""))
	opts := options()
	opts.MinRounds, opts.MaxRounds = 3, 3
	res, err := Run(context.Background(), sides, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tab := range res.Tables {
		if tab.Unit != "sec/op" {
			continue
		}
		for _, row := range tab.Rows {
			c := row.Cells[1]
			if c.Significant {
				continue // three rounds can flag nothing: 2/2³ > α
			}
			if c.Verdict != stats.Inconclusive && c.Verdict != stats.NoChange {
				t.Errorf("%s: verdict %q", row.Benchmark, c.Verdict)
			}
			if !math.IsInf(c.MDE, 1) {
				t.Errorf("%s: MDE %g after 3 rounds, want +Inf (no change is detectable)", row.Benchmark, c.MDE)
			}
		}
	}
}

// TestColdFirstIteration: a benchmark whose first iteration is slow (a
// cache filling) reaches b.N = 1 in a short -benchtime, and a run of one
// iteration would time the cold one alone. Calibration sees it and runs
// enough iterations to time the steady state, for a b.N loop (whose first
// iteration the testing package runs apart) and for b.Loop (which times
// it), and says so.
func TestColdFirstIteration(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	dir := module(t, 1, "")
	cold := `package ab

import (
	"testing"
	"time"
)

var filled = map[string]bool{}

// fill costs 10ms the first time a process calls it.
func fill(key string) {
	if !filled[key] {
		time.Sleep(10 * time.Millisecond)
		filled[key] = true
	}
}

func BenchmarkColdN(b *testing.B) {
	fill("n")
	for i := 0; i < b.N; i++ {
		Work(20)
	}
}

func BenchmarkColdLoop(b *testing.B) {
	for b.Loop() {
		fill("loop")
		Work(20)
	}
}
`
	if err := os.WriteFile(filepath.Join(dir, "cold_test.go"), []byte(cold), 0o644); err != nil {
		t.Fatal(err)
	}
	sides := build(t, dir, dir)
	opts := options()
	opts.MaxRounds = 6
	res, err := Run(context.Background(), sides, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"BenchmarkColdN", "BenchmarkColdLoop"} {
		if !strings.Contains(notes, want+": the first iteration takes") {
			t.Errorf("no note names %s: %q", want, res.Notes)
		}
	}
	for _, tab := range res.Tables {
		if tab.Unit != "sec/op" {
			continue
		}
		for _, row := range tab.Rows {
			if !strings.HasPrefix(row.Benchmark, "Cold") {
				continue
			}
			// Work(20) takes microseconds; the cold iteration 10ms.
			if m := row.Cells[0].Summary.Median; m > 2e-3 {
				t.Errorf("%s: %.3gs/op: the cold first iteration weighs in the runs", row.Benchmark, m)
			}
		}
	}
}

// TestSlowSideRunsItsOwnCount: Work does 200 times the work on side B.
// Each side runs its own iteration count, about equal time per round,
// rather than B running A's count 200 times as long; the pairs are per op,
// so the verdict is the same.
func TestSlowSideRunsItsOwnCount(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	sides := build(t, module(t, 1, ""), module(t, 200, ""))
	res, err := Run(context.Background(), sides, options(), nil)
	if err != nil {
		t.Fatal(err)
	}
	iters := func(side int, name string) int {
		for _, r := range res.results[side] {
			if n, _ := stats.SplitProcs(r.Name); n == name {
				return r.Iters
			}
		}
		return 0
	}
	a, b := iters(0, "Work"), iters(1, "Work")
	if a == 0 || b == 0 || b*20 > a {
		t.Errorf("Work: %d iterations on A, %d on B; want B's count a twentieth of A's or less", a, b)
	}
	if sa, sb := iters(0, "Same"), iters(1, "Same"); sa != sb {
		t.Errorf("Same: %d iterations on A, %d on B; want one count", sa, sb)
	}
	if !slicesContainsSubstr(res.Notes, "BenchmarkWork: B takes") {
		t.Errorf("Notes = %q, want one saying BenchmarkWork's B is slower and runs fewer iterations", res.Notes)
	}
	if n := res.Slower(0.5); n != 1 {
		t.Errorf("Slower(50%%) = %d, want 1 (Work)", n)
	}
}

func slicesContainsSubstr[T any](xs []T, sub string) bool {
	for _, x := range xs {
		if strings.Contains(fmt.Sprint(x), sub) {
			return true
		}
	}
	return false
}

// TestOneSidedSubBenchmark: a sub-benchmark only A has (a case the
// change removed, or, reversed, one it added) is listed as on one side,
// not a failure of B; the sub-benchmarks both have are compared.
func TestOneSidedSubBenchmark(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs benchmarks")
	}
	sub := func(names ...string) string {
		s := "\nfunc BenchmarkSub(b *testing.B) {\n"
		for _, n := range names {
			s += "\tb.Run(\"" + n + "\", func(b *testing.B) {\n\t\tfor i := 0; i < b.N; i++ {\n\t\t\tWork(1)\n\t\t}\n\t})\n"
		}
		return s + "}\n"
	}
	sides := build(t, module(t, 1, sub("kept", "gone")), module(t, 1, sub("kept")))
	res, err := Run(context.Background(), sides, options(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) != 0 {
		t.Errorf("Failures = %v, want none", res.Failures)
	}
	if !slicesContainsSubstr(res.OnlyBase, "BenchmarkSub/gone") {
		t.Errorf("OnlyBase = %q, want BenchmarkSub/gone", res.OnlyBase)
	}
	found := false
	for _, tab := range res.Tables {
		for _, row := range tab.Rows {
			found = found || row.Benchmark == "Sub/kept"
		}
	}
	if !found {
		t.Error("Sub/kept was not compared")
	}
}
