//go:build linux

package gotest

import (
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// startOn starts cmd with its CPU affinity set to cpus. A child
// inherits the affinity of the thread that forks it, so the calling
// goroutine locks its thread, narrows that thread's affinity, starts the
// child and restores it. If affinity cannot be set, cmd starts unpinned.
func startOn(cmd *exec.Cmd, cpus []int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return cmd.Start()
	}
	for _, c := range cpus {
		one.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		return cmd.Start()
	}
	defer unix.SchedSetaffinity(0, &old)
	return cmd.Start()
}

// QuietCPU returns the CPU to pin benchmark processes to: the highest one
// this process may run on, since the kernel tends to steer interrupts and
// housekeeping to CPU 0. It returns -1 when pinning is not possible (one CPU
// or no affinity support).
func QuietCPU() int {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil || set.Count() < 2 {
		return -1
	}
	for cpu := 1023; cpu >= 0; cpu-- {
		if set.IsSet(cpu) {
			return cpu
		}
	}
	return -1
}
