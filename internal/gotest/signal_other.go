//go:build !unix

package gotest

import "os/exec"

// ownGroup does nothing: process groups are a Unix notion.
func ownGroup(cmd *exec.Cmd) {}

// interruptGroup kills cmd's process: it cannot be interrupted here.
func interruptGroup(cmd *exec.Cmd) error { return cmd.Process.Kill() }

// killGroup does nothing: process groups are a Unix notion.
func killGroup(cmd *exec.Cmd) {}
