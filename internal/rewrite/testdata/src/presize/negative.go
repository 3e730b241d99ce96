package presize

// Evens appends conditionally: the length is not known.
func Evens(xs []int) []int {
	var out []int
	for _, x := range xs {
		if x%2 == 0 {
			out = append(out, x) // no rewrite
		}
	}
	return out
}

// Positive skips some before appending.
func Positive(xs []int) []int {
	out := make([]int, 0)
	for _, x := range xs {
		if x < 0 {
			continue
		}
		out = append(out, x) // no rewrite
	}
	return out
}

// Twice appends two per iteration.
func Twice(xs []int) []int {
	out := []int{}
	for _, x := range xs {
		out = append(out, x) // no rewrite
		out = append(out, x)
	}
	return out
}

// Drain ranges over a channel, whose length is not its count.
func Drain(c chan int) []int {
	out := []int{}
	for x := range c {
		out = append(out, x) // no rewrite
	}
	return out
}

// Reset writes out otherwise in the loop.
func Reset(xs []int) []int {
	out := []int{}
	for _, x := range xs {
		out = append(out, x) // no rewrite
		if len(out) > 3 {
			out = out[1:]
		}
	}
	return out
}
