package loop

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/results"
)

func TestUndecided(t *testing.T) {
	th := findings.DefaultThresholds
	tests := []struct {
		name      string
		cs        []share
		n         float64
		undecided bool
		value     float64
	}{
		{name: "far above its threshold", cs: []share{{0.6, th.CPUMin}}, n: 30},
		{name: "far below its threshold", cs: []share{{0.02, th.SevHigh}}, n: 100},
		// 0.1 against 0.08 with 30 samples: the standard error is
		// 0.055, the distance 0.02.
		{name: "near its threshold", cs: []share{{0.1, th.CPUMin}}, n: 30, undecided: true, value: 0.1},
		{name: "decided by more samples", cs: []share{{0.1, th.CPUMin}}, n: 5000},
		{name: "at its threshold", cs: []share{{th.CPUMin, th.CPUMin}}, n: 1e6, undecided: true, value: th.CPUMin},
		// Shares below the smallest gain the findings name and a whole
		// profile decide nothing.
		{name: "below the smallest gain", cs: []share{{th.GainMin / 2, th.GainMin}}, n: 10},
		{name: "all of the profile", cs: []share{{1, th.SevHigh}}, n: 10},
		{name: "largest undecided share", cs: []share{{0.1, th.CPUMin}, {0.22, th.SevHigh}, {0.9, th.SevHigh}}, n: 30, undecided: true, value: 0.22},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			need, value := undecided(tt.cs, tt.n, th)
			if got := need > tt.n; got != tt.undecided {
				t.Errorf("need %g samples with %g: undecided = %v, want %v", need, tt.n, got, tt.undecided)
			}
			if value != tt.value {
				t.Errorf("value = %g, want %g", value, tt.value)
			}
			if tt.undecided && !math.IsInf(need, 1) {
				// The samples asked for decide it.
				if again, _ := undecided(tt.cs, need*1.01, th); again != 0 {
					t.Errorf("with the %g samples asked for it still needs %g", need, again)
				}
			}
		})
	}
}

func TestPlanExtra(t *testing.T) {
	const perBench = time.Second
	tests := []struct {
		name   string
		ns     []cpuNeed
		budget time.Duration
		want   []time.Duration
	}{
		{
			name:   "decided: no extra run",
			ns:     []cpuNeed{{samples: 30, rate: 100}, {samples: 40, rate: 100}},
			budget: time.Second,
			want:   []time.Duration{0, 0},
		},
		{
			// 10 of the 20 samples every family needs, at 100 a
			// second: a tenth of a second, whatever the budget.
			name:   "too few samples: the floor, outside the budget",
			ns:     []cpuNeed{{samples: 10, rate: 100}},
			budget: 0,
			want:   []time.Duration{100 * time.Millisecond},
		},
		{
			// A family pools its samples: together they reach the
			// floor and decide what each alone would not.
			name: "a family decides for its members",
			ns: []cpuNeed{
				{family: "f", samples: 12, rate: 100, need: 30, value: 0.3},
				{family: "f", samples: 12, rate: 100, need: 30, value: 0.3},
			},
			budget: time.Second,
			want:   []time.Duration{60 * time.Millisecond, 0},
		},
		{
			// The budget goes to the largest undecided share first.
			name: "the budget buys the largest undecided shares",
			ns: []cpuNeed{
				{samples: 30, rate: 100, need: 80, value: 0.1},
				{samples: 30, rate: 100, need: 80, value: 0.5},
			},
			budget: 600 * time.Millisecond,
			want:   []time.Duration{100 * time.Millisecond, 500 * time.Millisecond},
		},
		{
			// A run costs twice what it measures (its setup, its
			// process): 600ms of budget buy 300ms of profile.
			name: "the budget is charged what a run costs",
			ns: []cpuNeed{
				{samples: 30, rate: 100, need: 80, value: 0.5, cost: 2},
			},
			budget: 600 * time.Millisecond,
			want:   []time.Duration{300 * time.Millisecond},
		},
		{
			name:   "at most perBench each",
			ns:     []cpuNeed{{samples: 30, rate: 100, need: math.Inf(1), value: 0.08}},
			budget: time.Hour,
			want:   []time.Duration{perBench},
		},
		{
			// A member with a small share of its family's samples
			// gets its evidence from the family.
			name: "small in its family",
			ns: []cpuNeed{
				{family: "f", samples: 500, rate: 100},
				{family: "f", samples: 20, rate: 100, need: 5000, value: 0.5},
			},
			budget: time.Hour,
			want:   []time.Duration{0, 0},
		},
		{
			name:   "no run shorter than minExtra",
			ns:     []cpuNeed{{samples: 30, rate: 100, need: 31, value: 0.5}},
			budget: 20 * time.Millisecond,
			want:   []time.Duration{0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := planExtra(tt.ns, tt.budget, perBench)
			for i := range tt.want {
				if d := got[i] - tt.want[i]; d < -time.Millisecond || d > time.Millisecond {
					t.Errorf("extra[%d] = %v, want %v (all: %v)", i, got[i], tt.want[i], got)
				}
			}
		})
	}
}

