//go:build !unix

package gotest

import (
	"os"
	"os/exec"
)

// ownGroup does nothing: process groups are a Unix notion.
func ownGroup(cmd *exec.Cmd) {}

// terminateGroup does nothing, which lets the command run to its end:
// there is no signal that asks a process to stop cleanly here.
func terminateGroup(cmd *exec.Cmd) error { return os.ErrProcessDone }

// interruptGroup kills cmd's process: it cannot be interrupted here.
func interruptGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// killGroup does nothing: process groups are a Unix notion.
func killGroup(cmd *exec.Cmd) {}
