package findings

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// concurrentDoc is the planted module of the concurrency issue, as
// report measures it: a read path behind an RWMutex (StoreGet), a mutex
// held across hashing (RegistryAdd), both under RunParallel and slower
// per op on two cores, and a serial parser.
func concurrentDoc() *document.Report {
	get := benchmark("BenchmarkStoreGet", 29.7e-9, 0, 0)
	add := benchmark("BenchmarkRegistryAdd", 400e-9, 0, 0)
	parse := benchmark("BenchmarkParse", 300e-9, 4, 544)
	get.Parallel, add.Parallel = true, true
	d := doc(get, add, parse)
	harness := 0.96
	d.Scaling = []document.Scaling{{
		Benchmark: "BenchmarkStoreGet", Package: mod, Parameter: "cpu", Growth: "negative",
		CPU: []int{1, 2}, NsPerOp: []float64{12, 29.7}, Efficiencies: []float64{1, 0.2}, Efficiency: 0.2, CoresUsed: 1.9,
		HarnessBlockShare: &harness,
		Locks: []document.LockSite{{File: "store.go", Line: 27, Function: mod + ".(*Store).Get", Op: "s.mu.RLock", Profile: "cpu",
			HeldTo: 29, CPUInside: 0.3, LockCPU: 0.45, Source: "s.mu.RLock()"}},
		Growing: []document.LineGrowth{{File: "store.go", Line: 27, Function: mod + ".(*Store).Get", NsPerOp1: 4, NsPerOpN: 25,
			Samples1: 80, SamplesN: 500, Mechanism: "reader-count", Source: "s.mu.RLock()"}},
	}, {
		Benchmark: "BenchmarkRegistryAdd", Package: mod, Parameter: "cpu", Growth: "flat",
		CPU: []int{1, 2}, NsPerOp: []float64{380, 400}, Efficiencies: []float64{1, 0.48}, Efficiency: 0.48, CoresUsed: 1.1,
		HarnessBlockShare: &harness,
		Locks: []document.LockSite{{File: "store.go", Line: 54, Function: mod + ".(*Registry).Add", Op: "sync.(*Mutex).Lock", Profile: "block",
			DelayPerOp: 300, ContentionsPerOp: 0.5, DelayShare: 1, HeldTo: 59, CPUInside: 0.9, Source: "r.mu.Lock()",
			Inside: []document.LineInside{{Line: 56, Callee: "crypto/sha256.Sum256", Category: "crypto", Share: 0.88, Source: "sum := sha256.Sum256(payload)"}}}},
	}}
	// The hashing is a library cause of its own in the profile.
	d.Lines = []document.LineCost{
		{Benchmark: "BenchmarkRegistryAdd", Package: mod, Function: mod + ".(*Registry).Add", File: "store.go", Line: 56, Callee: "crypto/sha256.Sum256", Category: "crypto", Self: 0.88, Cum: 0.88},
		{Benchmark: "BenchmarkStoreGet", Package: mod, Function: mod + ".(*Store).Get", File: "store.go", Line: 28, Callee: "runtime.mapaccess2_faststr", Category: "maps", Self: 0.3, Cum: 0.3},
		{Benchmark: "BenchmarkParse", Package: mod, Function: mod + ".Parse", File: "parse.go", Line: 11, Callee: "strings.genSplit", Category: "strings", Self: 0.4, Cum: 0.4},
	}
	d.Categories = []document.CategoryShare{{Benchmark: "BenchmarkParse", Package: mod, Category: "scheduler", Share: 0.3}}
	return d
}

