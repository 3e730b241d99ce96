package selectspin

import (
	"context"
	"sync/atomic"
)

type pool struct {
	allDone chan struct{}
	work    chan int
	running int32
}

func (p *pool) finish() {
	if atomic.AddInt32(&p.running, -1) == 0 {
		close(p.allDone)
	}
}

func (p *pool) ReleaseContext(ctx context.Context) error {
	for {
		select { // want `ReleaseContext's endless loop \(line 21\) selects on p.allDone, a channel the package only closes, and that case can go round again`
		case <-ctx.Done():
			return ctx.Err()
		case <-p.allDone:
			if atomic.LoadInt32(&p.running) == 0 {
				return nil
			}
		}
	}
}

// The case leaves the loop: one wait.
func (p *pool) Wait() {
	for {
		select {
		case <-p.allDone:
			return
		case v := <-p.work:
			_ = v
		}
	}
}

// A channel the package sends on carries items: each receive takes one.
func (p *pool) serve() {
	for {
		select {
		case v := <-p.work:
			_ = v
		}
	}
}

func (p *pool) submit(v int) { p.work <- v; close(p.work) }

// A context's Done that the loop keeps selecting after.
func poll(ctx context.Context, f func() bool) {
	for {
		select { // want `poll's endless loop \(line 59\) selects on ctx.Done\(\), closed when the context ends`
		case <-ctx.Done():
			if f() {
				return
			}
		}
	}
}
