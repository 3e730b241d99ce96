package latencymeasured

import "time"

var clock = time.Now

type values struct {
	start   time.Time
	latency time.Duration
}

// A request logger: the latency of next, measured.
func logged(next func() error, now func() time.Time) values {
	start := now() // want `now\(\) and now\(\) read the clock at the start and the end of the operation: its latency, measured`
	_ = next()
	v := values{start: start}
	v.latency = now().Sub(start) // want `now\(\) and now\(\) read the clock`
	return v
}

func timed(f func()) time.Duration {
	t0 := time.Now() // want `time.Now\(\) and time.Since\(t0\) read the clock`
	f()
	return time.Since(t0) // want `time.Now\(\) and time.Since\(t0\) read the clock`
}

// Two stamps that are not a latency: no report.
func stamps() (time.Time, time.Time) {
	a := clock()
	b := clock()
	return a, b
}
