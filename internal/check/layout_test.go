package check

import (
	"context"
	"testing"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
)

// An improvement of time in a benchmark that executes no changed
// function, on either side, is marked as code layout, as a regression is
// moved; one that executes a changed function, and any improvement of a
// count, are not.
func TestLayoutImprovements(t *testing.T) {
	pkg := gotest.Package{ImportPath: "example.com/ck", Dir: "/m", ModuleDir: "/m"}
	side := func(role string) *abtest.Side {
		bin := &gotest.Binary{Package: pkg}
		return &abtest.Side{Spec: abtest.Spec{Role: role}, Suite: &gotest.Suite{Targets: []gotest.Target{
			{Binary: bin, Name: "BenchmarkOther"}, {Binary: bin, Name: "BenchmarkWrite"}, {Binary: bin, Name: "BenchmarkSlow"},
		}}}
	}
	sides := [2]*abtest.Side{side("BASE"), side("HEAD")}
	ch := &Change{Funcs: [2][]FuncSpan{{{Name: "example.com/ck.Write"}}, {{Name: "example.com/ck.Write"}}}}
	c := &document.Check{
		Regressions: []document.Regression{{Package: "example.com/ck", Benchmark: "BenchmarkSlow", Unit: "sec/op", Delta: 0.2}},
		Improvements: []document.Change{
			{Package: "example.com/ck", Benchmark: "BenchmarkOther", Unit: "sec/op", Delta: -0.2},
			{Package: "example.com/ck", Benchmark: "BenchmarkWrite", Unit: "sec/op", Delta: -0.3},
			{Package: "example.com/ck", Benchmark: "BenchmarkWrite", Unit: "allocs/op", Delta: -1},
		},
	}
	profs := map[document.BenchKey]*[2]sideProfile{{Package: "example.com/ck", Name: "BenchmarkSlow"}: {}}
	runs := func(_ context.Context, side int, tg *gotest.Target, top, sub string, _ sideProfile) (string, error) {
		if top == "BenchmarkWrite" {
			return "example.com/ck.Write", nil
		}
		return "", nil
	}
	if err := decideLayout(context.Background(), sides, c, ch, profs, runs, nil); err != nil {
		t.Fatal(err)
	}
	if len(c.Layout) != 1 || c.Layout[0].Benchmark != "BenchmarkSlow" || len(c.Regressions) != 0 {
		t.Errorf("layout %+v, regressions %+v; want BenchmarkSlow moved", c.Layout, c.Regressions)
	}
	want := map[string]bool{"BenchmarkOther sec/op": true, "BenchmarkWrite sec/op": false, "BenchmarkWrite allocs/op": false}
	for _, im := range c.Improvements {
		if im.Layout != want[im.Benchmark+" "+im.Unit] {
			t.Errorf("%s %s: layout %v, want %v", im.Benchmark, im.Unit, im.Layout, want[im.Benchmark+" "+im.Unit])
		}
	}
}
