package runprog

import (
	"testing"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/program"
)

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
		{0.31, 4.6, "run: the collection before the final heap profile (which holds only what the runtime has published at a collection) took 0.31s of the program's 4.60s (7%), in proportion to the heap the program holds when it ends: -finalgc off skips it (the heap profile then misses the run's last collection cycles; allocated stays exact)"},
		{0.05, 1, "run: the collection before the final heap profile (which holds only what the runtime has published at a collection) took 0.05s of the program's 1.00s (5%), in proportion to the heap the program holds when it ends: -finalgc off skips it (the heap profile then misses the run's last collection cycles; allocated stays exact)"},
		{0.049, 1, ""},
		{0.001, 0.2, ""},
		{0.01, 0, ""},
	} {
		if got := collectionNote("run", tc.collected, tc.wall); got != tc.want {
			t.Errorf("collectionNote(%v, %v) = %q, want %q", tc.collected, tc.wall, got, tc.want)
		}
	}
}

// TestCoverageNote: a heap profile written without a final collection
// that holds less than 90% of the bytes allocated is said to be partial,
// with what it holds, why and what the collection would cost; one
// written after a collection, or nearly whole, is not.
func TestCoverageNote(t *testing.T) {
	const mib = 1 << 20
	for _, tc := range []struct {
		name      string
		gc        string
		heap, all int64
		cost      float64
		want      string
	}{
		{"skipped", program.FinalGCSkipped, 186 * mib, 446 * mib, 0.17,
			"run: the heap profile holds 186 MiB of the 446 MiB allocated: the run's last collection cycles are not in it (the collection it needs would cost about 17% of the run); the allocation sites' bytes are shares of what it holds; -finalgc on collects before writing it"},
		{"off", program.FinalGCOff, 10 * mib, 40 * mib, 0.001,
			"run: the heap profile holds 10 MiB of the 40 MiB allocated: the run's last collection cycles are not in it (-finalgc off; a collection would cost under 1% of the run); the allocation sites' bytes are shares of what it holds; -finalgc on collects before writing it"},
		{"nearly whole", program.FinalGCSkipped, 95 * mib, 100 * mib, 0.2, ""},
		{"collected", program.FinalGCCollected, 99 * mib, 100 * mib, 0.01, ""},
		{"collected, sampled low", program.FinalGCCollected, 80 * mib, 100 * mib, 0.01, ""},
		{"nothing allocated", program.FinalGCSkipped, 0, 0, 0.2, ""},
	} {
		rv := document.RunVariant{FinalGC: tc.gc, FinalGCCost: tc.cost, HeapProfileBytes: tc.heap, AllocBytes: tc.all}
		if got := coverageNote("run", rv); got != tc.want {
			t.Errorf("%s: coverageNote = %q, want %q", tc.name, got, tc.want)
		}
	}
}
