//go:build !unix

package cmdbench

import (
	"fmt"
	"runtime"
	"syscall"
	"time"
)

// run fails: timing with wait4's rusage needs a Unix system.
func (p *process) run(ctl *control, limit time.Duration) (Measurement, error) {
	return Measurement{}, fmt.Errorf("run %s: perfloop exec needs wait4, which %s does not have", p.path, runtime.GOOS)
}

// selfMaxRSS is 0: there is no inherited floor to report.
func selfMaxRSS() int64 { return 0 }

// sysAttr is nil: runs fail before they start here.
func sysAttr() *syscall.SysProcAttr { return nil }

func interruptGroup(pid int) {}

func killGroup(pid int) {}
