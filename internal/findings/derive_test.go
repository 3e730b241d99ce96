package findings

import (
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// A closure of a module function the compiler inlined into a benchmark is
// named under the benchmark; it is the module's code all the same.
func TestInlinedClosure(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		want bool
	}{
		{"BenchmarkDecompress.BenchmarkDecompress.Decompress.DecompressWithConfig.func2.func3", true},
		{"BenchmarkX.func1", false},
		{"BenchmarkX.func1.func2", false},
		{"BenchmarkX.BenchmarkX.func1", false},
		{"BenchmarkX.Parse", false},
		{"BenchmarkX", false},
		{"BenchmarkX.helper.func1", true}, // a helper's closure: callers tell test files apart
		{"BenchmarkX.funcs.func1", true},
	} {
		if got := inlinedClosure(tc.fn); got != tc.want {
			t.Errorf("inlinedClosure(%q) = %v, want %v", tc.fn, got, tc.want)
		}
	}
	d := &deriver{module: "github.com/labstack/echo/v4"}
	if !d.isModule("github.com/labstack/echo/v4/middleware.BenchmarkDecompress.BenchmarkDecompress.Decompress.DecompressWithConfig.func2.func3") {
		t.Error("the inlined handler is not module code")
	}
	if d.isModule("github.com/labstack/echo/v4/middleware.BenchmarkDecompress.func1") {
		t.Error("the benchmark's closure is module code")
	}
}

// A writer's own loop and its writes into the buffer its caller gave it
// (an escaper writing a string into buf): its job, nothing named to
// change — where the rest of the time goes, not "copy less". Without the
// shape, its own loop leads in no shape and the write's part is in its
// category's words: no change named either, and the words are the
// loop's.
func TestBufferWriteIsOwnWork(t *testing.T) {
	write := call("writeSafe", "w.go", 61, "bytes.(*Buffer).Write", "other", 0.23)
	onInputs := document.Shape{Name: "call-on-inputs", File: "w.go", Line: 61, Function: mod + ".writeSafe", OwnWork: true,
		Says: "buf.Write([]byte(src[start:i])) works on the state of buf (Write has a pointer receiver), which writeSafe is given", Advice: "the call is writeSafe's own work"}
	for _, tc := range []struct {
		name   string
		shapes []any
		nc     bool
	}{
		{"the write into the caller's buffer", []any{onInputs}, true},
		{"a write the shapes say nothing of", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), own("writeSafe", "w.go", 54, 0.45), write}, tc.shapes...)), Options{})
			if len(fs) == 0 {
				t.Fatal("no finding")
			}
			if fs[0].NoChange != tc.nc || tc.nc && strings.Contains(fs[0].Suggestion, "copy less") || tc.shapes == nil && !strings.Contains(fs[0].Suggestion, "the algorithm itself") {
				t.Errorf("no change %v, suggestion %q; want no change %v", fs[0].NoChange, fs[0].Suggestion, tc.nc)
			}
		})
	}
}

// A map made per call into a field of the value a request logger hands
// its user's callback, allocating at the stores that fill it: the API's
// cost (the callback may keep it), not "reuse one with clear(m)".
func TestMapHandedToCallback(t *testing.T) {
	fill := site("(Config).log.func1", "rl.go", 436, 0.5)
	fill.Escape = &document.Escape{Cause: "map", Name: "v.QueryParams", Verdict: "the map v.QueryParams grows as entries are added"}
	handed := document.Shape{Name: "map-handed", File: "rl.go", Line: 433, Function: mod + ".(Config).log",
		Related: []document.Location{{File: "rl.go", Line: 436}},
		Says:    "v.QueryParams is a map made per call and handed to config.LogValuesFunc in v: what the API gives its callback, which may keep it",
		Advice:  "none inside the function"}
	for _, tc := range []struct {
		name    string
		shapes  []any
		section document.Section
	}{
		{"handed to the callback", []any{handed}, document.SectionAPI},
		{"nothing known of it", nil, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), gc(0.5), fill}, tc.shapes...)), Options{})
			if len(fs) == 0 || fs[0].Section != tc.section || tc.section == document.SectionAPI && strings.Contains(fs[0].Suggestion, "clear(m)") {
				t.Fatalf("findings %+v, want one in section %s", fs, tc.section)
			}
		})
	}
}

// A case fold run through the transform machinery costs in two
// functions (the transformer's loop, the transform.String that runs it):
// one change, one finding.
func TestFoldTransformerOneFinding(t *testing.T) {
	fold := document.Shape{Name: "fold-transformer", File: "f.go", Line: 267, Function: mod + ".foldT.Transform",
		Related: []document.Location{{File: "f.go", Line: 251}},
		Says:    "foldT maps each rune through unicode.ToLower, run through the x/text transform machinery", Advice: "fold with strings.ToLower(s)"}
	loop := own("foldT.Transform", "f.go", 267, 0.3)
	str := call("stringTransform", "f.go", 251, "golang.org/x/text/transform.String", "other", 0.6)
	for _, tc := range []struct {
		name   string
		shapes []any
		want   int
	}{
		{"one fold", []any{fold}, 1},
		{"nothing known", nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, _ := Derive(specDoc(append([]any{bx(), loop, str}, tc.shapes...)), Options{})
			n := 0
			for _, f := range fs {
				if f.Section == document.SectionFix {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d findings to fix, want %d: %+v", n, tc.want, fs)
			}
		})
	}
}

