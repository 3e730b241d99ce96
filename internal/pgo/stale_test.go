package pgo

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// staleTestSrc is the package the table tests profile against; the line
// numbers in the comments are the ones the tests use.
const staleTestSrc = `package pkg

func Same() int { // 3
	return 1
} // 5

func Moved() int { // 7
	return 2
} // 9

func Outer() int { // 11
	f := func() int { // 12
		g := func() int { return 3 } // 13
		return g()
	}
	return f()
} // 17

func Gen[E any](e E) E { // 19
	return e
} // 21

type T struct{}

func (t *T) M() int { // 25
	return 4
} // 27

type L[K comparable, V any] map[K]V

func (l L[K, V]) Len() int { return len(l) } // 31

func init() {} // 33

func _() {}
`

// staleTestPkg writes staleTestSrc (and a test file, which ModuleFuncs
// must skip) to a temporary directory and returns the package.
func staleTestPkg(t *testing.T) Package {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"a.go":      staleTestSrc,
		"b.go":      "package pkg\n\nfunc init() {} // 3\n",
		"a_test.go": "package pkg\n\nfunc helper() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Package{ImportPath: "example.com/m/pkg", Dir: dir, GoFiles: []string{"b.go", "a.go", "a_test.go"}}
}

func TestModuleFuncs(t *testing.T) {
	pkg := staleTestPkg(t)
	funcs, err := ModuleFuncs([]Package{pkg})
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(pkg.Dir, "a.go"), filepath.Join(pkg.Dir, "b.go")
	want := map[string]Func{}
	for _, f := range []Func{
		{"example.com/m/pkg.init", "", 0, 0},
		{"example.com/m/pkg.Same", a, 3, 5},
		{"example.com/m/pkg.Moved", a, 7, 9},
		{"example.com/m/pkg.Outer", a, 11, 17},
		{"example.com/m/pkg.Gen[...]", a, 19, 21},
		{"example.com/m/pkg.(*T).M", a, 25, 27},
		{"example.com/m/pkg.L[...].Len", a, 31, 31},
		{"example.com/m/pkg.init.0", a, 33, 33}, // a.go sorts first
		{"example.com/m/pkg.init.1", b, 3, 3},
	} {
		want[f.Name] = f
	}
	if !reflect.DeepEqual(funcs, want) {
		t.Errorf("ModuleFuncs:\n got %v\nwant %v", funcs, want)
	}

	if _, err := ModuleFuncs([]Package{{ImportPath: "x", Dir: pkg.Dir, GoFiles: []string{"nope.go"}}}); err == nil ||
		!strings.Contains(err.Error(), "parse ") || !strings.Contains(err.Error(), "nope.go") {
		t.Errorf("missing file: err = %v, want parse …nope.go…", err)
	}
}

func TestStaleSymPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/m/pkg":   "example.com/m/pkg",
		"gopkg.in/yaml.v3":    "gopkg.in/yaml%2ev3",
		"example.com":         "example%2ecom",
		"example.com/a.b/sub": "example.com/a.b/sub",
	} {
		if got := staleSymPrefix(in); got != want {
			t.Errorf("staleSymPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

// staleFrame is one frame of a test sample: a function, its file, its
// start line as the profile records it, and the sampled line.
type staleFrame struct {
	name, file  string
	start, line int64
}

// staleSample is a test sample: its weight and its locations, each a list
// of frames (more than one for inlined calls), leaf first.
type staleSample struct {
	weight int64
	locs   [][]staleFrame
}

// staleProfile builds a CPU profile with sample types samples/count and
// cpu/nanoseconds (10ms a sample).
func staleProfile(samples ...staleSample) *profile.Profile {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
	}
	fns := map[staleFrame]*profile.Function{}
	for _, s := range samples {
		ps := &profile.Sample{Value: []int64{s.weight, s.weight * 1e7}}
		for _, frames := range s.locs {
			loc := &profile.Location{ID: uint64(len(p.Location) + 1)}
			for _, f := range frames {
				key := staleFrame{name: f.name, file: f.file, start: f.start}
				fn := fns[key]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: f.name, SystemName: f.name, Filename: f.file, StartLine: f.start}
					fns[key] = fn
					p.Function = append(p.Function, fn)
				}
				loc.Line = append(loc.Line, profile.Line{Function: fn, Line: f.line})
			}
			p.Location = append(p.Location, loc)
			ps.Location = append(ps.Location, loc)
		}
		p.Sample = append(p.Sample, ps)
	}
	return p
}

