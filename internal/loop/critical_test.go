package loop

import (
	"reflect"
	"testing"
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