// TestContentionAtTheLock: the read path is named at its RLock line with
// the reader count and a snapshot; the mutex at its Lock line with the
// work inside and the fix that moves it out; the hashing's own cause is
// the same root cause; the parser gets no contention; nothing is blamed
// on the harness, and neither concurrent benchmark is left alone.
func TestContentionAtTheLock(t *testing.T) {
	fs, gate := Derive(concurrentDoc(), Options{})
	byLine := map[int64]document.Finding{}
	for _, f := range fs {
		if f.Kind == document.KindContention {
			byLine[f.Line] = f
		}
		if f.Kind == document.KindContention && f.Benchmark == "BenchmarkParse" {
			t.Errorf("contention in the serial parser: %s", f.Rule)
		}
		if strings.HasSuffix(f.File, "_test.go") {
			t.Errorf("a finding in the benchmark's own code: %s %s:%d", f.Rule, f.File, f.Line)
		}
		if f.Kind == document.KindLeaveAlone && f.Benchmark != "BenchmarkParse" {
			t.Errorf("%s left alone: %s", f.Benchmark, f.Rule)
		}
		if f.Line == 56 && f.Kind != document.KindContention {
			t.Errorf("the hashing inside the lock is a finding of its own: %s", f.Rule)
		}
	}
	get, ok := byLine[27]
	if !ok {
		t.Fatalf("no contention finding at store.go:27; findings %v", kinds(fs))
	}
	// The read path: its lock operations (45% of the CPU) are the
	// cause; the map access it protects (28) and the RUnlock (29) are
	// its lines.
	if get.Rule != document.RuleLockRead || get.Benchmark != "BenchmarkStoreGet" || get.Impact != 0.45 || !slices.Equal(lines(&get), []int64{28, 29}) {
		t.Errorf("StoreGet: %s in %s, impact %v, related %v; want %s, 0.45, lines 28 and 29", get.Rule, get.Benchmark, get.Impact, lines(&get), document.RuleLockRead)
	}
	add, ok := byLine[54]
	if !ok {
		t.Fatalf("no contention finding at store.go:54")
	}
	// The exclusive lock: 90% of the CPU inside it; the hashing at 56
	// is the work inside, and 59 the Unlock. The hashing's own 88% joins
	// the cause, above Amdahl's bound (two cores do at most
	// 1/(0.9 + 0.1/2) = 1.05× the work of one: 47% of their capacity
	// lost).
	if add.Rule != document.RuleLockExclusive || add.Benchmark != "BenchmarkRegistryAdd" || !slices.Equal(lines(&add), []int64{56, 59}) {
		t.Errorf("RegistryAdd: %s in %s, related %v; want %s with the hashing at 56 and the Unlock at 59", add.Rule, add.Benchmark, lines(&add), document.RuleLockExclusive)
	}
	if amdahl := 1 - 1/(0.9+0.1/2)/2; add.Impact != 0.88 || add.Impact < amdahl {
		t.Errorf("RegistryAdd: impact %v, want the hashing's 0.88 (Amdahl's bound %.2f)", add.Impact, amdahl)
	}
	if len(byLine) != 2 {
		t.Errorf("%d contention findings, want 2", len(byLine))
	}
	if fs[0].Kind != document.KindContention {
		t.Errorf("first finding is %s, want the negative scaling's contention", fs[0].Kind)
	}
	found := false
	for _, g := range gate {
		found = found || g.Rule == "contention"
	}
	if !found {
		t.Error("no contention row in the gate")
	}
}

// TestContentionNotOwnWork: a lock-per-call shape at a contended Lock
// (the lock once per call is also the price of a type safe for concurrent
// use) never gives the contention finding its "nothing to change": the
// finding names the work to move out of the lock.
func TestContentionNotOwnWork(t *testing.T) {
	d := concurrentDoc()
	d.Shapes = append(d.Shapes, document.Shape{Name: "lock-per-call", OwnWork: true, File: "store.go", Line: 54, Function: mod + ".(*Registry).Add",
		Related: []document.Location{{File: "store.go", Line: 59, Note: "the Unlock"}},
		Says:    "Add takes r.mu, a sync.Mutex, once per call (Lock here, released at line 59): the lock that makes Registry safe for concurrent use",
		Advice:  "one lock round trip per call is the price of a type safe for concurrent use: nothing to change at this line"})
	// The Lock's own cost at its line, the mechanism the shape explains.
	d.Lines = append(d.Lines, document.LineCost{Benchmark: "BenchmarkRegistryAdd", Package: mod, Function: mod + ".(*Registry).Add", File: "store.go", Line: 54,
		Callee: "sync.(*Mutex).Lock", Category: "other", Self: 0.3, Cum: 0.3})
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.Kind != document.KindContention || f.Line != 54 {
			continue
		}
		if f.Shape == "lock-per-call" || f.NoChange || strings.Contains(f.Suggestion, "nothing to change") {
			t.Errorf("contention at store.go:54: shape %q, no change %v, suggestion %q; want the work moved out of the lock", f.Shape, f.NoChange, f.Suggestion)
		}
		return
	}
	t.Fatal("no contention finding at store.go:54")
}

// TestScalingBenchmarkNoContention: a concurrent benchmark that scales
// (efficiency 0.9, on cores it had to itself) gets no contention finding
// for what its locks cost or hold; only waits the block profile
// measured are one.
func TestScalingBenchmarkNoContention(t *testing.T) {
	d := concurrentDoc()
	for i := range d.Scaling {
		d.Scaling[i].Efficiency = 0.9
		d.Scaling[i].CoresUsed = 1.9
	}
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		if f.Kind == document.KindContention {
			got = append(got, fmt.Sprintf("%s %s:%d", f.Rule, f.File, f.Line))
		}
	}
	if len(got) != 1 || got[0] != "lock-wait store.go:54" {
		t.Errorf("contention in benchmarks that scale: %q, want only the measured wait at store.go:54", got)
	}
	d.Scaling[1].Locks[0].DelayPerOp = 0
	fs, _ = Derive(d, Options{})
	for _, f := range fs {
		if f.Kind == document.KindContention {
			t.Errorf("contention in a benchmark that scales: %s %s:%d", f.Rule, f.File, f.Line)
		}
	}
}