func TestStale(t *testing.T) {
	pkg := staleTestPkg(t)
	funcs, err := ModuleFuncs([]Package{pkg})
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(pkg.Dir, "a.go")
	const p = "example.com/m/pkg."
	fr := func(name string, start, line int64) staleFrame { return staleFrame{p + name, a, start, line} }
	// one sample of one location per frame, leaf first
	stack := func(w int64, frames ...staleFrame) staleSample {
		s := staleSample{weight: w}
		for _, f := range frames {
			s.locs = append(s.locs, []staleFrame{f})
		}
		return s
	}
	runtime := staleFrame{"runtime.mallocgc", "/go/src/runtime/malloc.go", 900, 950}
	bench := staleFrame{p + "BenchmarkX", filepath.Join(pkg.Dir, "a_test.go"), 5, 7}

	tests := []struct {
		name    string
		samples []staleSample
		want    Staleness
	}{
		{
			name:    "unchanged",
			samples: []staleSample{stack(3, fr("Same", 3, 4), bench)},
			want:    Staleness{Total: 3, Module: 3},
		},
		{
			name:    "moved only: the offset still matches",
			samples: []staleSample{stack(2, fr("Moved", 5, 6)), stack(1, fr("Same", 3, 4))},
			want:    Staleness{Total: 3, Module: 3},
		},
		{
			name:    "edited: the offset lies beyond the body",
			samples: []staleSample{stack(2, fr("Moved", 5, 9)), stack(1, fr("Same", 3, 4))},
			want:    Staleness{Total: 3, Module: 3, Shifted: 2, ShiftedFuncs: []string{p + "Moved"}},
		},
		{
			name:    "line outside the function",
			samples: []staleSample{stack(2, fr("Same", 3, 6))},
			want:    Staleness{Total: 2, Module: 2, Shifted: 2, ShiftedFuncs: []string{p + "Same"}},
		},
		{
			name:    "no start line recorded",
			samples: []staleSample{stack(1, fr("Same", 0, 4)), stack(2, fr("Moved", 0, 10))},
			want:    Staleness{Total: 3, Module: 3, Shifted: 2, ShiftedFuncs: []string{p + "Moved"}},
		},
		{
			name:    "removed",
			samples: []staleSample{stack(4, fr("Removed", 40, 41), fr("Same", 3, 4))},
			want:    Staleness{Total: 4, Module: 4, Missing: 4, MissingFuncs: []string{p + "Removed"}},
		},
		{
			name: "closures of an existing function",
			samples: []staleSample{
				stack(1, fr("Outer.func1", 12, 14), fr("Outer", 11, 16)),
				stack(1, fr("Outer.func1.1", 13, 13), fr("Outer.func1", 12, 14)),
				stack(1, fr("Same.Outer.func1", 12, 13)), // Outer inlined into Same
				stack(1, fr("Outer-range1", 12, 13)),
				stack(1, fr("Outer.gowrap1", 12, 13)),
			},
			want: Staleness{Total: 5, Module: 5},
		},
		{
			name:    "closure outside its function",
			samples: []staleSample{stack(1, fr("Outer.func1", 20, 20))},
			want:    Staleness{Total: 1, Module: 1, Shifted: 1, ShiftedFuncs: []string{p + "Outer"}},
		},
		{
			name:    "closure of a removed function",
			samples: []staleSample{stack(1, fr("Gone.func2.1", 50, 51))},
			want:    Staleness{Total: 1, Module: 1, Missing: 1, MissingFuncs: []string{p + "Gone"}},
		},
		{
			name: "generics",
			samples: []staleSample{
				stack(1, fr("Gen[go.shape.int]", 19, 20)),
				stack(1, fr("Gen[...]", 19, 20)),
				stack(1, fr("L[go.shape.string,go.shape.map[string]int].Len", 31, 31)),
			},
			want: Staleness{Total: 3, Module: 3},
		},
		{
			name: "methods",
			samples: []staleSample{
				stack(1, fr("(*T).M", 25, 26)),
				stack(2, fr("T.M", 25, 26)), // no value method
				stack(4, fr("(*T).M.func3", 25, 26)),
			},
			want: Staleness{Total: 7, Module: 7, Missing: 2, MissingFuncs: []string{p + "T.M"}},
		},
		{
			name: "init functions and package-level closures",
			samples: []staleSample{
				stack(1, fr("init", 0, 0)),
				stack(1, fr("init.0", 33, 33)),
				stack(1, fr("init.0.func1", 33, 33)),
				stack(1, fr("init.func1", 30, 30)),
				stack(1, fr("glob..func1", 30, 30)),
				stack(1, fr("init.1", 3, 3)), // b.go
				stack(2, fr("init.2", 3, 3)),
			},
			want: Staleness{Total: 8, Module: 8, Missing: 2, MissingFuncs: []string{p + "init.2"}},
		},
		{
			name: "outside the module and test code",
			samples: []staleSample{
				stack(5, runtime),
				stack(2, runtime, bench),
				stack(1, staleFrame{"example.com/mother.F", "/x/f.go", 1, 2}),
				stack(3, runtime, fr("Same", 3, 4)),
			},
			want: Staleness{Total: 11, Module: 3},
		},
		{
			name: "root package of the module",
			samples: []staleSample{
				stack(1, staleFrame{"example.com/m.F", "/m/f.go", 1, 2}),
			},
			want: Staleness{Total: 1, Module: 1, Missing: 1, MissingFuncs: []string{"example.com/m.F"}},
		},
		{
			name: "compiler wrappers and assembly",
			samples: []staleSample{
				stack(1, staleFrame{p + "T.M", "<autogenerated>", 0, 1}),
				stack(1, staleFrame{p + "(*T).M", filepath.Join(pkg.Dir, "m_amd64.s"), 0, 40}),
			},
			want: Staleness{Total: 2, Module: 2},
		},
		{
			name: "inlined frames in one location",
			samples: []staleSample{
				{weight: 2, locs: [][]staleFrame{{fr("Same", 3, 4), fr("Moved", 7, 8)}}},
				{weight: 3, locs: [][]staleFrame{{fr("Same", 3, 4), fr("Moved", 3, 7)}}},
			},
			want: Staleness{Total: 5, Module: 5, Shifted: 3, ShiftedFuncs: []string{p + "Moved"}},
		},
		{
			name: "missing takes precedence, each sample once",
			samples: []staleSample{
				stack(3, fr("Removed", 40, 41), fr("Moved", 1, 8), fr("Removed", 40, 42)),
				stack(1, fr("Moved", 1, 8), fr("Moved", 1, 8)),
			},
			want: Staleness{
				Total: 4, Module: 4, Missing: 3, Shifted: 1,
				MissingFuncs: []string{p + "Removed"},
				ShiftedFuncs: []string{p + "Moved"},
			},
		},
		{
			name: "heaviest first, ten at most",
			samples: func() []staleSample {
				var ss []staleSample
				for i, n := range strings.Split("A B C D E F G H I J K L", " ") {
					ss = append(ss, stack(int64(i+1), fr(n, 1, 1)))
				}
				return ss
			}(),
			want: Staleness{
				Total: 78, Module: 78, Missing: 78,
				MissingFuncs: []string{p + "L", p + "K", p + "J", p + "I", p + "H", p + "G", p + "F", p + "E", p + "D", p + "C"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Stale(staleProfile(tt.samples...), "example.com/m", funcs)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Stale:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestStaleValueIndex(t *testing.T) {
	pkg := staleTestPkg(t)
	funcs, err := ModuleFuncs([]Package{pkg})
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(pkg.Dir, "a.go")
	frame := &profile.Function{ID: 1, Name: "example.com/m/pkg.Same", Filename: a, StartLine: 3}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: frame, Line: 4}}}
	for _, tt := range []struct {
		name  string
		types []*profile.ValueType
		want  int64
	}{
		{"cpu first", []*profile.ValueType{{Type: "alloc", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}, {Type: "samples", Unit: "count"}}, 20},
		{"samples first", []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}, 10},
		{"neither", []*profile.ValueType{{Type: "alloc_space", Unit: "bytes"}, {Type: "alloc_objects", Unit: "count"}}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &profile.Profile{
				SampleType: tt.types,
				Function:   []*profile.Function{frame},
				Location:   []*profile.Location{loc},
				Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{10, 20, 30}[:len(tt.types)]}},
			}
			got := Stale(p, "example.com/m", funcs)
			if got.Total != tt.want || got.Module != tt.want {
				t.Errorf("Total, Module = %d, %d; want %d", got.Total, got.Module, tt.want)
			}
		})
	}
}

