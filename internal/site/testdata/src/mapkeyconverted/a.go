package mapkeyconverted

// Exclude records the field names to leave out.
func Exclude(names [][]byte) map[string]struct{} {
	m := make(map[string]struct{})
	for _, b := range names {
		m[string(b)] = struct{}{} // want `string\(b\) is the key of an entry m keeps: the copy is the entry's own string`
	}
	return m
}

// Has only looks up: no copy, no shape.
func Has(m map[string]bool, b []byte) bool {
	return m[string(b)]
}

// Slice stores into a slice: no shape.
func Slice(s []string, b []byte) {
	s[0] = string(b)
}
