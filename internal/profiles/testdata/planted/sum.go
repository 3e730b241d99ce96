package planted

// Record is one row of input.
type Record struct {
	ID    int
	Name  string
	Score float64
}

// Sum adds up the records' scores without allocating.
func Sum(rs []*Record) float64 {
	s := 0.0
	for _, r := range rs {
		s += r.Score
	}
	return s
}
