package conv

import "fmt"

// Count formats a byte count.
func Count(n uint32) string {
	return fmt.Sprint(n) // want `formats only strings and integers`
}
