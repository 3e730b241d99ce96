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
