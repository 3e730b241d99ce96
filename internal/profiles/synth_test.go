package profiles

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

// synth builds a profile from stacks written leaf first, one string per
// Location; "a+b" is one Location with a inlined into b (Line[0] = a).
// Functions of example.com/m live in the module at /mod; others in GOROOT.
type synth struct {
	p     *profile.Profile
	funcs map[string]*profile.Function
	locs  map[string]*profile.Location
}

func newSynth(types ...string) *synth {
	s := &synth{p: &profile.Profile{}, funcs: map[string]*profile.Function{}, locs: map[string]*profile.Location{}}
	for _, t := range types {
		unit := "count"
		switch t {
		case "cpu":
			unit = "nanoseconds"
		case "alloc_space", "inuse_space":
			unit = "bytes"
		}
		s.p.SampleType = append(s.p.SampleType, &profile.ValueType{Type: t, Unit: unit})
	}
	return s
}

func (s *synth) fn(name string) *profile.Function {
	if f, ok := s.funcs[name]; ok {
		return f
	}
	// The package path: up to the first dot after the last slash.
	pkg := name
	if i := strings.IndexByte(pkg, '['); i >= 0 {
		pkg = pkg[:i]
	}
	slash := strings.LastIndexByte(pkg, '/')
	if dot := strings.IndexByte(pkg[slash+1:], '.'); dot >= 0 {
		pkg = pkg[:slash+1+dot]
	}
	file := "/goroot/src/" + pkg + "/x.go"
	if rest, ok := strings.CutPrefix(name, "example.com/m."); ok {
		file = "/mod/m.go"
		if strings.HasPrefix(rest, "Benchmark") || strings.HasPrefix(rest, "fixture") {
			file = "/mod/m_test.go"
		}
	}
	f := &profile.Function{ID: uint64(len(s.p.Function) + 1), Name: name, Filename: file}
	s.p.Function = append(s.p.Function, f)
	s.funcs[name] = f
	return f
}

func (s *synth) loc(spec string) *profile.Location {
	if l, ok := s.locs[spec]; ok {
		return l
	}
	l := &profile.Location{ID: uint64(len(s.p.Location) + 1), Address: uint64(0x1000 + len(s.p.Location))}
	for i, name := range strings.Split(spec, "+") {
		line := int64(10 + i)
		if n, l, ok := strings.Cut(name, ":"); ok {
			name = n
			line = int64(len(l) * 100)
		}
		l.Line = append(l.Line, profile.Line{Function: s.fn(name), Line: line})
	}
	s.p.Location = append(s.p.Location, l)
	s.locs[spec] = l
	return l
}

// add adds a sample with the given values and stack (leaf first).
func (s *synth) add(values []int64, stack ...string) *synth {
	smp := &profile.Sample{Value: values}
	for _, spec := range stack {
		smp.Location = append(smp.Location, s.loc(spec))
	}
	s.p.Sample = append(s.p.Sample, smp)
	return s
}

var synthOpts = Options{ModuleDir: "/mod", ModulePath: "example.com/m", Benchmark: "BenchmarkX"}

