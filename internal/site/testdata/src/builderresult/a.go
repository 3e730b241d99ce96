package builderresult

import (
	"bytes"
	"strings"
)

// unescape builds its result rune by rune.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if c != '\\' {
			b.WriteRune(c) // want `b.WriteRune\(c\) writes into b, whose text unescape returns \(line 18\): the writes build its result`
			continue
		}
	}
	return b.String()
}

// A buffer written and returned as bytes.
func join(parts [][]byte) []byte {
	var buf bytes.Buffer
	for _, p := range parts {
		buf.Write(p) // want `buf.Write\(p\) writes into buf, whose text join returns`
	}
	return buf.Bytes()
}

// A builder the function writes to a field: not its result.
type T struct{ out strings.Builder }

func (t *T) emit(s string) {
	t.out.WriteString(s)
}

// A local builder whose text is not returned: a scratch buffer.
func count(s string) int {
	var b strings.Builder
	b.WriteString(s)
	return b.Len()
}
