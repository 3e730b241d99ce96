package loop

import (
	"reflect"
	"testing"

	"github.com/perfloop/perfloop/internal/profiles"
)

// TestLockSections: each Lock pairs with the first Unlock of the same
// expression after it, or a deferred one (held to the closing brace); a
// function literal's locks are its own; a Lock never released in its
// function is no section.
func TestLockSections(t *testing.T) {
	got := lockSections("testdata/critical/locks.go")
	want := []section{
		{Op: "Lock", Recv: "r.mu", Lock: 13, End: 17},
		{Op: "RLock", Recv: "r.rw", Lock: 20, End: 22, Unlock: 22},
		{Op: "Lock", Recv: "r.subs[i].mu", Lock: 27, End: 28, Unlock: 28},
		{Op: "Lock", Recv: "r.mu", Lock: 30, End: 32, Unlock: 32},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sections:\n got %+v\nwant %+v", got, want)
	}
	s := got[0]
	for line, held := range map[int64]bool{13: false, 14: true, 15: true, 16: true, 17: false} {
		if s.held(line) != held {
			t.Errorf("held(%d) = %v, want %v", line, !held, held)
		}
	}
	// A mutex profile names the Unlock, or the closing brace a deferred
	// Unlock runs at: both lead to the Lock.
	x := newSectionIndex("testdata/critical")
	for _, line := range []int64{13, 17} {
		if sec, ok := x.at("locks.go", line); !ok || sec.Lock != 13 {
			t.Errorf("at(%d) = %+v, %v; want the section locked at 13", line, sec, ok)
		}
	}
	if sec, ok := x.at("locks.go", 22); !ok || sec.Lock != 20 {
		t.Errorf("at(22) = %+v, %v; want the section locked at 20", sec, ok)
	}
}

// TestLockSitesFromLockCPU: a read lock around a cheap read is listed
// from the CPU its lock operations take, though nothing inside the
// section costs CPU and no profile saw it wait (a read lock waits only
// for a writer).
func TestLockSitesFromLockCPU(t *testing.T) {
	aN := &profiles.CPU{Samples: 1000, Lines: []profiles.LineCost{
		{Function: "m.(*R).Get", File: "locks.go", Line: 20, Self: 0.30, Cum: 0.30},
		{Function: "m.(*R).Get", File: "locks.go", Line: 22, Self: 0.25, Cum: 0.25},
		{Function: "m.(*R).Get", File: "locks.go", Line: 21, Self: 0.01, Cum: 0.01},
	}}
	got, _ := lockSites("", "", 1000, profiles.Options{}, aN, newSectionIndex("testdata/critical"), newSources("testdata/critical"))
	if len(got) != 1 || got[0].Line != 20 || got[0].LockCPU < 0.5 {
		t.Fatalf("lockSites = %+v, want the RLock at locks.go:20 with its lock operations' CPU", got)
	}
}
