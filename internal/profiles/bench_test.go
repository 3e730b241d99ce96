package profiles

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
)

// genProfile builds a CPU profile shaped like a big program's: functions in
// many packages, a quarter of the locations with inlined frames, stacks that
// follow a random call graph (so they share prefixes and recurse), 8 to 64
// frames deep. It is deterministic for a seed.
func genProfile(seed uint64, samples, locations int) *profile.Profile {
	r := rand.New(rand.NewPCG(seed, 1))
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        10_000_000,
		DurationNanos: int64(samples) * 10_000_000,
	}
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x4000000, File: "/tmp/big.test",
		HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	p.Mapping = []*profile.Mapping{m}
	pkgs := []string{"runtime", "fmt", "strings", "internal/runtime/maps", "encoding/json", "reflect", "sort", "sync"}
	for i := 0; i < 40; i++ {
		pkgs = append(pkgs, fmt.Sprintf("example.com/big/p%d", i))
	}
	nfuncs := max(locations/4, 8)
	for i := 0; i < nfuncs; i++ {
		pkg := pkgs[r.IntN(len(pkgs))]
		name := fmt.Sprintf("%s.f%d", pkg, i)
		if i%3 == 0 {
			name = fmt.Sprintf("%s.(*T%d).m%d", pkg, i%17, i)
		}
		p.Function = append(p.Function, &profile.Function{
			ID: uint64(i + 1), Name: name, SystemName: name,
			Filename: fmt.Sprintf("/src/%s/file%d.go", pkg, i%7), StartLine: int64(10 + i%500),
		})
	}
	for i := 0; i < locations; i++ {
		l := &profile.Location{ID: uint64(i + 1), Mapping: m, Address: 0x400000 + uint64(i)*16}
		n := 1
		if r.IntN(4) == 0 {
			n = 2 + r.IntN(2)
		}
		for j := 0; j < n; j++ {
			f := p.Function[r.IntN(nfuncs)]
			l.Line = append(l.Line, profile.Line{Function: f, Line: f.StartLine + int64(r.IntN(40))})
		}
		p.Location = append(p.Location, l)
	}
	// A call graph: each location calls a few others.
	callees := make([][]int, locations)
	for i := range callees {
		for j := 0; j < 3+r.IntN(3); j++ {
			callees[i] = append(callees[i], r.IntN(locations))
		}
	}
	stack := make([]*profile.Location, 0, 64)
	for i := 0; i < samples; i++ {
		stack = stack[:0]
		at := r.IntN(min(locations, 16)) // a few roots
		depth := 8 + r.IntN(57)
		for d := 0; d < depth; d++ {
			stack = append(stack, p.Location[at])
			at = callees[at][r.IntN(len(callees[at]))]
		}
		locs := make([]*profile.Location, len(stack))
		for j, l := range stack {
			locs[len(stack)-1-j] = l // leaf first
		}
		n := int64(1 + r.IntN(3))
		p.Sample = append(p.Sample, &profile.Sample{Location: locs, Value: []int64{n, n * p.Period}})
	}
	return p
}

func writeProfile(tb testing.TB, p *profile.Profile, path string) int64 {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := p.Write(f); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return st.Size()
}

// TestAgreesWithPprofSynthetic compares flat and cum with go tool pprof on
// a generated profile with deep recursion and inlined frames in every
// combination, which the captured profiles have little of.
func TestAgreesWithPprofSynthetic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go tool pprof")
	}
	path := filepath.Join(t.TempDir(), "synthetic.pprof")
	p := genProfile(7, 5000, 400)
	writeProfile(t, p, path)
	cpu, err := AnalyzeCPU(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ours := map[string]Function{}
	for _, f := range cpu.Functions {
		ours[f.Name] = f
	}
	for _, sort := range []string{"-flat", "-cum"} {
		rows := pprofTop(t, path, "-nodecount=60", sort)
		for _, r := range rows {
			f := ours[r.name]
			if f.Name == "" || math.Abs(f.FlatShare-r.flat) > 0.00005+1e-9 || math.Abs(f.CumShare-r.cum) > 0.00005+1e-9 {
				t.Errorf("%s: %s flat %.4f cum %.4f, pprof %.4f %.4f", sort, r.name, f.FlatShare, f.CumShare, r.flat, r.cum)
			}
		}
		t.Logf("%s: %d rows agree", sort, len(rows))
	}
}

// BenchmarkLargeProfile measures reading and analysing a CPU profile of
// tens of megabytes, beside go tool pprof -top on the same file: the
// analysis must take no longer than pprof's. Run it with
//
//	go test ./internal/profiles -run '^$' -bench LargeProfile -benchtime 3x
//
// (docs/profile.md has the figures).
func BenchmarkLargeProfile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "large.pprof")
	size := writeProfile(b, genProfile(1, 600_000, 60_000), path)
	b.Logf("profile: %.1f MB gzipped", float64(size)/1e6)

	b.Run("perfloop", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			p, err := ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := AnalyzeCPU(p, Options{Benchmark: "BenchmarkX"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parse-only", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ReadFile(path); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("analysis-only", func(b *testing.B) {
		p, err := ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if _, err := AnalyzeCPU(p, Options{Benchmark: "BenchmarkX"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("pprof-top", func(b *testing.B) {
		goCmd, err := exec.LookPath("go")
		if err != nil {
			b.Skip("go command not found")
		}
		b.SetBytes(size)
		for b.Loop() {
			if out, err := exec.Command(goCmd, "tool", "pprof", "-top", path).CombinedOutput(); err != nil {
				b.Fatalf("go tool pprof: %v\n%s", err, out)
			}
		}
	})
}
