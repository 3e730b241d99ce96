package conv

import "fmt"

// Key names a user.
func Key(id int) string {
	return fmt.Sprintf("user-%d", id) // want `formats only strings and integers`
}