// TestSharedAtomics: atomic writes of one function on an object every
// goroutine calls are one contention finding at the costliest write; the
// same writes with no shared object (each goroutine its own) are none.
func TestSharedAtomics(t *testing.T) {
	m := benchmark("BenchmarkMeterParallel", 120e-9, 0, 0)
	m.Parallel = true
	d := doc(m)
	d.Scaling = []document.Scaling{{Benchmark: "BenchmarkMeterParallel", Package: mod, Parameter: "cpu",
		CPU: []int{1, 2}, NsPerOp: []float64{90, 120}, Efficiency: 0.37, Shared: []string{"m"},
		Atomics: []document.LineInside{
			{File: "meter.go", Function: mod + ".(*Meter).Mark", Line: 165, Share: 0.12, Source: "atomic.AddInt64(&m.count, n)"},
			{File: "meter.go", Function: mod + ".(*Meter).Mark", Line: 168, Share: 0.08, Source: "atomic.AddInt64(&m.a1.uncounted, n)"},
			{File: "meter.go", Function: mod + ".(*Meter).tick", Line: 240, Share: 0.02, Source: "atomic.StoreInt64(&m.x, 0)"},
		}}}
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		if f.Kind == document.KindContention {
			got = append(got, where(f.File, f.Line))
			// Mark's two writes, 12% + 8%; tick's 2% is below AtomicMin.
			if f.Rule != document.RuleSharedAtomics || math.Abs(f.Impact-0.2) > 1e-9 || !slices.Equal(lines(&f), []int64{168}) {
				t.Errorf("%s, impact %v, related %v; want %s, 0.2, the other write at 168", f.Rule, f.Impact, lines(&f), document.RuleSharedAtomics)
			}
		}
	}
	if len(got) != 1 || got[0] != "meter.go:165" {
		t.Errorf("contention at %v, want meter.go:165 only", got)
	}
	d.Scaling[0].Shared = nil
	fs, _ = Derive(d, Options{})
	if f := find(fs, document.KindContention); f != nil {
		t.Errorf("atomics with no shared object: %s at %s:%d", f.Rule, f.File, f.Line)
	}
}

// TestProductionRanking: with a production profile, the fix findings are
// ranked by their function's share of it, and a function below the
// minimum share is marked cold and ranked last, whatever the benchmark
// says.
func TestProductionRanking(t *testing.T) {
	a := benchmark("BenchmarkA", 1e-6, 0, 0)
	b := benchmark("BenchmarkB", 1e-6, 0, 0)
	d := doc(a, b)
	d.Lines = []document.LineCost{
		{Benchmark: "BenchmarkA", Package: mod, Function: mod + ".Big", File: "a.go", Line: 3, Callee: "sort.Slice", Category: "sort", Self: 0.6, Cum: 0.6},
		{Benchmark: "BenchmarkB", Package: mod, Function: mod + ".Small", File: "b.go", Line: 5, Callee: "strings.Index", Category: "strings", Self: 0.2, Cum: 0.2},
	}
	fs, _ := Derive(d, Options{})
	if fs[0].File != "a.go" {
		t.Fatalf("without production, first %s", fs[0].File)
	}
	fs, _ = Derive(d, Options{Production: map[string]float64{mod + ".Big": 0.002, mod + ".Small": 0.4}, MinShare: 0.01})
	if fs[0].File != "b.go" || fs[0].ProductionShare == nil || *fs[0].ProductionShare != 0.4 {
		t.Fatalf("with production, first %s (%v)", fs[0].File, fs[0].ProductionShare)
	}
	if fs[1].File != "a.go" || fs[1].ProductionShare == nil || *fs[1].ProductionShare != 0.002 || fs[1].Severity != document.SeverityLow {
		t.Errorf("cold cause: %s, production share %v, %s; want a.go last at 0.002, low", fs[1].File, fs[1].ProductionShare, fs[1].Severity)
	}
	// The mark the reader sees: the words are the point.
	if !strings.Contains(fs[1].Gain, "cold in production") {
		t.Errorf("cold cause's gain %q does not say so", fs[1].Gain)
	}
}

// TestBusyMachineScaling: on a busy machine (the run at 2 cores got 0.4
// of them) a wall-time efficiency above 1 is the neighbours' doing; the
// lock rules decide from the CPU profile, and the evidence says the
// machine was busy.
func TestBusyMachineScaling(t *testing.T) {
	d := concurrentDoc()
	for i := range d.Scaling {
		d.Scaling[i].Efficiency = 1.07
		d.Scaling[i].CoresUsed = 0.4
	}
	fs, _ := Derive(d, Options{})
	var got []string
	for _, f := range fs {
		if f.Kind == document.KindContention {
			got = append(got, fmt.Sprintf("%s %s:%d", f.Rule, f.File, f.Line))
			// What the reader is told: the evidence's words are the point.
			if !strings.Contains(strings.Join(f.Evidence, "\n"), "the machine was busy") {
				t.Errorf("%s:%d: the evidence does not say the machine was busy: %q", f.File, f.Line, f.Evidence)
			}
		}
	}
	slices.Sort(got)
	if want := []string{"lock-exclusive store.go:54", "lock-read store.go:27"}; !slices.Equal(got, want) {
		t.Errorf("contention findings %v, want %v: the read lock and the registry's lock", got, want)
	}
	// The same efficiency on cores the run had to itself: it scales.
	for i := range d.Scaling {
		d.Scaling[i].CoresUsed = 1.9
		d.Scaling[i].Locks[0].DelayPerOp = 0
	}
	fs, _ = Derive(d, Options{})
	for _, f := range fs {
		if f.Kind == document.KindContention {
			t.Errorf("contention in a benchmark that scales on a quiet machine: %s %s:%d", f.Rule, f.File, f.Line)
		}
	}
}

