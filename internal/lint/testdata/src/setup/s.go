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

// Compile builds a matcher from a short expression: a cheap call.
func Compile(expr string) int { return len(expr) }

// Match reports whether the matcher fits in.
func Match(m int, in string) bool { return len(in) >= m }
