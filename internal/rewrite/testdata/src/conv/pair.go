package conv

import (
	"fmt"
	"io"
)

// Pair keeps fmt for the other call.
func Pair(w io.Writer, name string, n int64) {
	s := fmt.Sprintf("%s=%d%%", name, n) // want `formats only strings and integers`
	fmt.Fprintln(w, s)
}
