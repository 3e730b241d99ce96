package loop

import "testing"

// A calibration run stalled by the machine gave a trace of 24 iterations
// of a 3.4µs benchmark for -tracetime 30ms: no collection in it. The
// traced run's own time asks for a second trace; a trace that covers a
// quarter of -tracetime or more, or a fixed count, is kept.
func TestShortTrace(t *testing.T) {
	for _, tc := range []struct {
		n         int64
		perOp     float64
		traceTime string
		want      int64
		short     bool
	}{
		{24, 3365e-9, "30ms", 8915, true},
		{24, 3365e-9, "", 297177, true},      // the default, 1s
		{2500, 3365e-9, "30ms", 2500, false}, // 8.4ms: over a quarter
		{2000, 3365e-9, "30ms", 8915, true},  // 6.7ms: under a quarter
		{24, 3365e-9, "2000x", 24, false},    // a count is what was asked
		{24, 0, "30ms", 24, false},           // no time per iteration
		{1, 0.5, "1s", 1, false},             // one iteration is half a second
		{1, 1e-12, "1s", 1e12, true},         // capped
	} {
		got, short := shortTrace(tc.n, tc.perOp, tc.traceTime)
		if got != tc.want || short != tc.short {
			t.Errorf("shortTrace(%d, %g, %q) = %d, %v; want %d, %v", tc.n, tc.perOp, tc.traceTime, got, short, tc.want, tc.short)
		}
	}
}
