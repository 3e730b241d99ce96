package builder

// Until returns the named result from inside the loop with a bare
// return: it would be returned before the builder's String.
func Until(xs []string, stop string) (s string) {
	for _, x := range xs {
		if x == stop {
			return
		}
		s += x // no rewrite: a bare return in the loop hands out s
	}
	return
}

// Rows breaks out of an outer loop from the inner one, which alone
// extends s: the String after the inner loop would be skipped.
func Rows(rows [][]string) []string {
	var lines []string
outer:
	for _, r := range rows {
		s := ""
		for _, c := range r {
			if c == "" {
				break outer
			}
			s += c // no rewrite: break outer leaves the inner loop past its end
		}
		lines = append(lines, s)
	}
	return lines
}

// Pointer hands s's address out: a builder would not update it.
func Pointer(xs []string, keep func(*string)) string {
	s := ""
	keep(&s)
	for _, x := range xs {
		s += x // no rewrite: &s is taken
	}
	return s
}
