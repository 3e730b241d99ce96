package conv

import "fmt"

// Same formats a string as itself.
func Same(s string) int {
	return len(fmt.Sprintf("%s", s)) // want `formats only strings and integers`
}
