package setup

// Fixture builds test data: expensive.
func Fixture(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i * i
	}
	return out
}

func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}
