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

// wrapRunes gives up at the first rune it cannot handle, after growing.
func wrapRunes(s string) (string, bool) {
	var out strings.Builder
	out.Grow(len(s) + 1) // want `out.Grow\(len\(s\) \+ 1\) reserves room in out, whose text wrapRunes returns \(line 54\), but the return at line 50 leaves out behind`
	for _, r := range s {
		if r > 0x300 {
			return "", false
		}
		out.WriteRune(r) // want `out.WriteRune\(r\) writes into out`
	}
	return out.String(), true
}

// A return past the builder's scope (another variable of the same name)
// does not drop it.
func wrap(s string) string {
	if len(s) < 4 {
		var out strings.Builder
		out.Grow(len(s))
		out.WriteString(s) // want `out.WriteString\(s\) writes into out`
		return out.String()
	}
	if out, ok := wrapRunes(s); ok {
		return out
	}
	return s
}