func TestCategoryRules(t *testing.T) {
	root := []string{"example.com/m.BenchmarkX", "testing.(*B).runN", "runtime.goexit"}
	for _, tc := range []struct {
		stack []string // leaf first, above root
		want  string
	}{
		{[]string{"runtime.mapaccess2_faststr", "example.com/m.(*T).Get"}, CategoryMaps},
		{[]string{"aeshashbody", "runtime.strhash", "runtime.mapaccess2_faststr", "example.com/m.(*T).Get"}, CategoryMaps},
		{[]string{"internal/runtime/maps.ctrlGroup.matchH2+runtime.mapaccess1", "example.com/m.(*T).Get"}, CategoryMaps},
		// mallocgc under mapassign is allocation: memory.
		{[]string{"runtime.mallocgc", "runtime.newarray", "runtime.mapassign_fast64", "example.com/m.(*T).Put"}, CategoryMemory},
		// memmove decides nothing: its caller does.
		{[]string{"runtime.memmove", "strings.(*Builder).WriteString", "example.com/m.Join"}, CategoryStrings},
		{[]string{"runtime.memmove", "runtime.growslice", "strings.(*Builder).WriteString", "example.com/m.Join"}, CategoryMemory},
		{[]string{"runtime.memmove", "example.com/m.Copy"}, CategoryApplication},
		{[]string{"runtime.memclrNoHeapPointers", "example.com/m.Reset"}, CategoryMemory},
		{[]string{"runtime.madvise", "runtime.sysUnused", "runtime.(*pageAlloc).scavenge", "runtime.bgscavenge"}, CategoryMemory},
		// The collector wins wherever it is on the stack.
		{[]string{"runtime.scanobject", "runtime.gcDrainN", "runtime.gcAssistAlloc", "runtime.mallocgc", "example.com/m.New"}, CategoryGC},
		{[]string{"runtime.(*mspan).base", "runtime.tryDeferToSpanScan", "runtime.wbBufFlush1", "gcWriteBarrier", "example.com/m.Set"}, CategoryGC},
		{[]string{"runtime.futex", "runtime.notesleep", "runtime.stopm", "runtime.findRunnable", "runtime.schedule"}, CategoryScheduler},
		{[]string{"runtime.lock2", "runtime.chansend", "example.com/m.Send"}, CategoryScheduler},
		{[]string{"internal/runtime/syscall.Syscall6", "syscall.RawSyscall6", "syscall.write", "os.(*File).Write", "example.com/m.Log"}, CategorySyscall},
		{[]string{"runtime.futex", "runtime.lock2", "example.com/m.Log"}, CategorySyscall},
		{[]string{"fmt.(*pp).doPrintf", "fmt.Sprintf", "example.com/m.Label"}, CategoryFmt},
		{[]string{"reflect.Value.Field", "encoding/json.(*encodeState).reflectValue", "example.com/m.Encode"}, CategoryReflect},
		{[]string{"encoding/json.(*decodeState).scanWhile", "example.com/m.Decode"}, CategoryEncoding},
		{[]string{"compress/flate.(*compressor).deflate", "example.com/m.Zip"}, CategoryCompression},
		{[]string{"crypto/sha256.block", "example.com/m.Sum"}, CategoryCrypto},
		{[]string{"hash/crc32.ieeeCLMUL", "example.com/m.Sum"}, CategoryCrypto},
		{[]string{"regexp.(*Regexp).doOnePass", "example.com/m.Match"}, CategoryRegexp},
		{[]string{"github.com/dlclark/regexp2/v2.(*Regexp).run", "example.com/m.matchRules"}, CategoryRegexp},
		{[]string{"slices.pdqsortCmpFunc[go.shape.int]", "slices.SortFunc[go.shape.[]int]", "example.com/m.Order"}, CategorySort},
		{[]string{"example.com/m.less", "sort.insertionSort", "sort.Sort", "example.com/m.Order"}, CategoryApplication},
		{[]string{"slices.Index[go.shape.[]int]", "example.com/m.Find"}, CategoryApplication},
		{[]string{"sync.(*Mutex).Lock", "example.com/m.Find"}, CategoryApplication},
		{[]string{"strconv.Itoa", "example.com/m.BenchmarkX"}, CategoryStrings},
		// The harness is not the application.
		{[]string{"testing.(*B).Loop"}, CategoryOther},
		{[]string{"time.Now", "example.com/m.Stamp"}, CategoryOther},
		{[]string{"github.com/some/lib.Do", "example.com/m.Run"}, CategoryOther},
	} {
		s := newSynth("samples", "cpu").add([]int64{1, 10}, append(tc.stack, root...)...)
		cpu, err := AnalyzeCPU(s.p, synthOpts)
		if err != nil {
			t.Fatal(err)
		}
		if got := cpu.Categories[0].Name; got != tc.want || len(cpu.Categories) != 1 {
			t.Errorf("%s: category %v, want %s", strings.Join(tc.stack, " ← "), cpu.Categories, tc.want)
		}
	}
}

