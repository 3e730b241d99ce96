package profiles

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The profiles in testdata come from the benchmarks in testdata/planted
// (see testdata/gen.sh), built with -trimpath.
var plantedOpts = Options{ModulePath: "example.com/planted"}

func analyzePlanted(t *testing.T, bench string) *Analysis {
	t.Helper()
	opts := plantedOpts
	opts.Benchmark = bench
	a, err := Analyze(filepath.Join("testdata", bench+".cpu.pprof"), filepath.Join("testdata", bench+".mem.pprof"), opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// sourceLine returns line n of a file of the planted module, so tests
// check that a reported file:line is the line they expect.
func sourceLine(t *testing.T, file string, n int64) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "planted", filepath.FromSlash(file)))
	if err != nil {
		t.Fatalf("reported file %s: %v", file, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := int64(1); sc.Scan(); i++ {
		if i == n {
			return strings.TrimSpace(sc.Text())
		}
	}
	t.Fatalf("%s has no line %d", file, n)
	return ""
}

func category(c *CPU, name string) float64 {
	for _, cat := range c.Categories {
		if cat.Name == name {
			return cat.Share
		}
	}
	return 0
}

func function(t *testing.T, c *CPU, name string) Function {
	t.Helper()
	for _, f := range c.Functions {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no function %s in the profile", name)
	return Function{}
}

func TestMapBoundBenchmark(t *testing.T) {
	cpu := analyzePlanted(t, "BenchmarkCount").CPU
	if got := category(cpu, CategoryMaps); got < 0.5 {
		t.Errorf("maps share = %.2f, want ≥ 0.5; categories %+v", got, cpu.Categories)
	}
	if got, want := cpu.Path.String(), "BenchmarkCount → Count → runtime.mapaccess2_faststr"; got != want {
		t.Errorf("call path = %q, want %q", got, want)
	}
	if f := cpu.Path.Frames[1]; f.File != "index.go" || !strings.Contains(sourceLine(t, f.File, f.Line), "ix.pos[k]") {
		t.Errorf("path frame Count at %s:%d, want the map access in index.go", f.File, f.Line)
	}
	top := cpu.Functions[0]
	if top.Name != "runtime.mapaccess2_faststr" || top.File != "internal/runtime/maps/runtime_faststr.go" {
		t.Errorf("top flat function = %s at %s, want runtime.mapaccess2_faststr in internal/runtime/maps", top.Name, top.File)
	}
	count := function(t, cpu, "example.com/planted.(*Index).Count")
	if !count.Module || count.File != "index.go" || !strings.Contains(sourceLine(t, "index.go", count.Line), "ix.pos[k]") {
		t.Errorf("Count's hottest line = %s:%d (module %v), want the map access", count.File, count.Line, count.Module)
	}
	if count.CumShare < 0.8 || count.FlatShare > count.CumShare {
		t.Errorf("Count flat %.2f cum %.2f, want cum ≥ 0.8 and flat ≤ cum", count.FlatShare, count.CumShare)
	}
}

func TestVariableMake(t *testing.T) {
	heap := analyzePlanted(t, "BenchmarkFrame").Heap
	s := heap.Sites[0]
	if s.File != "frame.go" || !strings.Contains(sourceLine(t, s.File, s.Line), "make([]byte, n)") {
		t.Fatalf("top site %s:%d, want the make in frame.go", s.File, s.Line)
	}
	// Frame is inlined into the benchmark: the site is Frame's line, not
	// the benchmark's call.
	if s.Function != "example.com/planted.Frame" || s.InTest || !s.Module {
		t.Errorf("top site function %s (in test %v, module %v), want example.com/planted.Frame in the module", s.Function, s.InTest, s.Module)
	}
	if s.BytesShare < 0.9 {
		t.Errorf("make line has %.3f of bytes, want ≥ 0.9", s.BytesShare)
	}
	if heap.TestShare > 0.05 {
		t.Errorf("test share %.3f, want ≈ 0", heap.TestShare)
	}
}

func TestSprintfLoop(t *testing.T) {
	a := analyzePlanted(t, "BenchmarkLabels")
	s := a.Heap.Sites[0]
	if s.File != "label.go" || !strings.Contains(sourceLine(t, s.File, s.Line), "fmt.Sprintf") {
		t.Fatalf("top site %s:%d, want the Sprintf call in label.go", s.File, s.Line)
	}
	if s.Via != "fmt.Sprintf" {
		t.Errorf("via = %q, want fmt.Sprintf", s.Via)
	}
	if s.ObjectsShare < 0.3 {
		t.Errorf("Sprintf line has %.3f of objects, want ≥ 0.3", s.ObjectsShare)
	}
	if got := a.CPU.Categories[0].Name; got != CategoryFmt {
		t.Errorf("largest category = %s, want fmt; %+v", got, a.CPU.Categories)
	}
	if p := a.CPU.Path.String(); !strings.HasPrefix(p, "BenchmarkLabels → Labels → fmt.Sprintf") {
		t.Errorf("call path = %q, want it through Labels and fmt.Sprintf", p)
	}
}

func TestFixtureInTest(t *testing.T) {
	heap := analyzePlanted(t, "BenchmarkSum").Heap
	if heap.TestShare < 0.5 {
		t.Errorf("test share = %.3f, want ≥ 0.5", heap.TestShare)
	}
	s := heap.Sites[0]
	if !s.InTest || s.File != "planted_test.go" || !strings.Contains(sourceLine(t, s.File, s.Line), "&Record{") {
		t.Errorf("top site %s:%d (in test %v), want the fixture's &Record{} in planted_test.go", s.File, s.Line, s.InTest)
	}
	var sum int64
	for _, s := range heap.Sites {
		if s.InTest {
			sum += s.Bytes
		}
	}
	if sum != heap.TestBytes {
		t.Errorf("TestBytes = %d, sites in tests sum to %d", heap.TestBytes, sum)
	}
}

func TestSharesAddUp(t *testing.T) {
	for _, b := range []string{"BenchmarkCount", "BenchmarkFrame", "BenchmarkLabels", "BenchmarkSum"} {
		a := analyzePlanted(t, b)
		var flat, cats int64
		for _, f := range a.CPU.Functions {
			flat += f.Flat
			if f.Flat > f.Cum || f.Cum > a.CPU.Total {
				t.Errorf("%s: %s flat %d cum %d total %d", b, f.Name, f.Flat, f.Cum, a.CPU.Total)
			}
		}
		for _, c := range a.CPU.Categories {
			cats += c.Value
		}
		if flat != a.CPU.Total || cats != a.CPU.Total {
			t.Errorf("%s: flat sums to %d, categories to %d, want the total %d", b, flat, cats, a.CPU.Total)
		}
		bytes, objects := a.Heap.RuntimeBytes, a.Heap.RuntimeObjects
		for _, s := range a.Heap.Sites {
			bytes += s.Bytes
			objects += s.Objects
		}
		if bytes != a.Heap.Bytes || objects != a.Heap.Objects {
			t.Errorf("%s: sites and the runtime's own sum to %d B, %d objects; totals %d B, %d objects", b, bytes, objects, a.Heap.Bytes, a.Heap.Objects)
		}
	}
}

func TestTop(t *testing.T) {
	cpu := analyzePlanted(t, "BenchmarkCount").CPU
	top := cpu.Top(3)
	names := map[string]bool{}
	for _, f := range top {
		names[f.Name] = true
	}
	// The 3 largest by flat and the 3 largest by cum (the benchmark's
	// callers, which have no flat).
	for _, want := range []string{"runtime.mapaccess2_faststr", "testing.(*B).runN", "example.com/planted.BenchmarkCount"} {
		if !names[want] {
			t.Errorf("Top(3) lacks %s: %v", want, names)
		}
	}
	for i := 1; i < len(top); i++ {
		if top[i].Flat > top[i-1].Flat {
			t.Errorf("Top is not in flat order at %d", i)
		}
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cpu := filepath.Join("testdata", "BenchmarkCount.cpu.pprof")
	mem := filepath.Join("testdata", "BenchmarkCount.mem.pprof")
	full, err := os.ReadFile(cpu)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, cpu, mem, want string
	}{
		{"empty cpu", write("empty", nil), mem, "cpu profile: empty profile"},
		{"corrupt cpu", write("junk", []byte("not a profile\n")), mem, "cpu profile: corrupt profile"},
		{"truncated cpu", write("trunc", full[:len(full)/2]), mem, "cpu profile: corrupt profile"},
		{"missing cpu", filepath.Join(dir, "nope"), mem, "cpu profile: open"},
		{"heap as cpu", mem, mem, "cpu profile: not a CPU profile"},
		{"cpu as heap", cpu, cpu, "heap profile: not a heap profile"},
		{"empty heap", cpu, write("empty2", nil), "heap profile: empty profile"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Analyze(tc.cpu, tc.mem, plantedOpts)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("error = %v, want prefix %q", err, tc.want)
			}
		})
	}
}
