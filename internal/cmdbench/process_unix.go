//go:build unix

package cmdbench

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"time"
)

// maxRSSUnit is the unit of Rusage.Maxrss in bytes: bytes on Apple
// systems, KiB on Linux and the BSDs.
var maxRSSUnit = func() int64 {
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return 1
	}
	return 1024
}()

// run starts the process once and waits for it. The wall time spans
// exactly fork/exec to reap; rusage is the child's own, from wait4. ctl
// may stop the child (cancellation, or the time limit, 0 for none).
func (p *process) run(ctl *control, limit time.Duration) (Measurement, error) {
	var (
		ws syscall.WaitStatus
		ru syscall.Rusage
	)
	if ctl.isCanceled() {
		return Measurement{}, context.Canceled
	}
	start := time.Now()
	pid, err := syscall.ForkExec(p.path, p.argv, &p.attr)
	if err != nil {
		return Measurement{}, fmt.Errorf("start %s: %w", p.path, err)
	}
	ctl.started(pid, limit)
	for {
		_, err = syscall.Wait4(pid, &ws, 0, &ru)
		if err != syscall.EINTR {
			break
		}
	}
	wall := time.Since(start)
	timedOut := ctl.ended()
	if err != nil {
		return Measurement{}, fmt.Errorf("wait for %s: %w", p.path, err)
	}
	m := Measurement{
		Wall:                   wall,
		User:                   time.Duration(ru.Utime.Nano()),
		Sys:                    time.Duration(ru.Stime.Nano()),
		MaxRSS:                 int64(ru.Maxrss) * maxRSSUnit,
		MinorFaults:            int64(ru.Minflt),
		MajorFaults:            int64(ru.Majflt),
		VoluntaryCtxSwitches:   int64(ru.Nvcsw),
		InvoluntaryCtxSwitches: int64(ru.Nivcsw),
	}
	switch {
	case ws.Exited():
		m.ExitCode = ws.ExitStatus()
	case ws.Signaled():
		m.Signal = ws.Signal()
		m.ExitCode = 128 + int(m.Signal)
	}
	m.TimedOut = timedOut
	return m, nil
}

// sysAttr puts every child in a process group of its own (see control).
func sysAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// interruptGroup sends SIGINT to the process group pid leads.
func interruptGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGINT) }

// killGroup sends SIGKILL to the process group pid leads.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }

// selfMaxRSS returns perfloop's own peak resident set size in bytes. On
// Linux a child's ru_maxrss is never below the peak RSS of the process that
// started it: exec folds the old address space's high-water mark into the
// process (exec_mmap → setmax_mm_hiwater_rss), and a vfork child's old
// address space is the parent's. So a child's figure at or below this one
// says only "at most this much".
func selfMaxRSS() int64 {
	if runtime.GOOS != "linux" && runtime.GOOS != "android" {
		return 0 // other systems reset the mark at exec
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * maxRSSUnit
}