// staleRealSrc is the module TestStaleRealProfile profiles: Other and Hot
// each spin for a few milliseconds a call.
const staleRealSrc = `package stale

var Sink int

func Other(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i ^ (s >> 3)
	}
	return s
}

// insert here

func Hot(n int) int {
	s := 1
	for i := 0; i < n; i++ {
		s = s*31 + i
	}
	return s
}
`

const staleRealTest = `package stale

import "testing"

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Sink += Other(3e6) + Hot(3e6)
	}
}
`

func TestStaleRealProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := t.TempDir()
	src := filepath.Join(dir, "stale.go")
	for name, text := range map[string]string{
		"go.mod":        "module example.com/stale\n\ngo 1.24\n",
		"stale.go":      staleRealSrc,
		"stale_test.go": staleRealTest,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prof := filepath.Join(dir, "cpu.pprof")
	cmd := exec.Command(goBin, "test", "-run", "x", "-bench", ".", "-benchtime", "100x", "-cpuprofile", prof)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	f, err := os.Open(prof)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.Parse(f)
	f.Close()
	if err != nil {
		t.Fatalf("parse %s: %v", prof, err)
	}
	pkgs := []Package{{ImportPath: "example.com/stale", Dir: dir, GoFiles: []string{"stale.go"}}}

	funcs, err := ModuleFuncs(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	s := Stale(p, "example.com/stale", funcs)
	t.Logf("unchanged: %+v", s)
	if s.Module == 0 || s.Module > s.Total {
		t.Fatalf("Module = %d of Total %d, want some and at most all", s.Module, s.Total)
	}
	if s.Missing != 0 || s.Shifted != 0 {
		t.Errorf("unchanged code: Missing = %d %v, Shifted = %d %v; want 0, 0", s.Missing, s.MissingFuncs, s.Shifted, s.ShiftedFuncs)
	}

	// Insert three lines above Hot and rename Other.
	edited := strings.Replace(staleRealSrc, "// insert here\n", "// insert here\n\nvar a, b = 1, 2\n\n", 1)
	edited = strings.Replace(edited, "func Other(", "func Renamed(", 1)
	if err := os.WriteFile(src, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if funcs, err = ModuleFuncs(pkgs); err != nil {
		t.Fatal(err)
	}
	s2 := Stale(p, "example.com/stale", funcs)
	t.Logf("edited: %+v", s2)
	if s2.Total != s.Total || s2.Module != s.Module {
		t.Errorf("edited code: Total, Module = %d, %d; want %d, %d as before", s2.Total, s2.Module, s.Total, s.Module)
	}
	if s2.Missing == 0 || !slices.Equal(s2.MissingFuncs, []string{"example.com/stale.Other"}) {
		t.Errorf("edited code: Missing = %d %v; want > 0 [example.com/stale.Other]", s2.Missing, s2.MissingFuncs)
	}
	// Hot only moved: its call sites keep their offsets.
	if s2.Shifted != 0 {
		t.Errorf("moved code: Shifted = %d %v; want 0 (the compiler matches offsets from the function's start)", s2.Shifted, s2.ShiftedFuncs)
	}
	if s2.Missing+s2.Shifted > s2.Module {
		t.Errorf("edited code: Missing %d + Shifted %d > Module %d", s2.Missing, s2.Shifted, s2.Module)
	}

	// Hot shrinks to one line: the sampled loop lies beyond its body.
	short := strings.Replace(edited, "\ts := 1\n\tfor i := 0; i < n; i++ {\n\t\ts = s*31 + i\n\t}\n\treturn s\n", "\treturn n\n", 1)
	if short == edited {
		t.Fatal("Hot's body not found")
	}
	if err := os.WriteFile(src, []byte(short), 0o644); err != nil {
		t.Fatal(err)
	}
	if funcs, err = ModuleFuncs(pkgs); err != nil {
		t.Fatal(err)
	}
	s3 := Stale(p, "example.com/stale", funcs)
	t.Logf("shrunk: %+v", s3)
	if s3.Shifted == 0 || !slices.Contains(s3.ShiftedFuncs, "example.com/stale.Hot") {
		t.Errorf("edited code: Shifted = %d %v; want > 0 with example.com/stale.Hot", s3.Shifted, s3.ShiftedFuncs)
	}
}
