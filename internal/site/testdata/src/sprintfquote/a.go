package sprintfquote

import (
	"bytes"
	"fmt"
)

// appendValue writes a value, quoted when it needs it.
func appendValue(b *bytes.Buffer, s string, quote bool) {
	if !quote {
		b.WriteString(s)
		return
	}
	b.WriteString(fmt.Sprintf("%q", s)) // want `fmt.Sprintf\("%q", s\) quotes a string through fmt`
}

// A string result: strconv.Quote.
func quoted(s string) string {
	return fmt.Sprintf("%q", s) // want `quotes a string through fmt`
}

// Another verb, another type: not this shape.
func other(s string, n int) string { return fmt.Sprintf("%s", s) + fmt.Sprintf("%q", n) }
