package profiles

import (
	"testing"
)

// TestLocksHarness: the block profile of a RunParallel benchmark whose
// workers take a mutex in the module. The harness's waits (RunParallel's
// WaitGroup, the benchmark goroutine's channel receive, the benchmark's
// own WaitGroup in its _test.go code) are counted apart; the module's Lock
// is a site at its line; a wait inside a library is the module line that
// called the library; a wait with no module frame is Other.
func TestLocksHarness(t *testing.T) {
	s := newSynth("contentions", "delay")
	s.add([]int64{10, 8000}, "sync.(*WaitGroup).Wait", "testing.(*B).RunParallel", "example.com/m.BenchmarkX", "testing.(*B).runN")
	s.add([]int64{2, 9000}, "runtime.chanrecv1", "testing.(*B).doBench", "testing.(*B).run")
	s.add([]int64{1, 1000}, "sync.(*WaitGroup).Wait", "example.com/m.BenchmarkX", "testing.(*B).runN")
	s.add([]int64{50, 500}, "runtime.semacquire1", "sync.runtime_SemacquireMutex", "internal/sync.(*Mutex).lockSlow",
		"internal/sync.(*Mutex).Lock+sync.(*Mutex).Lock+example.com/m.(*Reg).Add:x", "example.com/m.BenchmarkX.func1", "testing.(*B).RunParallel.func1")
	s.add([]int64{5, 300}, "runtime.chanrecv1", "example.com/m.(*Pool).take", "example.com/m.BenchmarkX.func1")
	s.add([]int64{3, 200}, "runtime.semacquire1", "sync.runtime_SemacquireMutex", "sync.(*Mutex).Lock", "log.(*Logger).output",
		"log.Printf", "example.com/m.(*Reg).Log", "example.com/m.BenchmarkX.func1")
	s.add([]int64{4, 100}, "runtime.semacquire1", "sync.(*Mutex).Lock", "net/http.(*Transport).getConn", "runtime.goexit")
	// A lock in the benchmark's own code is its own, not the harness.
	s.add([]int64{7, 70}, "sync.(*RWMutex).RLock", "example.com/m.BenchmarkX.func2", "testing.(*B).RunParallel.func1")

	l, err := AnalyzeLocks(s.p, "block", synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	if l.Delay != 19170 || l.Harness != 18000 || l.HarnessCount != 13 || l.Other != 100 {
		t.Errorf("delay %d, harness %d (%d waits), other %d; want 19170, 18000 (13), 100", l.Delay, l.Harness, l.HarnessCount, l.Other)
	}
	type site struct {
		fn, file string
		line     int64
		op, via  string
		delay    int64
		test     bool
	}
	want := []site{
		{"example.com/m.(*Reg).Add", "m.go", 100, "sync.(*Mutex).Lock", "", 500, false},
		{"example.com/m.(*Pool).take", "m.go", 10, "chan receive", "", 300, false},
		{"example.com/m.(*Reg).Log", "m.go", 10, "sync.(*Mutex).Lock", "log.Printf", 200, false},
		{"example.com/m.BenchmarkX.func2", "m_test.go", 10, "sync.(*RWMutex).RLock", "", 70, true},
	}
	if len(l.Sites) != len(want) {
		t.Fatalf("sites = %+v", l.Sites)
	}
	for i, w := range want {
		g := l.Sites[i]
		if got := (site{g.Function, g.File, g.Line, g.Op, g.Via, g.Delay, g.InTest}); got != w {
			t.Errorf("site %d = %+v, want %+v", i, got, w)
		}
	}
}

// TestLocksMutexProfile: a mutex profile names the Unlock that made
// others wait; its op is the Unlock.
func TestLocksMutexProfile(t *testing.T) {
	s := newSynth("contentions", "delay")
	s.add([]int64{4, 400}, "internal/sync.(*Mutex).Unlock+sync.(*Mutex).Unlock+example.com/m.(*Reg).Add:xx", "example.com/m.BenchmarkX.func1")
	l, err := AnalyzeLocks(s.p, "mutex", synthOpts)
	if err != nil {
		t.Fatal(err)
	}
	if l.Kind != "mutex" || len(l.Sites) != 1 || l.Sites[0].Op != "sync.(*Mutex).Unlock" || l.Sites[0].Line != 200 {
		t.Errorf("got %+v", l)
	}
}

func TestLocksWrongProfile(t *testing.T) {
	s := newSynth("cpu")
	if _, err := AnalyzeLocks(s.p, "block", synthOpts); err == nil {
		t.Error("a CPU profile read as a block profile: no error")
	}
}