func TestFlatCum(t *testing.T) {
	s := newSynth("samples", "cpu")
	// Recursion: f appears three times but counts once in cum.
	s.add([]int64{1, 30}, "example.com/m.f:a", "example.com/m.f:bb", "example.com/m.f:bb", "example.com/m.BenchmarkX", "runtime.goexit")
	// Inlining: g inlined into h is two functions in one Location.
	s.add([]int64{1, 10}, "example.com/m.g+example.com/m.h", "example.com/m.f:bb", "example.com/m.BenchmarkX", "runtime.goexit")
	s.add([]int64{1, 60}, "example.com/m.BenchmarkX", "runtime.goexit")
	cpu, err := AnalyzeCPU(s.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]int64{
		"example.com/m.f":          {30, 40},
		"example.com/m.g":          {10, 10},
		"example.com/m.h":          {0, 10},
		"example.com/m.BenchmarkX": {60, 100},
		"runtime.goexit":           {0, 100},
	}
	if len(cpu.Functions) != len(want) {
		t.Errorf("%d functions, want %d", len(cpu.Functions), len(want))
	}
	for _, f := range cpu.Functions {
		w := want[f.Name]
		if f.Flat != w[0] || f.Cum != w[1] || math.Abs(f.CumShare-float64(w[1])/100) > 1e-12 {
			t.Errorf("%s: flat %d cum %d (%.2f), want %d %d", f.Name, f.Flat, f.Cum, f.CumShare, w[0], w[1])
		}
	}
	// f's hottest line is the recursive call (line 200, cum 40), not
	// its own line 100 (flat 30).
	if f := cpu.Functions[1]; f.Name != "example.com/m.f" || f.Line != 200 || f.File != "m.go" {
		t.Errorf("f's hottest line %s:%d, want m.go:200 (%+v)", f.File, f.Line, f)
	}
	if cpu.Samples != 3 || cpu.Total != 100 || cpu.Unit != "nanoseconds" {
		t.Errorf("samples %d total %d unit %s", cpu.Samples, cpu.Total, cpu.Unit)
	}
}

