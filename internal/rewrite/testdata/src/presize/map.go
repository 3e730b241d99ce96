package presize

// Index maps each name to its position.
func Index(names []string) map[string]int {
	m := make(map[string]int)
	for i, n := range names {
		m[n] = i // want `gets one entry per element of`
	}
	return m
}