func TestFamily(t *testing.T) {
	c := &profiles.CPU{Functions: []profiles.Function{
		{Name: "m.BenchmarkX", File: "x_test.go", Module: true, CumShare: 1},
		{Name: "fmt.Sprintf", CumShare: 0.9},
		{Name: "m.(*T).Match", File: "t.go", Module: true, CumShare: 0.8},
		{Name: "m.helper", File: "t.go", Module: true, CumShare: 0.3},
	}}
	if got, want := family("m", c), "m m.(*T).Match"; got != want {
		t.Errorf("family = %q, want %q", got, want)
	}
	if got := family("m", &profiles.CPU{}); got != "" {
		t.Errorf("family of an empty profile = %q, want none", got)
	}
}

func TestCalibrate(t *testing.T) {
	result := func(line string) []*benchfmt.Result {
		r := benchfmt.NewReader(stringsReader(line), "x")
		var out []*benchfmt.Result
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				out = append(out, res.Clone())
			}
		}
		return out
	}
	one := result("BenchmarkX-2 1000000 100 ns/op\n")
	tests := []struct {
		name string
		res  []*benchfmt.Result
		bt   string
		want int
	}{
		{name: "100ns at 100ms", res: one, bt: "100ms", want: 1_000_000},
		{name: "the default second", res: one, bt: "", want: 10_000_000},
		{name: "a count is kept as is", res: one, bt: "500x", want: 0},
		{name: "sub-benchmarks need a count each", res: result("BenchmarkX/a-2 100 100 ns/op\nBenchmarkX/b-2 100 1000 ns/op\n"), bt: "1s", want: 0},
		{name: "slower than a tenth of -benchtime", res: result("BenchmarkX-2 1 20000000 ns/op\n"), bt: "100ms", want: 0},
		{name: "no time per op", res: result("BenchmarkX-2 100 5 B/op\n"), bt: "1s", want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Calibrate(tt.res, tt.bt); got != tt.want {
				t.Errorf("Calibrate = %d, want %d", got, tt.want)
			}
		})
	}
}

func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// TestHeapRate: the heap runs record every allocation unless the
// iteration floor makes them record more than heapRecordMax; then they
// sample, about heapAllocs records at n1 iterations. A benchmark of 26.6
// million allocations per op recorded one by one ran past the timeout.
func TestHeapRate(t *testing.T) {
	bench := func(line string) *results.Benchmark {
		r := benchfmt.NewReader(stringsReader(line), "x")
		b := &results.Benchmark{Name: "BenchmarkX"}
		for r.Scan() {
			if res, ok := r.Result().(*benchfmt.Result); ok {
				b.Results = append(b.Results, res.Clone())
			}
		}
		return b
	}
	small := bench("BenchmarkX-2 1000 2000 ns/op 512 B/op 8 allocs/op\n")
	huge := bench("BenchmarkX-2 1 9000000000 ns/op 1200000000 B/op 26600000 allocs/op\n")
	n1, _ := heapCounts(small)
	if got := heapRate(small, n1); got != 1 {
		t.Errorf("8 allocs/op at %d iterations: rate %d, want 1", n1, got)
	}
	n1, _ = heapCounts(huge)
	if n1 != 4 {
		t.Fatalf("huge: n1 = %d, want the floor of 4", n1)
	}
	rate := heapRate(huge, n1)
	if want := 1_200_000_000 * 4 / heapAllocs; rate != want {
		t.Errorf("26.6M allocs/op at 4 iterations: rate %d, want %d (one sample per so many bytes)", rate, want)
	}
}