func TestCallPath(t *testing.T) {
	t.Run("fan-out", testCallPathFanOut)
	s := newSynth("samples", "cpu")
	root := []string{"testing.(*B).runN", "runtime.goexit"}
	bench := "example.com/m.BenchmarkX"
	s.add([]int64{1, 90}, append([]string{"example.com/m.rank", "example.com/m.(*Index).Find", "example.com/m.computeFingerprints", "example.com/m.(*Builder).Build", "example.com/m.Finalize", bench}, root...)...)
	s.add([]int64{1, 20}, append([]string{"example.com/m.rank", "example.com/m.Other", "example.com/m.Finalize", bench}, root...)...)
	s.add([]int64{1, 40}, append([]string{"runtime.memmove", "example.com/m.Finalize", bench}, root...)...)
	s.add([]int64{1, 30}, append([]string{"runtime.asyncPreempt", "example.com/m.(*Index).Find", "example.com/m.computeFingerprints", "example.com/m.(*Builder).Build", "example.com/m.Finalize", bench}, root...)...)
	// Another goroutine: not under the benchmark.
	s.add([]int64{1, 500}, "runtime.gcDrain", "runtime.gcBgMarkWorker", "runtime.goexit")
	cpu, err := AnalyzeCPU(s.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	// The benchmark has 180: 120 under Build, where Find has 120 (30 of
	// its own, sampled while preempted) and rank 90, half of 180.
	if got, want := cpu.Path.String(), "BenchmarkX → Finalize → Build → computeFingerprints → Find → rank"; got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
	if got, want := cpu.Path.Share, 90.0/680; math.Abs(got-want) > 1e-12 {
		t.Errorf("path share = %v, want %v", got, want)
	}
	if f := cpu.Path.Frames[1]; f.Function != "example.com/m.Finalize" || f.File != "m.go" || f.Line != 10 {
		t.Errorf("frame 1 = %+v", f)
	}
}

func TestNoSamples(t *testing.T) {
	s := newSynth("samples", "cpu")
	if _, err := AnalyzeCPU(s.p, synthOpts); err == nil || !strings.Contains(err.Error(), "no samples") {
		t.Errorf("error = %v, want no samples", err)
	}
	h := newSynth("alloc_objects", "alloc_space", "inuse_objects", "inuse_space")
	if _, err := AnalyzeHeap(h.p, synthOpts); err == nil || !strings.Contains(err.Error(), "no allocations") {
		t.Errorf("error = %v, want no allocations", err)
	}
}

// TestUnsampled: a CPU profile without a sample is its duration and no
// CPU time; one with samples is AnalyzeCPU's.
func TestUnsampled(t *testing.T) {
	s := newSynth("samples", "cpu")
	s.p.DurationNanos = 3e8
	c, err := Unsampled(s.p)
	if err != nil || c.Duration != 300*time.Millisecond || c.Unit != "nanoseconds" || c.Total != 0 || c.Samples != 0 {
		t.Errorf("Unsampled = %+v, %v; want 300ms, nanoseconds, nothing sampled", c, err)
	}
	s.add([]int64{1, 1e7}, "main.f")
	if _, err := Unsampled(s.p); err == nil {
		t.Error("Unsampled of a profile with a sample: no error")
	}
}

func TestAllocationSites(t *testing.T) {
	h := newSynth("alloc_objects", "alloc_space", "inuse_objects", "inuse_space")
	// fmt.Sprintf's allocation is charged to the module line calling it.
	h.add([]int64{3, 48, 0, 0}, "fmt.Sprintf", "example.com/m.Label", "example.com/m.BenchmarkX")
	h.add([]int64{1, 8, 0, 0}, "example.com/m.Label", "example.com/m.BenchmarkX")
	// An inlined helper: the site is the helper's line.
	h.add([]int64{1, 1000, 1, 1000}, "example.com/m.newBuf+example.com/m.Encode", "example.com/m.BenchmarkX")
	// Fixture code in a _test.go file, through strings.Repeat.
	h.add([]int64{2, 2000, 0, 0}, "strings.Repeat", "example.com/m.fixture", "example.com/m.BenchmarkX")
	// The harness, with no module frame.
	h.add([]int64{1, 16, 0, 0}, "runtime.malg", "testing.(*B).run1", "runtime.goexit")
	// The runtime's own, with no frame outside it (an M started for the
	// benchmark's goroutines): in the totals, as pprof counts it, and
	// no site.
	h.add([]int64{1, 4000, 0, 0}, "runtime.mallocgc", "runtime.newobject", "runtime.malg", "runtime.allocm", "runtime.newm", "runtime.systemstack")
	heap, err := AnalyzeHeap(h.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	type site struct {
		fn, file, via string
		bytes         int64
		test          bool
	}
	var got []site
	for _, s := range heap.Sites {
		got = append(got, site{s.Function, s.File, s.Via, s.Bytes, s.InTest})
	}
	want := []site{
		{"example.com/m.fixture", "m_test.go", "strings.Repeat", 2000, true},
		{"example.com/m.newBuf", "m.go", "", 1000, false},
		{"example.com/m.Label", "m.go", "fmt.Sprintf", 56, false},
		{"testing.(*B).run1", "testing/x.go", "", 16, false},
	}
	if len(got) != len(want) {
		t.Fatalf("sites = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("site %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if heap.Bytes != 7072 || heap.Objects != 9 || heap.TestBytes != 2000 || heap.RuntimeBytes != 4000 {
		t.Errorf("totals %d B %d objects, test %d", heap.Bytes, heap.Objects, heap.TestBytes)
	}
	if math.Abs(heap.TestShare-2000.0/7072) > 1e-12 {
		t.Errorf("test share = %v", heap.TestShare)
	}
}

func TestShortName(t *testing.T) {
	for _, tc := range []struct {
		name   string
		module bool
		want   string
	}{
		{"example.com/m.(*Index).Find", true, "Find"},
		{"example.com/m.Index.Find", true, "Find"},
		{"example.com/m.Build.func1", true, "Build.func1"},
		{"example.com/m.(*B).Run.func2.1", true, "Run.func2.1"},
		{"example.com/m/sub.rank", true, "rank"},
		{"example.com/m.Map[go.shape.string].Get", true, "Get"},
		{"runtime.mapaccess2_faststr", false, "runtime.mapaccess2_faststr"},
		{"strings.(*Builder).WriteString", false, "strings.Builder.WriteString"},
		{"internal/runtime/maps.(*Map).getWithKeySmall", false, "maps.Map.getWithKeySmall"},
		{"aeshashbody", false, "aeshashbody"},
	} {
		if got := ShortName(tc.name, tc.module); got != tc.want {
			t.Errorf("ShortName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestRelFile(t *testing.T) {
	s := newSynth("samples", "cpu").add([]int64{1, 1}, "runtime.main")
	s.p.Function[0].Filename = "/usr/local/go/src/runtime/proc.go"
	ix := newIndex(s.p, Options{ModuleDir: "/home/u/m", ModulePath: "example.com/m"})
	for file, want := range map[string]string{
		"/home/u/m/codec/codec.go":                       "codec/codec.go",
		"/home/u/mm/x.go":                                "/home/u/mm/x.go",
		"example.com/m/codec.go":                         "codec.go",
		"/usr/local/go/src/fmt/print.go":                 "fmt/print.go",
		"/root/go/pkg/mod/golang.org/x/text@v0.1.0/w.go": "golang.org/x/text@v0.1.0/w.go",
		"fmt/print.go":                                   "fmt/print.go",
	} {
		if got := ix.relFile(file); got != want {
			t.Errorf("relFile(%q) = %q, want %q", file, got, want)
		}
	}
	if !ix.inModule("/home/u/m/x_test.go") || ix.inModule("/home/u/mm/x.go") || !ix.inModule("example.com/m/x.go") {
		t.Error("inModule is wrong")
	}
	// Generated code whose //line directives name its generator's
	// input (goyacc's "yaccpar", a grammar's "sql.y") is the module's;
	// the compiler's wrappers and other packages are not.
	for _, tc := range []struct {
		name, file string
		want       bool
	}{
		{"example.com/m.(*yyParserImpl).Parse", "yaccpar", true},
		{"example.com/m/sql.yyParse", "sql.y", true},
		{"example.com/m.(*T).String", "<autogenerated>", false},
		{"fmt.Sprintf", "yaccpar", false},
		{"example.com/mm.F", "gen.y", false},
	} {
		if got := ix.newFunc(tc.name, tc.file).module; got != tc.want {
			t.Errorf("%s at %s: module %v, want %v", tc.name, tc.file, got, tc.want)
		}
	}
}

// testCallPathFanOut: the path stops where no callee has half the time.
func testCallPathFanOut(t *testing.T) {
	s := newSynth("samples", "cpu")
	for i, leaf := range []string{"fmt.(*pp).doPrintf", "runtime.mallocgc", "sync.(*Pool).Put"} {
		s.add([]int64{1, int64(30 + i)}, leaf, "fmt.Sprintf", "example.com/m.Labels", "example.com/m.BenchmarkX", "runtime.goexit")
	}
	cpu, err := AnalyzeCPU(s.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cpu.Path.String(), "BenchmarkX → Labels → fmt.Sprintf"; got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
}

// Reach charges time in unchanged module code to the nearest changed
// frame that leads to it: the changed caller's line, not the callee's.
func TestReach(t *testing.T) {
	root := []string{"example.com/m.BenchmarkX", "testing.(*B).runN", "runtime.goexit"}
	s := newSynth("samples", "cpu")
	stack := func(leaf ...string) []string { return append(leaf, root...) }
	// nextSet's own code under the changed Scan (line 200), three times;
	// popcount's own code, inlined into the changed Scan's line, once;
	// nextSet under the unchanged Other (line 100), once.
	for range 3 {
		s.add([]int64{1, 10}, stack("example.com/m.nextSet", "example.com/m.Scan:xx")...)
	}
	s.add([]int64{1, 10}, stack("example.com/m.popcount+example.com/m.Scan:xx")...)
	s.add([]int64{1, 10}, stack("example.com/m.nextSet", "example.com/m.Other:x")...)
	opts := synthOpts
	opts.Changed = func(file string, line int64) bool { return file == "m.go" && line == 200 }
	c, err := AnalyzeCPU(s.p, opts)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		fn, at string
		line   int64
	}
	got := map[key]float64{}
	for _, r := range c.Reach {
		got[key{r.Function, r.AtFunction, r.AtLine}] += r.Self
	}
	want := map[key]float64{
		{"example.com/m.nextSet", "example.com/m.Scan", 200}:  0.6,
		{"example.com/m.popcount", "example.com/m.Scan", 200}: 0.2,
	}
	if len(got) != len(want) {
		t.Fatalf("reach = %v, want %v", got, want)
	}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-9 {
			t.Errorf("reach %v = %.2f, want %.2f (all: %v)", k, got[k], v, got)
		}
	}
	// Without Changed, no reach is computed.
	if c, _ := AnalyzeCPU(s.p, synthOpts); len(c.Reach) != 0 {
		t.Errorf("reach without Changed = %v", c.Reach)
	}
}

// TestAllocationParentLine: a site's parent is the module function that
// called the site's function on most of its allocations, and its line the
// one of that function's calls that did.
func TestAllocationParentLine(t *testing.T) {
	h := newSynth("alloc_objects", "alloc_space", "inuse_objects", "inuse_space")
	h.add([]int64{4, 1280, 0, 0}, "runtime.mallocgc", "example.com/m.NewNode", "example.com/m.addChild:xx", "example.com/m.BenchmarkX")
	h.add([]int64{1, 320, 0, 0}, "runtime.mallocgc", "example.com/m.NewNode", "example.com/m.addChild:xxx", "example.com/m.BenchmarkX")
	h.add([]int64{2, 640, 0, 0}, "runtime.mallocgc", "example.com/m.NewNode", "example.com/m.text:x", "example.com/m.BenchmarkX")
	heap, err := AnalyzeHeap(h.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	if len(heap.Sites) != 1 {
		t.Fatalf("sites %+v, want NewNode's", heap.Sites)
	}
	s := heap.Sites[0]
	if s.Parent != "example.com/m.addChild" || s.ParentFile != "m.go" || s.ParentLine != 200 {
		t.Errorf("parent %s at %s:%d, want example.com/m.addChild at m.go:200", s.Parent, s.ParentFile, s.ParentLine)
	}
}

// TestLineAlloc: a line's cost under one callee carries the part of it
// that is the runtime's allocator and collector, whatever the category
// most of its time is in: a map assignment whose time is mostly the
// map's (category maps) still allocates when the map grows.
func TestLineAlloc(t *testing.T) {
	root := []string{"example.com/m.BenchmarkX", "runtime.goexit"}
	s := newSynth("samples", "cpu")
	s.add([]int64{1, 50}, append([]string{"runtime.mapassign_faststr", "example.com/m.put"}, root...)...)
	s.add([]int64{1, 20}, append([]string{"runtime.mallocgc", "runtime.newarray", "runtime.mapassign_faststr", "example.com/m.put"}, root...)...)
	s.add([]int64{1, 10}, append([]string{"runtime.scanobject", "runtime.gcAssistAlloc", "runtime.mallocgc", "runtime.newarray", "runtime.mapassign_faststr", "example.com/m.put"}, root...)...)
	s.add([]int64{1, 20}, append([]string{"example.com/m.put"}, root...)...)
	cpu, err := AnalyzeCPU(s.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range cpu.Lines {
		if l.Function != "example.com/m.put" {
			continue
		}
		want := LineCost{Function: "example.com/m.put", File: "m.go", Line: 10, Category: CategoryApplication, Self: 0.2, Cum: 0.2}
		if l.Callee != "" {
			want.Callee, want.Category, want.Self, want.Cum, want.Alloc = "runtime.mapassign_faststr", CategoryMaps, 0.8, 0.8, 0.3
		}
		if math.Abs(l.Alloc-want.Alloc) > 1e-9 {
			t.Errorf("%s:%d under %q: alloc %v, want %v", l.File, l.Line, l.Callee, l.Alloc, want.Alloc)
		}
		l.Alloc, want.Alloc = 0, 0
		if l != want {
			t.Errorf("line %+v, want %+v", l, want)
		}
	}
}

// TestRangeFuncBody: a range-over-func loop's body inlined with its
// iterator into the function (walkXFF's `for _, h := range
// slices.Backward(headers)`) calls the library from the body's lines: the
// loop's line calls the iterator, not what the body calls (it was
// "walkXFF: strings.TrimSpace 48%" at the loop's line as well as at the
// body's).
func TestRangeFuncBody(t *testing.T) {
	s := newSynth("samples", "cpu")
	s.add([]int64{1, 50}, "strings.TrimSpace", "example.com/m.walk-range1+slices.Backward.func1+example.com/m.walk", "example.com/m.BenchmarkX", "runtime.goexit")
	s.add([]int64{1, 50}, "example.com/m.walk-range1+slices.Backward.func1+example.com/m.walk", "example.com/m.BenchmarkX", "runtime.goexit")
	cpu, err := AnalyzeCPU(s.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]string{}
	for _, l := range cpu.Lines {
		if l.Callee != "" {
			calls[l.Function] = l.Callee
		}
	}
	if calls["example.com/m.walk"] != "slices.Backward.func1" || calls["example.com/m.walk-range1"] != "strings.TrimSpace" {
		t.Errorf("callees by function %v, want walk calling slices.Backward.func1 and its body strings.TrimSpace", calls)
	}
}

// TestEscapedPackagePath: the linker escapes a dot in a package path's last
// element ("gopkg.in/yaml%2ev3"); the analysis names the function as the
// source does, so the module's own functions match its package path.
func TestEscapedPackagePath(t *testing.T) {
	s := newSynth("samples", "cpu")
	s.add([]int64{1, 30}, "example.com/m.f", "example.com/m.BenchmarkX", "runtime.goexit")
	s.funcs["example.com/m.f"].Name = "gopkg.in/yaml%2ev3.(*parser).node"
	cpu, err := AnalyzeCPU(s.p, synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range cpu.Functions {
		if strings.Contains(f.Name, "%") {
			t.Errorf("function %q keeps the linker's escape", f.Name)
		}
		if f.Name == "gopkg.in/yaml.v3.(*parser).node" {
			found = f.Module
		}
	}
	if !found {
		t.Errorf("no module function gopkg.in/yaml.v3.(*parser).node in %+v", cpu.Functions)
	}
	for in, want := range map[string]string{
		"gopkg.in/yaml%2ev3.(*parser).node":              "gopkg.in/yaml.v3.(*parser).node",
		"example.com/a%2eb.F[go.shape.struct { X int }]": "example.com/a.b.F[go.shape.struct { X int }]",
		"strings.Repeat": "strings.Repeat",
		"odd%zz.F":       "odd%zz.F",
		"end%2":          "end%2",
	} {
		if got := FuncName(in); got != want {
			t.Errorf("FuncName(%q) = %q, want %q", in, got, want)
		}
	}
}