// lines are the line numbers of a finding's related lines.
func lines(f *document.Finding) []int64 {
	var out []int64
	for _, l := range f.Related {
		out = append(out, l.Line)
	}
	return out
}

// TestOneCausePerLock: the block profile's wait at a Lock and the mutex
// profile's release at the Unlock of the same lock (the same field of
// the same receiver type, in one method or another) are one finding;
// two locks are two; a wait in the benchmark's own _test.go code (a
// WaitGroup, a channel the harness feeds) is never a cause, whether the
// lock profile or the CPU's growth with the cores measured it.
func TestOneCausePerLock(t *testing.T) {
	add, unlock, other := mod+".(*Registry).Add", mod+".(*Registry).release", mod+".(*Registry).Other"
	wait := func(file string, line int64, fn, profile, op, src string, delay float64) document.LockSite {
		return document.LockSite{File: file, Line: line, Function: fn, Op: op, Profile: profile,
			DelayPerOp: delay, ContentionsPerOp: 0.5, DelayShare: 0.5, Source: src}
	}
	cases := []struct {
		name    string
		locks   []document.LockSite
		growing []document.LineGrowth
		want    []string
	}{
		{name: "block at Lock, mutex at Unlock of one lock in one method",
			locks: []document.LockSite{
				wait("store.go", 54, add, "block", "sync.(*Mutex).Lock", "r.mu.Lock()", 300),
				wait("store.go", 59, add, "mutex", "sync.(*Mutex).Unlock", "r.mu.Unlock()", 200)},
			want: []string{"lock-wait store.go:54 +59"}},
		{name: "the mutex profile's site first, the lock is still named at its Lock",
			locks: []document.LockSite{
				wait("store.go", 59, add, "mutex", "sync.(*Mutex).Unlock", "r.mu.Unlock()", 400),
				wait("store.go", 54, add, "block", "sync.(*Mutex).Lock", "r.mu.Lock()", 300)},
			want: []string{"lock-wait store.go:54 +59"}},
		{name: "the Unlock in another method of the type",
			locks: []document.LockSite{
				wait("store.go", 54, add, "block", "sync.(*RWMutex).Lock", "r.mu.Lock()", 300),
				wait("store.go", 80, unlock, "mutex", "sync.(*RWMutex).Unlock", "defer rr.mu.Unlock()", 200)},
			want: []string{"lock-wait store.go:54 +80"}},
		{name: "two locks are two causes",
			locks: []document.LockSite{
				wait("store.go", 54, add, "block", "sync.(*Mutex).Lock", "r.mu.Lock()", 300),
				wait("store.go", 90, other, "block", "sync.(*Mutex).Lock", "r.idx.Lock()", 200)},
			want: []string{"lock-wait store.go:54", "lock-wait store.go:90"}},
		{name: "a harness wait in a _test.go file is no cause",
			locks: []document.LockSite{
				wait("store_test.go", 30, mod+".BenchmarkRegistryAdd", "block", "sync.(*WaitGroup).Wait", "wg.Wait()", 900),
				wait("store_test.go", 25, mod+".BenchmarkRegistryAdd.func1", "block", "chan receive", "for k := range keys {", 500)},
			growing: []document.LineGrowth{{File: "store_test.go", Line: 25, Function: mod + ".BenchmarkRegistryAdd.func1",
				NsPerOp1: 10, NsPerOpN: 90, Samples1: 10, SamplesN: 90, Mechanism: "channel", Source: "for k := range keys {"}},
			want: nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := benchmark("BenchmarkRegistryAdd", 400e-9, 0, 0)
			b.Parallel = true
			d := doc(b)
			d.Scaling = []document.Scaling{{Benchmark: "BenchmarkRegistryAdd", Package: mod, Parameter: "cpu",
				CPU: []int{1, 2}, NsPerOp: []float64{380, 400}, Efficiency: 0.48, CoresUsed: 1.9,
				Locks: tc.locks, Growing: tc.growing}}
			fs, _ := Derive(d, Options{})
			var got []string
			for _, f := range fs {
				if f.Kind != document.KindContention {
					continue
				}
				s := fmt.Sprintf("%s %s", f.Rule, where(f.File, f.Line))
				for _, l := range lines(&f) {
					s += fmt.Sprintf(" +%d", l)
				}
				got = append(got, s)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("contention findings %q, want %q", got, tc.want)
			}
		})
	}
}

