package findings

// CheckThresholds are the cuts perfloop check decides a change with,
// beside the regression threshold its user sets (-threshold): when a
// counter's change is real, when an allocation site grew, when a group of
// lines' CPU time grew. They sit here, with the report's thresholds, so
// that the judgement has one home; internal/check's tests pin each one at
// its edge (TestCheckThresholdsMatter).
type CheckThresholds struct {
	// AllocsPerOp: a change of allocs/op of at least this is real (the
	// counts are exact, so half an allocation per op is not noise).
	AllocsPerOp float64
	// BytesPerOp: a change of B/op of at least this is real.
	BytesPerOp float64
	// SiteObjects: an allocation site both sides have grew when it
	// allocates at least this many objects more per op (BytesPerOp more
	// bytes also counts).
	SiteObjects float64
	// NewSiteObjects: a site only HEAD has is new when it allocates at
	// least this many objects per op (a rare branch's site is not).
	NewSiteObjects float64
	// CPUGrowth and CPUSigmas: a group of lines (a function's code, or
	// its calls of one callee) is a cause when its time per op grew by at
	// least CPUGrowth of BASE's time per op and by more than CPUSigmas
	// standard deviations of the profiles' sampling noise.
	CPUGrowth, CPUSigmas float64
}

// DefaultCheck are the cuts perfloop check uses.
var DefaultCheck = CheckThresholds{
	AllocsPerOp:    0.5,
	BytesPerOp:     8,
	SiteObjects:    0.2,
	NewSiteObjects: 0.05,
	CPUGrowth:      0.05,
	CPUSigmas:      3,
}

// CoreGrowth names how a concurrent benchmark's throughput grows with
// the cores, from its time per op at one core (ns1) and at n cores (nsN),
// measured at counts core counts: "negative" (slower with more cores),
// "flat" (less than 1.2× faster), "linear" (an efficiency of ScaleOK or
// more) or "sublinear"; "" when there is nothing to compare.
func (t *Thresholds) CoreGrowth(ns1, nsN float64, counts, n int) string {
	if counts < 2 || ns1 <= 0 || nsN <= 0 {
		return ""
	}
	speedup := ns1 / nsN
	switch {
	case speedup < 1:
		return "negative"
	case speedup < 1.2:
		return "flat"
	case speedup/float64(n) >= t.ScaleOK:
		return "linear"
	}
	return "sublinear"
}
