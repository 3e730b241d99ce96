package gotest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// goStopDelay is how long a cancelled go command has to exit after its
// interrupt before it is killed.
const goStopDelay = 10 * time.Second

// GoCommand returns the go command with args, run in dir with env added to
// the environment, made safe to cancel: when ctx is done the command and
// the compilers and linkers it started get an interrupt, and a kill
// goStopDelay later if they have not exited.
//
// The go command does not remove its work directory (go-build…) when it is
// interrupted or killed during a build: it handles the interrupt only
// while it runs a test binary or a tool. So every go command gets a
// temporary directory of its own as GOTMPDIR, inside the user's GOTMPDIR
// or TMPDIR, and done removes it with whatever the go command left there.
// Call done after the command has finished (or failed to start).
func GoCommand(ctx context.Context, dir string, env []string, args ...string) (cmd *exec.Cmd, done func(), err error) {
	tmp, removeTmp, err := GoTempDir()
	if err != nil {
		return nil, nil, err
	}
	cmd = exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), env...), "GOTMPDIR="+tmp)
	ownGroup(cmd)
	cmd.Cancel = func() error { return interruptGroup(cmd) }
	cmd.WaitDelay = goStopDelay
	done = func() {
		if ctx.Err() != nil {
			// The go command has exited, but a compiler it started
			// may still be writing into tmp.
			killGroup(cmd)
		}
		removeTmp()
	}
	return cmd, done, nil
}

// GoTempDir makes a temporary directory, inside the user's GOTMPDIR or
// TMPDIR, to give a go command that perfloop does not start itself (the
// package loader's) as its GOTMPDIR, so that the go-build… work directory
// an interrupted go command leaves is removed with it (see GoCommand).
// Call remove after the command has finished.
func GoTempDir() (dir string, remove func(), err error) {
	dir, err = os.MkdirTemp(os.Getenv("GOTMPDIR"), "perfloop-go-")
	if err != nil {
		return "", nil, fmt.Errorf("create the go command's temporary directory: %w", err)
	}
	return dir, func() {
		if err := os.RemoveAll(dir); err != nil {
			// A compiler the go command started may still be
			// writing into it.
			time.Sleep(100 * time.Millisecond)
			_ = os.RemoveAll(dir)
		}
	}, nil
}