func TestScaleExtras(t *testing.T) {
	const perBench = time.Second
	for _, tc := range []struct {
		name               string
		scales             bool
		samples1, samplesN float64
		budget             time.Duration
		floor              bool
		at1, atN           time.Duration
	}{
		{"scales, both profiles full", true, 40, 60, 5 * time.Second, false, 0, 0},
		// The growth rule does not run for a benchmark that scales: a
		// thin profile at one core buys nothing.
		{"scales, thin at one core", true, 12, 60, 5 * time.Second, true, 0, 0},
		{"scales, thin at N", true, 40, 12, 5 * time.Second, false, 0, minScaleProfile},
		{"undecided, budget left", false, 40, 60, 1 * time.Second, false, 500 * time.Millisecond, 500 * time.Millisecond},
		{"undecided, no budget, full", false, 40, 60, 0, true, 0, 0},
		{"undecided, budget left, thin at one core", false, 12, 60, 200 * time.Millisecond, false, minScaleProfile, 100 * time.Millisecond},
		// Beyond the budget only the benchmarks that scale worst get
		// the floor: on a suite of many concurrent benchmarks the
		// others keep their runs' profiles.
		{"undecided, no budget, thin, floored", false, 12, 12, 0, true, minScaleProfile, minScaleProfile},
		{"undecided, no budget, thin", false, 12, 12, 0, false, 0, 0},
		{"scales, budget spent below zero, thin at N, floored", true, 40, 12, -time.Second, true, 0, minScaleProfile},
		{"scales, budget spent below zero, thin at N", true, 40, 12, -time.Second, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			at1, atN := scaleExtras(tc.scales, tc.samples1, tc.samplesN, perBench, tc.budget, tc.floor)
			if at1 != tc.at1 || atN != tc.atN {
				t.Errorf("scaleExtras = %v at one core, %v at N; want %v, %v", at1, atN, tc.at1, tc.atN)
			}
		})
	}
}

func TestExtraOrder(t *testing.T) {
	run := func(name string, eff ...float64) *scaleRun {
		sr := &scaleRun{t: gotest.Target{Name: name}}
		for _, e := range eff {
			sr.rows = append(sr.rows, document.Scaling{Efficiency: e})
		}
		for k := range sr.rows {
			if sr.rows[k].Efficiency < sr.rows[sr.worst].Efficiency {
				sr.worst = k
			}
		}
		return sr
	}
	failed := run("BenchmarkFailed")
	failed.failed = []document.Scaling{{NotMeasured: "the run at -cpu 1 failed"}}
	runs := []*scaleRun{run("BenchmarkA", 0.9), failed, run("BenchmarkB", 0.95, 0.3), nil, run("BenchmarkC", 0.6)}
	var got []string
	for _, sr := range extraOrder(runs) {
		got = append(got, sr.t.Name)
	}
	// The sub-benchmark that scales worst speaks for its benchmark.
	if want := "BenchmarkB BenchmarkC BenchmarkA"; strings.Join(got, " ") != want {
		t.Errorf("extraOrder = %s, want %s", strings.Join(got, " "), want)
	}
}

func TestProbeBenchtime(t *testing.T) {
	for bt, want := range map[string]string{"": "100ms", "1s": "100ms", "100ms": "10ms", "20ms": "10ms", "5ms": "5ms", "2s": "200ms", "100x": "", "junk": ""} {
		if got := probeBenchtime(bt); got != want {
			t.Errorf("probeBenchtime(%q) = %q, want %q", bt, got, want)
		}
	}
}