// TestLockLinesAreTheLocks: a function with a contended lock and a cost
// of its own (time.Now in a cache's Get, measured in a serial benchmark)
// is two causes: the lock, named at its RLock with the benchmarks that
// contend for it, and the function's CPU without the lock's lines and
// without those benchmarks, worded and advised for its own cost.
func TestLockLinesAreTheLocks(t *testing.T) {
	get := mod + ".(*Store).Get"
	par := benchmark("BenchmarkStoreGetParallel", 30e-9, 0, 0)
	par.Parallel = true
	serial := benchmark("BenchmarkStoreGetExpiring", 60e-9, 0, 0)
	d := doc(par, serial)
	d.Scaling = []document.Scaling{{
		Benchmark: "BenchmarkStoreGetParallel", Package: mod, Parameter: "cpu", Growth: "negative",
		CPU: []int{1, 2}, NsPerOp: []float64{12, 29.7}, Efficiencies: []float64{1, 0.2}, Efficiency: 0.2, CoresUsed: 1.9,
		Locks: []document.LockSite{{File: "store.go", Line: 27, Function: get, Op: "s.mu.RLock", Profile: "cpu",
			HeldTo: 29, CPUInside: 0.2, LockCPU: 0.5, Source: "s.mu.RLock()"}},
		Growing: []document.LineGrowth{{File: "store.go", Line: 29, Function: get, NsPerOp1: 4, NsPerOpN: 25,
			Samples1: 80, SamplesN: 500, Mechanism: "reader-count", Source: "s.mu.RUnlock()"}},
	}}
	line := func(b string, n int64, callee, cat string, v float64) document.LineCost {
		return document.LineCost{Benchmark: b, Package: mod, Function: get, File: "store.go", Line: n, Callee: callee, Category: document.Category(cat), Self: v, Cum: v}
	}
	d.Lines = []document.LineCost{
		line("BenchmarkStoreGetParallel", 27, "", "application", 0.3),
		line("BenchmarkStoreGetParallel", 29, "", "application", 0.2),
		line("BenchmarkStoreGetParallel", 28, "runtime.mapaccess2_faststr", "maps", 0.2),
		line("BenchmarkStoreGetExpiring", 31, "time.Now", "other", 0.6),
		line("BenchmarkStoreGetExpiring", 27, "", "application", 0.05),
		line("BenchmarkStoreGetExpiring", 29, "", "application", 0.04),
	}
	fs, _ := Derive(d, Options{})
	var cpu, lock *document.Finding
	for i := range fs {
		switch fs[i].Kind {
		case document.KindCPU:
			cpu = &fs[i]
		case document.KindContention:
			lock = &fs[i]
		}
	}
	if lock == nil || lock.Line != 27 {
		t.Fatalf("no contention finding at the RLock: %v", kinds(fs))
	}
	if cpu == nil {
		t.Fatalf("no CPU finding for Get's clock read: %v", kinds(fs))
	}
	if !strings.HasPrefix(cpu.Message, "(*Store).Get: reading the clock (time.Now)") || !strings.Contains(cpu.Suggestion, "time.Since") {
		t.Errorf("CPU finding %q, advice %q: want the clock read first, and its advice", cpu.Message, cpu.Suggestion)
	}
	if slices.Contains(cpu.Benchmarks, "BenchmarkStoreGetParallel") {
		t.Errorf("CPU finding costs %v: the contended benchmark is the lock's", cpu.Benchmarks)
	}
	for _, l := range append(lines(cpu), cpu.Line) {
		if l == 27 || l == 29 {
			t.Errorf("CPU finding at %d with lines %v: the lock's lines 27 and 29 are the lock's", cpu.Line, lines(cpu))
		}
	}
}

// TestLockHeldAcrossItsUnlock: a section whose "work inside" is its own
// deferred Unlock, sampled at a return line (`return false` under `defer
// c.mu.Unlock()`), is no lock held across work: nothing to move out of
// it, and never "compute "return false" before the Lock".
func TestLockHeldAcrossItsUnlock(t *testing.T) {
	add := benchmark("BenchmarkLRUAdd", 50e-9, 0, 0)
	add.Parallel = true
	d := doc(add)
	d.Scaling = []document.Scaling{{
		Benchmark: "BenchmarkLRUAdd", Package: mod, Parameter: "cpu", Growth: "flat",
		CPU: []int{1, 2}, NsPerOp: []float64{50, 52}, Efficiencies: []float64{1, 0.48}, Efficiency: 0.48, CoresUsed: 1.1,
		Locks: []document.LockSite{{File: "lru.go", Line: 127, Function: mod + ".(*LRU).Add", Op: "sync.(*Mutex).Lock", Profile: "cpu",
			HeldTo: 145, CPUInside: 0.44, LockCPU: 0.23, Source: "c.mu.Lock()",
			Inside: []document.LineInside{
				{Line: 133, Callee: "sync.(*Mutex).Unlock", Category: "other", Share: 0.26, Source: "return false"},
				{Line: 130, Callee: "runtime.mapaccess2_faststr", Category: "maps", Share: 0.12, Source: "if e, ok := c.items[key]; ok {"},
			}}},
	}}
	fs, _ := Derive(d, Options{})
	for _, f := range fs {
		if f.Rule == document.RuleLockExclusive || strings.Contains(f.Suggestion, "return false") {
			t.Errorf("%s:%d %s: %q; want no lock held across work (the section's work is its Unlock and a map read under the threshold)", f.File, f.Line, f.Rule, f.Suggestion)
		}
	}
	// The map read grown to 30%: a lock held across work, but work on
	// the state it guards (c.items under c.mu), which cannot move out.
	d.Scaling[0].Locks[0].CPUInside = 0.56
	d.Scaling[0].Locks[0].Inside[1].Share = 0.30
	fs, _ = Derive(d, Options{})
	found := false
	for _, f := range fs {
		if f.Rule != document.RuleLockExclusive {
			continue
		}
		found = true
		if strings.Contains(f.Suggestion, "before the Lock") || !strings.Contains(f.Suggestion, "cannot move out") {
			t.Errorf("suggestion %q; want the guarded state's words, not to compute it before the Lock", f.Suggestion)
		}
	}
	if !found {
		t.Error("no lock-exclusive finding for a section with 30% work inside")
	}
}

