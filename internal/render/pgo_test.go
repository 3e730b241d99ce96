package render

import (
	"bytes"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// pgoDoc is a perfloop pgo run as the shapes module gives it, with a
// second benchmark that PGO sped up.
func pgoDoc() *document.PGO {
	return &document.PGO{
		Schema: document.PGOSchema, Module: "example.com/shapes", Date: "2026-11-23T17:00:00Z",
		Profile:   document.PGOProfile{Path: "cmd/shapes/default.pgo", Source: "benchmarks", Samples: 230, Bytes: 1073, RawBytes: 3062, Profiles: 2},
		Written:   []document.PGOWritten{{Path: "cmd/shapes/default.pgo", Packages: []string{"example.com/shapes/cmd/shapes"}, Replaced: true}},
		AppliesTo: "the default builds (-pgo=auto) of example.com/shapes/cmd/shapes: go build and go install read default.pgo beside the main package",
		Sides:     [2]string{"pgo off", "pgo on"},
		Benchmarks: []document.PGOBenchmark{
			{Package: "example.com/shapes/shape", Name: "BenchmarkTotal", Unit: "sec/op", Off: 3.562e-06, PGO: 3.6e-06,
				Delta: -0.0005, Low: -0.0155, High: 0.0198, Verdict: "no significant change", Decisions: []int{0, 1}},
			{Package: "example.com/shapes/shape", Name: "BenchmarkMixed/n=1000", Unit: "sec/op", Off: 8.1e-06, PGO: 6.9e-06,
				Delta: -0.148, Low: -0.160, High: -0.131, Significant: true, Verdict: "faster"},
		},
		Geomean: -0.077, Faster: 1, Rounds: 20, WallSeconds: 1.4,
		BuildSeconds: &document.PGOPair{Off: 7.4, PGO: 11.2}, BinaryBytes: &document.PGOPair{Off: 2398226, PGO: 2410209},
		BuildRuns: &document.PGOBuildRuns{Off: []float64{7.2, 7.6}, PGO: []float64{11.0, 11.4}},
		BuildOf:   []string{"example.com/shapes/cmd/shapes"},
		Compiler: []document.PGODecision{
			{File: "shape/shape.go", Line: 37, Col: 14, Kind: "devirtualize", Callee: "(*Rect).Area",
				Message: "PGO devirtualizing interface call s.Area to (*Rect).Area", Share: 0.78, Benchmarks: []string{"BenchmarkTotal"}},
			{File: "shape/shape.go", Line: 37, Col: 14, Kind: "inline", Callee: "(*Rect).Area",
				Message: "inlining call to (*Rect).Area", Share: 0.78, Benchmarks: []string{"BenchmarkTotal"}},
			{File: "shape/mixed.go", Line: 1004, Col: 9, Kind: "inline", Callee: "(*node[go.shape.interface { Less(btree.Item) bool }]).insert",
				Message: "inlining call to (*node[go.shape.interface { Less(btree.Item) bool }]).insert", Share: 0.91, Benchmarks: []string{"BenchmarkMixed"}},
			{File: "cmd/shapes/main.go", Line: 17, Col: 19, Kind: "not-inlined", Callee: "shape.Total",
				Message: "inlining call to shape.Total", Share: 0.02, Benchmarks: []string{}},
		},
		Notes: []string{"BenchmarkMixed/n=1000: the first iteration takes 12ms, 1500× a later one (something warms up): runs of 2 iterations, which time the later ones only"},
	}
}

func TestPGOText(t *testing.T) {
	var buf bytes.Buffer
	if err := PGOText(&buf, pgoDoc()); err != nil {
		t.Fatal(err)
	}
	golden(t, "pgo.text", buf.Bytes())

	d := pgoDoc()
	d.Check, d.Sides = true, [2]string{"current profile", "fresh profile"}
	d.Stale = &document.PGOStale{Path: "cmd/shapes/default.pgo", Module: 0.97, Missing: 0.25, Shifted: 0.5,
		MissingFuncs: []string{"example.com/shapes/shape.(*Circle).Area"}, ShiftedFuncs: []string{"example.com/shapes/shape.Total"}}
	d.BuildSeconds, d.BinaryBytes, d.Compiler, d.Notes = nil, nil, nil, nil
	buf.Reset()
	if err := PGOText(&buf, d); err != nil {
		t.Fatal(err)
	}
	golden(t, "pgo.check.text", buf.Bytes())
}
