package builder

import "strconv"

// Join writes the numbers with a comma after each.
func Join(xs []int) string {
	s := ""
	for _, x := range xs {
		s += strconv.Itoa(x) + "," // want `is built with \+= in a loop`
	}
	return s
}
