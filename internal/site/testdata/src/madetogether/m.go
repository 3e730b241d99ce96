package madetogether

// Bisect makes its two frontiers at every call and keeps neither.
func Bisect(a, b []rune) int {
	n := (len(a) + len(b) + 1) / 2
	v1 := make([]int, 2*n) // want `Bisect makes v1 and v2, two \[\]int of length 2\*n, one after the other at every call, and keeps neither past it`
	v2 := make([]int, 2*n)
	for i := range v1 {
		v1[i] = -1
		v2[i] = -1
	}
	best := 0
	for d := 0; d < n; d++ {
		v1[d] = v2[d] + 1
		best = max(best, v1[d])
	}
	return best + len(v2)
}

// Rows keeps one of its rows in its result: each is its own value.
func Rows(n int) []int {
	prev := make([]int, n)
	cur := make([]int, n)
	for i := range cur {
		cur[i] = prev[i] + i
	}
	return cur
}

// Passed hands its buffers to a call, which may keep them.
func Passed(n int) {
	a := make([]byte, n)
	b := make([]byte, n)
	sink(a, b)
}

func sink(a, b []byte) {}

// Lengths differ: not one buffer cut in two.
func Lengths(n, m int) int {
	a := make([]int, n)
	b := make([]int, m)
	return len(a) + len(b)
}

// Types differ.
func Types(n int) int {
	a := make([]int, n)
	b := make([]byte, n)
	return len(a) + len(b)
}

// Constant lengths may stay on the stack.
func Constant() int {
	a := make([]int, 8)
	b := make([]int, 8)
	a[0], b[0] = 1, 2
	return a[0] + b[0]
}

// Stored keeps a slice in a struct.
type holder struct{ xs []int }

func Stored(h *holder, n int) {
	a := make([]int, n)
	b := make([]int, n)
	h.xs = b
	copy(a, b)
}
