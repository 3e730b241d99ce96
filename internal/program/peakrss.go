package program

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"
)

// The kernel's rusage of a child (wait4) does not give the program's own
// peak resident set on Linux: exec records the high-water mark of the
// memory the child was forked from (perfloop's, shared with the child
// until exec) as the child's, so ru_maxrss is at least perfloop's. The
// program's own peak is /proc/PID/status's VmHWM, which starts afresh at
// exec and keeps the peak (the kernel updates it before it unmaps
// anything): the wrapper writes its own VmHWM at every segment and last
// thing before the program ends, and Run reads the program's while it
// runs, for an end the wrapper does not see. Page faults need no such
// care: a forked process starts with none.

// peakRSSPoll is how often Run reads a running program's VmHWM.
const peakRSSPoll = 50 * time.Millisecond

// parseVmHWM returns the VmHWM of a /proc/PID/status text in bytes, or 0.
func parseVmHWM(status []byte) int64 {
	for line := range bytes.SplitSeq(status, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		fields := bytes.Fields(rest)
		if len(fields) != 2 || string(fields[1]) != "kB" {
			return 0
		}
		kb, err := strconv.ParseInt(string(fields[0]), 10, 64)
		if err != nil {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// watchPeakRSS reads the VmHWM of the running process pid every
// peakRSSPoll until exited is closed; the function it returns waits for
// that and returns the highest value read (0 where there is no
// /proc/PID/status).
func watchPeakRSS(pid int, exited <-chan struct{}) func() int64 {
	if runtime.GOOS != "linux" {
		return func() int64 { return 0 }
	}
	path := filepath.Join("/proc", strconv.Itoa(pid), "status")
	done := make(chan int64, 1)
	go func() {
		var peak int64
		t := time.NewTicker(peakRSSPoll)
		defer t.Stop()
		for {
			// A process that has ended (a zombie) has no VmHWM.
			if b, err := os.ReadFile(path); err == nil {
				peak = max(peak, parseVmHWM(b))
			}
			select {
			case <-exited:
				done <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 { return <-done }
}
