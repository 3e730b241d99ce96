package findings

import "testing"

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