// TestHeapPerOpSamplesASlowSetup: a benchmark whose setup allocates so
// much that recording every allocation makes the smaller run slow has
// that run stopped at heapSlow, and gets both its heap runs sampled, at a
// rate that records about heapAllocs of what a run at the runtime's
// default rate allocated, instead of a larger run as slow again.
func TestHeapPerOpSamplesASlowSetup(t *testing.T) {
	res := func(line string) *results.Benchmark {
		r := benchfmt.NewReader(stringsReader(line), "x")
		b := &results.Benchmark{}
		for r.Scan() {
			if x, ok := r.Result().(*benchfmt.Result); ok {
				b.Results = append(b.Results, x.Clone())
			}
		}
		return b
	}
	for _, tc := range []struct {
		name    string
		elapsed time.Duration
		want    []string
	}{
		{"a quick setup: every allocation", 50 * time.Millisecond, []string{"2500x rate 1", "10000x rate 1"}},
		// 102.5 MB in the first run, 50,000 samples: one per 2,050 bytes.
		// The first run is stopped at heapSlow; one at the default
		// rate finds 102.5 MB, 50,000 samples: one per 2,050 bytes.
		{"a slow setup: stopped, then sampled", 3 * time.Second, []string{"2500x rate 1 (stopped)", "2500x rate 524288", "2500x rate 2050", "10000x rate 2050"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			run := func(rc gotest.RunConfig) (*gotest.Outcome, error) {
				var path, rate string
				for _, a := range rc.Args {
					if v, ok := strings.CutPrefix(a, "-test.memprofile="); ok {
						path = v
					}
					if v, ok := strings.CutPrefix(a, "-test.memprofilerate="); ok {
						rate = v
					}
				}
				if rate == "1" && tc.elapsed > heapSlow {
					if rc.Timeout != heapSlow {
						t.Errorf("a run recording every allocation has timeout %v, want %v", rc.Timeout, heapSlow)
					}
					got = append(got, rc.Benchtime+" rate "+rate+" (stopped)")
					return &gotest.Outcome{Status: results.StatusTimeout, Elapsed: heapSlow}, nil
				}
				got = append(got, rc.Benchtime+" rate "+rate)
				// 100 MB of setup, 1 KB per op.
				n, _ := strconv.Atoi(strings.TrimSuffix(rc.Benchtime, "x"))
				if err := profiles.WriteFile(path, heapProfile(100_000_000+int64(n)*1000)); err != nil {
					t.Fatal(err)
				}
				return &gotest.Outcome{Status: results.StatusOK, Elapsed: tc.elapsed}, nil
			}
			b := res("BenchmarkX-2 1000000 1000 ns/op 1000 B/op 5 allocs/op\n")
			_, _, n1, n2, msg, err := heapPerOp(gotest.RunConfig{Name: "BenchmarkX"}, b, "x", t.TempDir(), run)
			if err != nil || msg != "" {
				t.Fatalf("heapPerOp: %v %s", err, msg)
			}
			if n1 != 10000 || n2 != 2500 {
				t.Errorf("counts %d and %d, want 10000 and 2500", n1, n2)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("runs %q, want %q", got, tc.want)
			}
		})
	}
}

// heapProfile is a heap profile of one site that allocated bytes.
func heapProfile(bytes int64) *profile.Profile {
	fn := &profile.Function{ID: 1, Name: "example.com/x.build", SystemName: "example.com/x.build", Filename: "x.go"}
	loc := &profile.Location{ID: 1, Line: []profile.Line{{Function: fn, Line: 3}}}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}, {Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"}},
		Sample:     []*profile.Sample{{Location: []*profile.Location{loc}, Value: []int64{bytes / 1000, bytes, 0, 0}}},
		Location:   []*profile.Location{loc},
		Function:   []*profile.Function{fn},
	}
}

