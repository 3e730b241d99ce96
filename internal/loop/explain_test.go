package loop

import (
	"context"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// TestDepNotInlined: a dependency's method the module's loop calls hot,
// just over the inlining budget, is found with the compiler's cost and
// budget; an inlined one, one no module line calls, a cold one and the
// standard library's are not looked at.
func TestDepNotInlined(t *testing.T) {
	const set = "example.com/dep.(*Bits).Set"
	doc := &document.Report{
		Module: "example.com/m",
		Hotspots: []document.Hotspot{
			{Benchmark: "BenchmarkFill", Function: set, File: "example.com/dep@v0.0.0/dep.go", Line: 27, Flat: 0.30, Cum: 0.30},
			{Benchmark: "BenchmarkFill", Function: "example.com/dep.Small", Flat: 0.10, Cum: 0.10},
			{Benchmark: "BenchmarkFill", Function: "example.com/dep.Cold", Flat: 0.01, Cum: 0.01},
			{Benchmark: "BenchmarkFill", Function: "example.com/dep.Uncalled", Flat: 0.20, Cum: 0.20},
			{Benchmark: "BenchmarkFill", Function: "strings.Index", Flat: 0.20, Cum: 0.20},
		},
		Lines: []document.LineCost{
			{Benchmark: "BenchmarkFill", Function: "example.com/m.Fill", File: "m.go", Line: 8, Callee: set, Self: 0.3, Cum: 0.3},
			{Benchmark: "BenchmarkFill", Function: "example.com/m.Fill", File: "m.go", Line: 8, Callee: "example.com/dep.Small", Self: 0.1, Cum: 0.1},
			{Benchmark: "BenchmarkFill", Function: "example.com/m.Fill", File: "m.go", Line: 8, Callee: "example.com/dep.Cold", Self: 0.01, Cum: 0.01},
			{Benchmark: "BenchmarkFill", Function: "example.com/m.Fill", File: "m.go", Line: 8, Callee: "strings.Index", Self: 0.2, Cum: 0.2},
		},
	}
	got, err := DepNotInlined(context.Background(), "testdata/depinline/m", "", doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("got %+v, want (*Bits).Set alone", got)
	}
	g := got[0]
	if g.Function != set || !g.Dependency || g.Line != 12 || g.Budget != 80 || g.Cost <= 80 || g.Cost > 120 || g.File != "example.com/dep@v0.0.0/dep.go" {
		t.Errorf("got %+v, want (*Bits).Set declared at line 12, its cost just over the budget of 80, the profile's file", g)
	}
	// Nothing hot from another module: nothing compiled, nothing found.
	doc.Hotspots = doc.Hotspots[4:]
	if got, err := DepNotInlined(context.Background(), "testdata/depinline/m", "", doc); err != nil || len(got) != 0 {
		t.Errorf("standard library only: got %+v, %v; want nothing", got, err)
	}
}
