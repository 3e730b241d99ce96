//go:build unix

package gotest

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup starts cmd in a process group of its own, so that a terminal's
// Ctrl-C reaches perfloop, which then stops the command its own way, and
// not the command directly.
func ownGroup(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
}

// interruptGroup sends SIGINT to cmd's process group (see ownGroup), or
// to cmd's process when it has no group of its own.
func interruptGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return os.ErrProcessDone
	}
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid {
		return cmd.Process.Signal(os.Interrupt)
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
	if err == syscall.ESRCH {
		return os.ErrProcessDone
	}
	return err
}

// killGroup kills what is left of cmd's process group after cmd exited.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.SysProcAttr != nil && cmd.SysProcAttr.Setpgid {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