// TestMayBlock: the lock profilers run for a concurrent benchmark only
// where the module's code can lock, wait or use a channel: its sampled
// files say so, or a sample has the module's code calling a blocking
// primitive. A matcher that only reads (a sync.Pool is no lock) and the
// harness's own WaitGroup never need them.
func TestMayBlock(t *testing.T) {
	root := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(root, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	pure := write("match.go", "package m\n\nvar pool = sync.Pool{}\n\nfunc Match(s string) bool { return len(s) > 0 }\n")
	locked := write("store.go", "package m\n\nfunc (s *Store) Get(k string) int {\n\ts.mu.RLock()\n\tdefer s.mu.RUnlock()\n\treturn s.m[k]\n}\n")
	test := write("m_test.go", "package m\n\nfunc BenchmarkX(b *testing.B) { var wg sync.WaitGroup; wg.Wait() }\n")
	prof := func(stacks ...[]string) *profile.Profile {
		p := &profile.Profile{}
		fns := map[string]*profile.Function{}
		fn := func(spec string) *profile.Function {
			if f := fns[spec]; f != nil {
				return f
			}
			name, file, _ := strings.Cut(spec, "@")
			f := &profile.Function{ID: uint64(len(fns) + 1), Name: name, Filename: file}
			fns[spec] = f
			p.Function = append(p.Function, f)
			return f
		}
		for _, st := range stacks {
			smp := &profile.Sample{Value: []int64{1}}
			for _, spec := range st {
				loc := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn(spec)}}}
				p.Location = append(p.Location, loc)
				smp.Location = append(smp.Location, loc)
			}
			p.Sample = append(p.Sample, smp)
		}
		return p
	}
	for _, tc := range []struct {
		name string
		p    *profile.Profile
		want bool
	}{
		{"a pure matcher with a pool", prof([]string{"sync.(*Pool).Get@/go/src/sync/pool.go", "m.Match@" + pure, "m.BenchmarkX.func1@" + test}), false},
		{"the harness's own wait", prof([]string{"sync.(*WaitGroup).Wait@/go/src/sync/waitgroup.go", "testing.(*B).RunParallel@/go/src/testing/benchmark.go"}, []string{"m.Match@" + pure}), false},
		{"a file that locks", prof([]string{"m.(*Store).Get@" + locked, "m.BenchmarkX.func1@" + test}), true},
		{"the module's code on a channel", prof([]string{"runtime.chanrecv1@/go/src/runtime/chan.go", "m.Match@" + pure}), true},
		{"the test's code on a channel", prof([]string{"runtime.chanrecv1@/go/src/runtime/chan.go", "m.BenchmarkX.func1@" + test}, []string{"m.Match@" + pure}), false},
		// The module's files named elsewhere than under root: no
		// telling, the profilers run.
		{"no function of the module's", prof([]string{"sync.(*Pool).Get@/go/src/sync/pool.go", "m.Match@/elsewhere/match.go"}), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := mayBlock(tc.p, root, map[string]bool{}); got != tc.want {
				t.Errorf("mayBlock = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHeapByIters: the heap runs' bytes per iteration, the smaller count
// first, over each whole run.
func TestHeapByIters(t *testing.T) {
	heapOf := func(bytes int64) *profile.Profile {
		return &profile.Profile{SampleType: []*profile.ValueType{{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"}},
			Sample: []*profile.Sample{{Value: []int64{1, bytes}}}}
	}
	// n1 = 400 iterations allocated 160,000 bytes, n2 = 100 allocated
	// 41,000: 400 and 410 bytes per iteration.
	got := heapByIters([2]*profile.Profile{heapOf(160000), heapOf(41000)}, 400, 100)
	want := []document.IterSample{{Iters: 100, Value: 410}, {Iters: 400, Value: 400}}
	if !slices.Equal(got, want) {
		t.Errorf("heapByIters = %v, want %v", got, want)
	}
	if got := heapByIters([2]*profile.Profile{heapOf(1), nil}, 4, 1); got != nil {
		t.Errorf("heapByIters with a run missing = %v, want nil", got)
	}
}

// TestWaited: profiles without a sample say "waits" only when they ran
// long enough for a benchmark computing at OffCPU of a core to have been
// sampled waitSamples times (0.2 s at 0.25 of a core and 100 Hz); a
// brief run without a sample says nothing.
func TestWaited(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want bool
	}{
		{10 * time.Millisecond, false},
		{150 * time.Millisecond, false},
		{200 * time.Millisecond, true},
		{3 * time.Second, true},
	} {
		if got := waited(c.d, findings.DefaultThresholds.OffCPU); got != c.want {
			t.Errorf("waited(%v) = %v, want %v", c.d, got, c.want)
		}
	}
}
