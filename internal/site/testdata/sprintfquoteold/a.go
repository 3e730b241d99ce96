// Package sprintfquoteold is a module of Go 1.13 (go.mod), before
// bytes.Buffer.AvailableBuffer.
package sprintfquoteold

import (
	"bytes"
	"fmt"
)

func appendValue(b *bytes.Buffer, s string) {
	b.WriteString(fmt.Sprintf("%q", s)) // want `quotes a string through fmt`
}
