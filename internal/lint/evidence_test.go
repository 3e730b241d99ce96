package lint

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

func parse(t *testing.T, text string) []*benchfmt.Result {
	t.Helper()
	var out []*benchfmt.Result
	r := benchfmt.NewReader(strings.NewReader(text), "in")
	for r.Scan() {
		if res, ok := r.Result().(*benchfmt.Result); ok {
			out = append(out, res.Clone())
		}
	}
	return out
}

// TestEvidence: a sub-nanosecond benchmark and one whose B/op is a fixed
// allocation spread over b.N are named; a steady one is not.
func TestEvidence(t *testing.T) {
	rs := parse(t, `pkg: example.com/m
BenchmarkFast-2   1000000000   0.31 ns/op
BenchmarkFixed-2  1000   2000 ns/op  80000 B/op
BenchmarkFixed-2  100000 2000 ns/op  800 B/op
BenchmarkSteady-2 1000   2000 ns/op  64 B/op
BenchmarkSteady-2 100000 2000 ns/op  64 B/op
`)
	var got []string
	for _, d := range Evidence(rs) {
		got = append(got, d.Benchmark+": "+d.Message)
	}
	want := []string{"BenchmarkFast: 0.31 ns/op", "BenchmarkFixed: B/op falls from 80000 at 1000 iterations to 800 at 100000"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
