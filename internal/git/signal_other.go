//go:build !unix

package git

import (
	"os"
	"os/exec"
)

// ownGroup does nothing: process groups are a Unix notion.
func ownGroup(cmd *exec.Cmd) {}

// terminateGroup does nothing, which lets git run to its end: there is
// no signal that asks a process to stop cleanly here.
func terminateGroup(cmd *exec.Cmd) error { return os.ErrProcessDone }
