package wallclock

import "time"

type item struct {
	v   any
	exp int64
}

// Expired compares the wall time with the stamp.
func (it item) Expired() bool {
	return time.Now().UnixNano() > it.exp // want `time.Now\(\).UnixNano\(\) reads the wall clock and the monotonic clock, then keeps only the wall time as an integer`
}

func set(d time.Duration) item {
	return item{exp: time.Now().Add(d).UnixNano()} // want `time.Now\(\).Add\(d\).UnixNano\(\) reads`
}

// A timestamp kept as a time.Time: the wall time is what it is for.
func stamp() time.Time { return time.Now() }

// A time that is not now: no clock read.
func epoch(t time.Time) int64 { return t.UnixNano() }

// Elapsed time on the monotonic clock already.
func since(base time.Time) time.Duration { return time.Since(base) }