// What the benchmark's httptest recorder allocates behind the module's
// http.ResponseWriter is its fixture, not the module's cause; and a
// library's own work in its category's words ranks after every cause
// that names a change at a line.
func TestHarnessAndLibraryChoice(t *testing.T) {
	rec := site("(*Response).Write", "response.go", 78, 0.5)
	rec.Via, rec.Escape = "net/http/httptest.(*ResponseRecorder).Write", nil
	fs, _ := Derive(specDoc([]any{bx(), gc(0.5), rec}), Options{})
	for _, f := range fs {
		if f.File == "response.go" {
			t.Errorf("a finding at the recorder's allocation: %+v", f)
		}
	}
	gz := call("Gzip.func1", "compress.go", 102, "compress/gzip.(*Writer).init", "compression", 0.8)
	sorted := call("Sort", "s.go", 7, "sort.Slice", "sort", 0.2)
	fs, _ = Derive(specDoc([]any{bx(), gz, sorted, sortShape("Sort", "s.go", 7)}), Options{})
	var order []string
	for _, f := range fs {
		if f.Section == document.SectionFix {
			order = append(order, f.File)
		}
	}
	if len(order) < 2 || order[0] != "s.go" {
		t.Errorf("fix order %v: the sort.Slice the code names comes before the compressor's own work", order)
	}
}

// A helper's mistake (its workers each run all of b.N) breaks every
// benchmark that calls it, though the numbers showed it in one.
func TestHelperLintBreaksEveryCaller(t *testing.T) {
	shows := heapIters(loopBytes(benchmark("BenchmarkStore100000", 8.772e-6, 3, 3226), 3000), 500, 54480, 2000, 15870)
	quiet := benchmark("BenchmarkStore1000", 3e-6, 0, 1)
	l := document.LintFinding{Analyzer: "parallel", Package: mod, Benchmark: "BenchmarkStore100000, BenchmarkStore1000",
		Benchmarks: []string{"BenchmarkStore100000", "BenchmarkStore1000"}, File: "s_test.go", Line: 458,
		Message: "starts 10 workers, each running all b.N iterations", Fix: "use b.RunParallel"}
	fs, _ := Derive(specDoc([]any{shows, quiet, l}), Options{})
	for _, f := range fs {
		if f.Section == document.SectionBroken {
			if !slices.Contains(f.Benchmarks, "BenchmarkStore1000") || !slices.Contains(f.Benchmarks, "BenchmarkStore100000") {
				t.Errorf("broken %v, want both callers of the helper", f.Benchmarks)
			}
			return
		}
	}
	t.Errorf("no broken benchmark in %+v", fs)
}

// TestNamedForTests: the module's packages made for tests by their name
// (zap's zaptest/observer) are the benchmarks' harness, not the module's
// code; a word that ends in "test" is not one.
func TestNamedForTests(t *testing.T) {
	for _, tc := range []struct {
		module, pkg string
		want        bool
	}{
		{"go.uber.org/zap", "go.uber.org/zap/zaptest/observer", true},
		{"go.uber.org/zap", "go.uber.org/zap/zapcore", false},
		{"go.uber.org/zap", "go.uber.org/zap/internal/ztest", true},
		{"go.uber.org/zap", "go.uber.org/zap", false},
		{"github.com/x/y/v2", "github.com/x/y/v2/ytest", true},
		{"github.com/x/y", "github.com/x/y/internal/testutil", true},
		{"github.com/x/latest", "github.com/x/latest/sub", false},
		{"github.com/x/y", "github.com/x/y/contest", false},
	} {
		if got := namedForTests(tc.module, tc.pkg); got != tc.want {
			t.Errorf("namedForTests(%q, %q) = %v, want %v", tc.module, tc.pkg, got, tc.want)
		}
	}
}

// TestNamedTestSupportLeftAlone: a benchmark's cost in the module's
// package made for tests (its test logger's growing entries) is a
// leave-alone finding naming the package, not a fix.
func TestNamedTestSupportLeftAlone(t *testing.T) {
	a := site("mtest/observer.(*ObservedLogs).add", "mtest/observer/observer.go", 149, 0.6)
	a.Function = mod + "/mtest/observer.(*ObservedLogs).add"
	a.Package = mod
	a.Escape = &document.Escape{Cause: "append", Name: "o.logs"}
	fs, _ := Derive(specDoc([]any{bx(), a}), Options{})
	for _, f := range fs {
		if f.Section == document.SectionFix && f.File == "mtest/observer/observer.go" {
			t.Errorf("fix finding %q in the test package", f.Message)
		}
	}
	if !slices.ContainsFunc(fs, func(f document.Finding) bool {
		return f.Section == document.SectionLeaveAlone && strings.Contains(f.Message, "made for tests")
	}) {
		t.Errorf("no leave-alone finding for mtest/observer: %v", kinds(fs))
	}
}
