package atomicboxed

import (
	"sync/atomic"
	"time"
)

type Stream struct {
	readDeadline atomic.Value
	name         atomic.Value
	cfg          atomic.Value
	ptr          atomic.Pointer[time.Time]
}

type config struct{ n int }

func newStream() *Stream {
	s := &Stream{}
	s.readDeadline.Store(time.Time{}) // want `newStream stores time.Time{} into s.readDeadline, an atomic.Value: Store boxes the time.Time \(24 bytes\) into an interface`
	s.name.Store("x")                 // want `newStream stores "x" into s.name, an atomic.Value: Store boxes the string`
	return s
}

// A pointer, an interface, an atomic.Pointer: nothing boxed anew.
func (s *Stream) set(c *config, v any, t *time.Time) {
	s.cfg.Store(c)
	s.cfg.Store(v)
	s.ptr.Store(t)
}
