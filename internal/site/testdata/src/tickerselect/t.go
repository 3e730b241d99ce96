package tickerselect

import (
	"sync"
	"time"
)

type Syncer struct {
	ticker *time.Ticker
	stop   chan struct{}
	work   chan int
}

func (s *Syncer) flushLoop() {
	for {
		select { // want `flushLoop waits here for s.ticker.C: a background loop sleeping between ticks`
		case <-s.ticker.C:
		case <-s.stop:
			return
		}
	}
}

func (s *Syncer) wait() {
	select { // want `wait waits here for time.After\(time.Second\)`
	case v := <-s.work:
		_ = v
	case <-time.After(time.Second): // want `wait waits with time.After\(time.Second\) as its timeout, once per call`
	}
}

// A select on work channels only: goroutines handing work to each other.
func (s *Syncer) serve() {
	select {
	case v := <-s.work:
		_ = v
	case <-s.stop:
	}
}

var timerPool = sync.Pool{New: func() any { return time.NewTimer(time.Hour) }}

// A ping's timeout, once per call.
func (s *Syncer) Ping() bool {
	select { // want `Ping waits here for time.After\(time.Second\) or its other cases: one wait with a timeout`
	case <-s.work:
		return true
	case <-time.After(time.Second): // want `Ping waits with time.After\(time.Second\) as its timeout, once per call: time.After makes a timer and its channel on every call`
		return false
	}
}
