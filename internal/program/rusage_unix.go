//go:build unix

package program

import (
	"os"
	"runtime"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// usage reads the kernel's rusage of a finished process.
func usage(ps *os.ProcessState) Usage {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return Usage{User: ps.UserTime(), Sys: ps.SystemTime()}
	}
	unit := int64(1024) // ru_maxrss is in KiB, but bytes on Apple systems
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		unit = 1
	}
	return Usage{
		User:        time.Duration(ru.Utime.Nano()),
		Sys:         time.Duration(ru.Stime.Nano()),
		MaxRSS:      int64(ru.Maxrss) * unit,
		MinorFaults: int64(ru.Minflt),
		MajorFaults: int64(ru.Majflt),
	}
}

// exitStatus returns the process's exit code, 128+N when it died of
// signal N, and the signal's name.
func exitStatus(ps *os.ProcessState) (int, string) {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal()), ws.Signal().String()
	}
	return ps.ExitCode(), ""
}

// signalName is a signal's name as kill(1) spells it: SIGINT, SIGTERM.
func signalName(sig os.Signal) string {
	if s, ok := sig.(syscall.Signal); ok {
		if name := unix.SignalName(s); name != "" {
			return name
		}
	}
	return sig.String()
}