// TestComponentContentionFollows: a lock held across work in a cache
// package's own RunParallel benchmark, in a module whose renderer
// benchmarks (which reach the cache) all run serially, follows the
// renderer's 9% fix in its category's words, though its weighted impact
// is higher: the module's use, as benchmarked, never contends for it.
func TestComponentContentionFollows(t *testing.T) {
	add := benchmark("BenchmarkLRUAdd", 50e-9, 0, 0)
	add.Package, add.Parallel = mod+"/cache", true
	render := benchmark("BenchmarkRender", 1e-3, 0, 0)
	render.Package = mod + "/tests"
	d := doc(add, render)
	d.Scaling = []document.Scaling{{
		Benchmark: "BenchmarkLRUAdd", Package: mod + "/cache", Parameter: "cpu", Growth: "flat",
		CPU: []int{1, 2}, NsPerOp: []float64{50, 52}, Efficiencies: []float64{1, 0.48}, Efficiency: 0.48, CoresUsed: 1.1,
		Locks: []document.LockSite{{File: "cache/lru.go", Line: 127, Function: mod + "/cache.(*LRU).Add", Op: "sync.(*Mutex).Lock", Profile: "cpu",
			HeldTo: 145, CPUInside: 0.8, LockCPU: 0.1, Source: "c.mu.Lock()",
			Inside: []document.LineInside{{Line: 130, Callee: "crypto/sha256.Sum256", Category: "crypto", Share: 0.8, Source: "sum := sha256.Sum256(key)"}}}},
	}}
	d.Lines = []document.LineCost{
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + ".(*Table).render", File: "table.go", Line: 50, Callee: "strings.genSplit", Category: "strings", Self: 0.09, Cum: 0.09},
	}
	d.Hotspots = []document.Hotspot{
		{Benchmark: "BenchmarkLRUAdd", Package: mod + "/cache", Function: mod + "/cache.(*LRU).Add", Flat: 0.8, Cum: 0.9},
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + ".(*Table).render", Flat: 0.3, Cum: 0.9},
		{Benchmark: "BenchmarkRender", Package: mod + "/tests", Function: mod + "/cache.(*LRU).Add", Flat: 0.05, Cum: 0.05},
	}
	fs, _ := Derive(d, Options{})
	var order []string
	for _, f := range fs {
		if f.Section == document.SectionFix {
			order = append(order, fmt.Sprintf("%s %s:%d", f.Kind, f.File, f.Line))
		}
	}
	if len(order) < 2 || order[0] != "cpu table.go:50" {
		t.Errorf("fix findings %v; want the renderer's table.go:50 first, the cache's contention after", order)
	}
}

// TestPackageLockNamedForItsState: a package-level lock named for what
// it guards (poolMu guards pool) held across a refill of that state
// (`io.ReadFull(rander, pool[:])`) is work that cannot move out: never
// "compute it before the Lock".
func TestPackageLockNamedForItsState(t *testing.T) {
	b := benchmark("BenchmarkUUID_NewPooled", 80e-9, 0, 0)
	b.Parallel = true
	d := doc(b)
	d.Scaling = []document.Scaling{{
		Benchmark: "BenchmarkUUID_NewPooled", Package: mod, Parameter: "cpu", Growth: "flat",
		CPU: []int{1, 2}, NsPerOp: []float64{80, 82}, Efficiencies: []float64{1, 0.49}, Efficiency: 0.49, CoresUsed: 1.1,
		Locks: []document.LockSite{{File: "version4.go", Line: 60, Function: mod + ".newRandomFromPool", Op: "sync.(*Mutex).Lock", Profile: "cpu",
			HeldTo: 71, CPUInside: 0.46, LockCPU: 0.1, Source: "poolMu.Lock()",
			Inside: []document.LineInside{
				{Line: 62, Callee: "io.ReadFull", Category: "syscall", Share: 0.46, Source: "_, err := io.ReadFull(rander, pool[:])"},
			}}},
	}}
	fs, _ := Derive(d, Options{})
	found := false
	for _, f := range fs {
		if f.Rule != document.RuleLockExclusive {
			continue
		}
		found = true
		if strings.Contains(f.Suggestion, "before the Lock") || !strings.Contains(f.Suggestion, "cannot move out") {
			t.Errorf("suggestion %q; want the guarded state's words, not to compute it before the Lock", f.Suggestion)
		}
	}
	if !found {
		t.Error("no lock-exclusive finding for a section with 46% work inside")
	}
}

