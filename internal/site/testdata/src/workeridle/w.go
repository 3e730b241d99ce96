package workeridle

import "time"

type worker struct {
	task chan func()
	stop chan struct{}
	out  chan int
}

func (w *worker) run() {
	go func() {
		for fn := range w.task { // want `the goroutine waits here for its next piece of work from w.task: a worker parked between tasks`
			fn()
		}
	}()
}

func (w *worker) loop() {
	done := make(chan struct{}) // want `loop runs as a goroutine the package starts \(line 40\), and this line runs once per start, before its loop`
	_ = done
	for {
		select { // want `loop waits here for its next piece of work from w.task`
		case fn := <-w.task:
			fn()
		case <-w.stop:
			return
		}
	}
}

func (w *worker) recvLoop() {
	for {
		v := <-w.out // want `recvLoop waits here for its next piece of work from w.out`
		_ = v
	}
}

func start(w *worker) {
	go w.loop()
	go w.recvLoop()
}

func (w *worker) submit(fn func()) {
	w.task <- fn // want `submit hands a task to a worker through w.task, the channel its goroutine waits on \(line 13\)`
}

// A send on a channel no worker ranges over.
func (w *worker) emit(v int) {
	w.out <- v
}

// A consumer the caller runs itself: waiting here is waiting on the
// producer, the pipeline's stall.
func (w *worker) drain() int {
	n := 0
	for v := range w.out {
		n += v
	}
	return n
}

// A select that also sends: the goroutine waits on its consumer too.
func (w *worker) pump() {
	for {
		select {
		case fn := <-w.task:
			fn()
		case w.out <- 1:
		}
	}
}

// A loop with a default never parks.
func (w *worker) poll() {
	for {
		select {
		case fn := <-w.task:
			fn()
		default:
			return
		}
	}
}

func startAll(w *worker) {
	go w.pump()
	go w.poll()
}

// A goroutine per stream only to wait for its timeout.
type session struct {
	shutdownCh chan struct{}
	timeout    time.Duration
}

type stream struct{ establishCh chan struct{} }

func (s *session) OpenStream() *stream {
	st := &stream{establishCh: make(chan struct{}, 1)}
	go s.setOpenTimeout(st)
	return st
}

func (s *session) setOpenTimeout(st *stream) {
	timer := time.NewTimer(s.timeout) // want `setOpenTimeout runs as a goroutine started at line [0-9]+ on every call there, and only waits: time.NewTimer\(s.timeout\), then a select on st.establishCh, s.shutdownCh and the timer`
	defer timer.Stop()
	select {
	case <-st.establishCh:
	case <-s.shutdownCh:
	case <-timer.C:
		s.close()
	}
}

func (s *session) close() {}

// A goroutine that runs the loop through a wrapper.
type sender struct {
	sendCh chan []byte
	done   chan struct{}
}

func (s *sender) start() { go s.send() }

func (s *sender) send() {
	if err := s.sendLoop(); err != nil {
		panic(err)
	}
}

func (s *sender) sendLoop() error {
	for {
		select { // want `sendLoop waits here for its next piece of work from s.sendCh`
		case b := <-s.sendCh:
			_ = b
		case <-s.done:
			return nil
		}
	}
}

// An exported call that blocks until the next stream arrives.
type session2 struct {
	acceptCh   chan int
	shutdownCh chan struct{}
}

func (s *session2) AcceptStream() (int, bool) {
	select { // want `AcceptStream waits here for s.acceptCh: the call blocks its caller until the next one arrives`
	case st := <-s.acceptCh:
		return st, true
	case <-s.shutdownCh:
		return 0, false
	}
}
