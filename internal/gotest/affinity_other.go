//go:build !linux

package gotest

import "os/exec"

// startOn starts cmd; CPU pinning is supported on Linux only.
func startOn(cmd *exec.Cmd, cpus []int) error { return cmd.Start() }

// QuietCPU returns -1: CPU pinning is supported on Linux only.
func QuietCPU() int { return -1 }
