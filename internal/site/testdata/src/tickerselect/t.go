package tickerselect

import "time"

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
	case <-time.After(time.Second):
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
