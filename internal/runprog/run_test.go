package runprog

import "testing"

// TestIsLeaf: the leaves a program's CPU profile samples for another's
// work (asynchronous preemption, the raw system call stubs) are no hot
// spots; the functions that do work are.
func TestIsLeaf(t *testing.T) {
	for _, tc := range []struct {
		fn   string
		leaf bool
	}{
		{"runtime.asyncPreempt", true},
		{"runtime.asyncPreempt2", true},
		{"internal/runtime/syscall/linux.Syscall6", true},
		{"internal/runtime/syscall.Syscall6", true},
		{"runtime/internal/syscall.Syscall6", true},
		{"syscall.Syscall", true},
		{"syscall.RawSyscall6", true},
		{"syscall.rawSyscallNoError", true},
		{"syscall.syscall", true},
		{"golang.org/x/sys/unix.Syscall", true},
		{"syscall.Write", false},
		{"runtime.mallocgc", false},
		{"strconv.formatBase10", false},
		{"example.com/m.Syscall", false},
	} {
		if got := isLeaf(tc.fn); got != tc.leaf {
			t.Errorf("isLeaf(%q) = %v, want %v", tc.fn, got, tc.leaf)
		}
	}
}

// TestCollectionNote: the report says what the collection before the
// final heap profile cost only when it is a noticeable share of the run.
func TestCollectionNote(t *testing.T) {
	for _, tc := range []struct {
		collected, wall float64
		want            string
	}{
		{0.31, 4.6, "run: the collection before the final heap profile (which holds only what the runtime has published at a collection) took 0.31s of the program's 4.60s (7%), in proportion to the heap the program holds when it ends: -memprofilerate 0 skips it (no allocation sites; allocated stays exact)"},
		{0.05, 1, "run: the collection before the final heap profile (which holds only what the runtime has published at a collection) took 0.05s of the program's 1.00s (5%), in proportion to the heap the program holds when it ends: -memprofilerate 0 skips it (no allocation sites; allocated stays exact)"},
		{0.049, 1, ""},
		{0.001, 0.2, ""},
		{0.01, 0, ""},
	} {
		if got := collectionNote("run", tc.collected, tc.wall); got != tc.want {
			t.Errorf("collectionNote(%v, %v) = %q, want %q", tc.collected, tc.wall, got, tc.want)
		}
	}
}