// TestShardLockLeftAlone: contention at the lock of one shard of a
// structure that holds many by key (a lock-sharded shape at its line) is
// the benchmark's keys, not the lock's scope: "Leave alone" (leave-shard),
// in the shape's words; the registry's mutex, no shard, stays a fix.
func TestShardLockLeftAlone(t *testing.T) {
	d := concurrentDoc()
	d.Shapes = append(d.Shapes, document.Shape{Name: "lock-sharded", File: "store.go", Line: 27, Function: mod + ".(*Store).Get",
		Says:   "s.mu.RLock() locks one Store, one of the shards Sharded.shards holds: the lock is split by key already",
		Advice: "contention on it in a benchmark comes from goroutines that use the same keys (one shard)"})
	fs, _ := Derive(d, Options{})
	var store, registry *document.Finding
	for i, f := range fs {
		if f.Kind != document.KindContention {
			continue
		}
		switch f.Line {
		case 27:
			store = &fs[i]
		case 54:
			registry = &fs[i]
		}
	}
	if store == nil || store.Section != document.SectionLeaveAlone || store.Rule != document.RuleLeaveShard || !strings.Contains(store.Suggestion, "split by key already") {
		t.Errorf("the shard's lock: %+v; want leave-alone, leave-shard, in the shape's words", store)
	}
	if registry == nil || registry.Section != document.SectionFix {
		t.Errorf("the registry's mutex: %+v; want a fix", registry)
	}
}

// TestAtomicReservation: an atomic add whose value the line keeps (a bump
// allocator's pos := atomic.AddUint64(&a.compIdx, n)) hands each caller
// its own place: no counter to split per goroutine and sum; a counter's
// add is one.
func TestAtomicReservation(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"pos := atomic.AddUint64(&a.compIdx, uint64(sz))", "its own place"},
		{"n := a.off.Add(int64(sz))", "its own place"},
		{"atomic.AddInt64(&m.count, n)", "keep one counter per goroutine"},
	} {
		b := benchmark("BenchmarkAllocate", 11e-9, 0, 0)
		b.Parallel = true
		d := doc(b)
		d.Scaling = []document.Scaling{{Benchmark: "BenchmarkAllocate", Package: mod, Parameter: "cpu", Growth: "negative",
			CPU: []int{1, 2}, NsPerOp: []float64{1, 11}, Efficiencies: []float64{1, 0.05}, Efficiency: 0.05, CoresUsed: 1.9,
			Growing: []document.LineGrowth{{File: "allocator.go", Line: 278, Function: mod + ".(*Allocator).Allocate", NsPerOp1: 0.5, NsPerOpN: 10,
				Samples1: 80, SamplesN: 500, Mechanism: "atomic", Source: tc.src}}}}
		fs, _ := Derive(d, Options{})
		f := find(fs, document.KindContention)
		if f == nil || !strings.Contains(f.Suggestion, tc.want) {
			t.Errorf("%s: finding %+v, want advice saying %q", tc.src, f, tc.want)
		}
	}
}

// TestWriterLockLeftAlone: a lock held across the write to one output (a
// buffered syncer's s.writer.Flush() under s.mu) keeps each write whole
// and the output in order: "Leave alone" (leave-writer), never "split the
// state by a hash of the key" — a Write has no key.
func TestWriterLockLeftAlone(t *testing.T) {
	b := benchmark("BenchmarkBufferedWriteSyncer", 80e-9, 0, 0)
	b.Parallel = true
	d := doc(b)
	d.Scaling = []document.Scaling{{
		Benchmark: "BenchmarkBufferedWriteSyncer", Package: mod, Parameter: "cpu", Growth: "flat",
		CPU: []int{1, 2}, NsPerOp: []float64{80, 82}, Efficiencies: []float64{1, 0.49}, Efficiency: 0.49, CoresUsed: 1.1,
		Locks: []document.LockSite{{File: "buffered_write_syncer.go", Line: 138, Function: mod + ".(*BufferedWriteSyncer).Write", Op: "sync.(*Mutex).Lock", Profile: "cpu",
			HeldTo: 155, CPUInside: 0.23, LockCPU: 0.05, Source: "s.mu.Lock()",
			Inside: []document.LineInside{
				{Line: 149, Callee: "bufio.(*Writer).Flush", Category: "syscall", Share: 0.15, Source: "if err := s.writer.Flush(); err != nil {"},
			}}},
	}}
	fs, _ := Derive(d, Options{})
	var f *document.Finding
	for i := range fs {
		if fs[i].Kind == document.KindContention {
			f = &fs[i]
		}
	}
	if f == nil || f.Section != document.SectionLeaveAlone || f.Rule != document.RuleLeaveWriter || strings.Contains(f.Suggestion, "hash of the key") || !strings.Contains(f.Suggestion, "s.writer") {
		t.Errorf("the writer's lock: %+v; want leave-alone, leave-writer, naming s.writer", f)
	}
}

