package helpers

// IndexOfAny1 finds find in in.
func IndexOfAny1(in []rune, find rune) int {
	for i, r := range in {
		if r == find {
			return i
		}
	}
	return -1
}
