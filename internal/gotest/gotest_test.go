package gotest

import (
	"os"
	"strings"
	"testing"
)

func TestSplitPattern(t *testing.T) {
	tests := []struct{ in, top, sub string }{
		{".", ".", ""},
		{"Encode/size=10$", "Encode", "size=10$"},
		{"A|B", "A|B", ""},
		{"X/a/b", "X", "a/b"},
		{"(A/B)|C/D", "(A/B)|C", "D"},
		{`[/]x/y`, `[/]x`, "y"},
		{`A\/B/C`, `A\/B`, "C"},
	}
	for _, tt := range tests {
		top, sub := SplitPattern(tt.in)
		if top != tt.top || sub != tt.sub {
			t.Errorf("SplitPattern(%q) = %q, %q; want %q, %q", tt.in, top, sub, tt.top, tt.sub)
		}
	}
}

// TestCheckPattern: a -bench or -run pattern is checked as the testing
// package checks it: split on the slashes and bars outside brackets and
// parentheses, each element compiled.
func TestCheckPattern(t *testing.T) {
	tests := []struct {
		in  string
		err string // "" for a valid pattern
	}{
		{".", ""},
		{"", ""},
		{"Encode|Decode", ""},
		{"Encode/size=10$", ""},
		{"(A/B)|C/D", ""},
		{`[/]x/y`, ""},
		{`A\/B/C`, ""},
		{"a]b", ""}, // an unmatched ']' is a literal
		{"[", "missing closing ]"},
		{"(", "missing closing )"},
		{"Encode/[", `element 2 ("["): error parsing regexp: missing closing ]`},
		{"A|*", `element 2 ("*"): error parsing regexp: missing argument to repetition operator`},
		{"x(?P<", "invalid or unsupported Perl syntax"},
	}
	for _, tt := range tests {
		err := CheckPattern(tt.in)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("CheckPattern(%q) = %v, want nil", tt.in, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("CheckPattern(%q) = %v, want an error containing %q", tt.in, err, tt.err)
		}
	}
}

func TestIsBenchmarkName(t *testing.T) {
	for name, want := range map[string]bool{
		"Benchmark": true, "BenchmarkX": true, "Benchmark_x": true, "Benchmarkx": false,
		"TestX": false, "ExampleBenchmark": false, "Benchmark1": true,
	} {
		if got := isBenchmarkName(name); got != want {
			t.Errorf("isBenchmarkName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestPanicAndFrame(t *testing.T) {
	stderr, err := os.ReadFile("testdata/panic.stderr")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := panicMessage(stderr), "panic: assignment to entry in nil map"; got != want {
		t.Errorf("panicMessage = %q, want %q", got, want)
	}
	b := &Binary{Package: Package{ModuleDir: "/home/u/planted", Dir: "/home/u/planted/store"}}
	// The benchmark's own frame (a closure inside it), not the library
	// frame where the panic happened.
	if got, want := b.benchmarkFrame(stderr, "BenchmarkPut"), "store/cache_test.go:79"; got != want {
		t.Errorf("benchmarkFrame = %q, want %q", got, want)
	}
	// Another benchmark's name falls back to the first _test.go frame.
	if got, want := b.benchmarkFrame(stderr, "BenchmarkOther"), "store/cache_test.go:79"; got != want {
		t.Errorf("fallback frame = %q, want %q", got, want)
	}
	outside := &Binary{Package: Package{ModuleDir: "/elsewhere"}}
	if got, want := outside.benchmarkFrame(stderr, "BenchmarkPut"), "cache_test.go:79"; got != want {
		t.Errorf("frame outside the module = %q, want %q", got, want)
	}
}

func TestBuildError(t *testing.T) {
	e := &BuildError{Package: "example.com/m", Output: "# example.com/m [example.com/m.test]\n./a.go:3:9: undefined: x\n./a.go:4:9: undefined: y\nFAIL\texample.com/m [build failed]\n"}
	if got, want := e.Error(), "build failed: ./a.go:3:9: undefined: x (and 1 more errors)"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// TestFirstLines: the go command's multi-line errors read as one line: the
// command it says to run follows its colon with a space, not "; \t".
func TestFirstLines(t *testing.T) {
	for in, want := range map[string]string{
		"go: gopkg.in/check.v1@v0.0.0: missing go.sum entry for go.mod file; to add it:\n\tgo mod download gopkg.in/check.v1": "go: gopkg.in/check.v1@v0.0.0: missing go.sum entry for go.mod file; to add it: go mod download gopkg.in/check.v1",
		"a\nb\n\nc\nd":     "a; b; …",
		"only one line":    "only one line",
		"  indented\n  x ": "indented; x",
	} {
		if got := firstLines(in, 3); got != want {
			t.Errorf("firstLines(%q) = %q, want %q", in, got, want)
		}
	}
}
