package callinputs

import "time"

// Meter's rate reads the clock: time.Since of a field it does not write
// is not the same on every call.
type Meter struct {
	start time.Time
	count int64
}

// Rate is the count per second since the start.
func (m *Meter) Rate() float64 {
	return float64(m.count) / time.Since(m.start).Seconds()
}
