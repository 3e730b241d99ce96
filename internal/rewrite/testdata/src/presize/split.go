package presize

import "strings"

// Upper splits s at commas; the slice is declared before the split.
func Upper(s string) []string {
	var words []string
	parts := strings.Split(s, ",")
	for _, p := range parts {
		words = append(words, strings.ToUpper(p)) // want `grows by one element per element of`
	}
	return words
}