// TestTickerSelectIsNoWait: a background loop's select on a ticker (a
// buffered syncer's flushLoop, a ticker-select shape at its line) sleeps
// between ticks, and a worker goroutine's range over its task channel (a
// worker-idle shape) is parked between tasks: their block-profile waits
// are no contention; a select on work channels still is. A join (a
// WaitGroup's or an errgroup's Wait) waits for goroutines to finish,
// never for a lock.
func TestTickerSelectIsNoWait(t *testing.T) {
	for _, tc := range []struct {
		name  string
		op    string
		shape string
		want  int
	}{
		{"a select on a ticker", "select", "ticker-select", 0},
		{"a worker's range over its tasks", "chan receive", "worker-idle", 0},
		{"an exported call waiting for its next event", "select", "api-wait", 0},
		{"a select on work channels", "select", "", 1},
		{"an errgroup's Wait", "golang.org/x/sync/errgroup.(*Group).Wait", "", 0},
		{"a WaitGroup's Wait", "sync.(*WaitGroup).Wait", "", 0},
		{"a mutex", "sync.(*Mutex).Lock", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := benchmark("BenchmarkBufferedWriteSyncer", 400e-9, 0, 0)
			b.Parallel = true
			d := doc(b)
			d.Scaling = []document.Scaling{{Benchmark: "BenchmarkBufferedWriteSyncer", Package: mod, Parameter: "cpu",
				CPU: []int{1, 2}, NsPerOp: []float64{380, 400}, Efficiency: 0.48, CoresUsed: 1.9,
				Locks: []document.LockSite{{File: "syncer.go", Line: 176, Function: mod + ".(*BufferedWriteSyncer).flushLoop", Op: tc.op, Profile: "block",
					DelayPerOp: 300, ContentionsPerOp: 0.5, DelayShare: 0.9, Source: "select {"}}}}
			if tc.shape != "" {
				d.Shapes = append(d.Shapes, document.Shape{Name: tc.shape, File: "syncer.go", Line: 176, Function: mod + ".(*BufferedWriteSyncer).flushLoop",
					Says: "flushLoop waits here"})
			}
			fs, _ := Derive(d, Options{})
			n := 0
			for _, f := range fs {
				if f.Kind == document.KindContention {
					n++
				}
			}
			if n != tc.want {
				t.Errorf("%d contention findings, want %d: %v", n, tc.want, kinds(fs))
			}
		})
	}
}

// TestLockWordLeftAlone: the compare-and-swap a spin lock of the module
// is taken by (a lock-word shape at its line) grows with the cores as
// any lock's word does: a leave-alone finding, never "one counter per
// goroutine"; an atomic counter's growth stays a cause.
func TestLockWordLeftAlone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shape   bool
		section document.Section
	}{
		{"a spin lock's word", true, document.SectionLeaveAlone},
		{"a counter", false, document.SectionFix},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := benchmark("BenchmarkBackOffSpinLock", 8e-9, 0, 0)
			b.Parallel = true
			d := doc(b)
			fn := mod + ".(*spinLock).Lock"
			d.Scaling = []document.Scaling{{Benchmark: "BenchmarkBackOffSpinLock", Package: mod, Parameter: "cpu",
				CPU: []int{1, 2}, NsPerOp: []float64{5.2, 8.4}, Efficiency: 0.31, CoresUsed: 1.9, Shared: []string{"spin"},
				Growing: []document.LineGrowth{{File: "spinlock.go", Line: 19, Function: fn, Callee: "sync/atomic.CompareAndSwapUint32",
					NsPerOp1: 2.1, NsPerOpN: 6.5, Samples1: 43, SamplesN: 136, Mechanism: "atomic", Source: "for !atomic.CompareAndSwapUint32((*uint32)(sl), 0, 1) {"}},
				Atomics: []document.LineInside{{File: "spinlock.go", Function: fn, Line: 19, Share: 0.3, Source: "for !atomic.CompareAndSwapUint32((*uint32)(sl), 0, 1) {"}}}}
			if tc.shape {
				d.Shapes = append(d.Shapes, document.Shape{Name: "lock-word", File: "spinlock.go", Line: 19, Function: fn,
					Says: "Lock takes the lock by a compare-and-swap of (*uint32)(sl)", Advice: "the shared word is the lock itself"})
			}
			fs, gate := Derive(d, Options{})
			var got []document.Finding
			for _, f := range fs {
				if f.Kind == document.KindContention {
					got = append(got, f)
				}
			}
			if len(got) != 1 || got[0].Section != tc.section || tc.shape && (got[0].Rule != document.RuleLeaveLockWord || strings.Contains(got[0].Suggestion, "per goroutine")) {
				t.Errorf("got %+v; want one contention finding in %s", got, tc.section)
			}
			gated := slices.ContainsFunc(gate, func(g document.Gate) bool { return g.Rule == "contention" })
			if gated != !tc.shape {
				t.Errorf("contention gate row: %v, want %v", gated, !tc.shape)
			}
		})
	}
}
