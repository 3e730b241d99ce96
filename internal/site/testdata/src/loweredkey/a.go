package loweredkey

import "strings"

var table = map[string]uint64{"kb": 1000, "mb": 1000000}

func Parse(unit string) (uint64, bool) {
	extra := strings.ToLower(strings.TrimSpace(unit)) // want `strings.ToLower builds a new string whenever its input has a letter to change, only to look it up in table \(line 9\)`
	m, ok := table[extra]
	return m, ok
}

func Direct(unit string) uint64 {
	return table[strings.ToLower(unit)] // want `strings.ToLower builds a new string`
}

// Lowered for its own sake: returned, not only looked up.
func Lower(unit string) string {
	return strings.ToLower(unit)
}
