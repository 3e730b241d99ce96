package cmdbench

import (
	"sync"
	"time"
)

// stopGrace is how long a child stopped by cancellation has to exit after
// SIGINT before it is killed.
const stopGrace = time.Second

// control stops the child that is running: all of its process group when
// the benchmark is cancelled (SIGINT, then SIGKILL after stopGrace), and at
// a run's time limit (SIGKILL). Every child runs in a process group of its
// own, so a shell's children stop with it, and perfloop, not the terminal,
// decides when to stop them.
type control struct {
	mu       sync.Mutex
	pid      int  // the running child, which leads its process group; 0 between runs
	canceled bool // the benchmark was cancelled: start nothing more
	timedOut bool // the current run reached its time limit
	timer    *time.Timer
}

func newControl() *control {
	c := &control{}
	c.timer = time.AfterFunc(time.Hour, c.expire)
	c.timer.Stop()
	return c
}

// started records the child that now runs and arms its time limit, if
// any; a child that starts after the benchmark was cancelled is killed.
func (c *control) started(pid int, limit time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pid, c.timedOut = pid, false
	if c.canceled {
		killGroup(pid)
		return
	}
	if limit > 0 {
		c.timer.Reset(limit)
	}
}

// ended forgets the child, which has been reaped, and reports whether it
// reached its time limit. After a cancellation it kills what is left of
// the child's process group (a shell's background job ignores SIGINT):
// the group outlives its leader while it has members, so its number
// cannot have been reused yet.
func (c *control) ended() (timedOut bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.timer.Stop()
	if c.canceled && c.pid != 0 {
		killGroup(c.pid)
	}
	c.pid = 0
	return c.timedOut
}

// isCanceled reports whether the benchmark was cancelled.
func (c *control) isCanceled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.canceled
}

func (c *control) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pid != 0 {
		c.timedOut = true
		killGroup(c.pid)
	}
}

// cancel stops the running child and every later one.
func (c *control) cancel() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.canceled = true
	pid := c.pid
	if pid == 0 {
		return
	}
	interruptGroup(pid)
	time.AfterFunc(stopGrace, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.pid == pid {
			killGroup(pid)
		}
	})
}
