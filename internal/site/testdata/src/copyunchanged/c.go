package copyunchanged

import (
	"bytes"
	"strings"
)

// SubstituteRune copies s through buf even when no rune is in sub.
func SubstituteRune(s string, sub map[rune]string) string {
	var buf bytes.Buffer
	for _, c := range s {
		if d, ok := sub[c]; ok {
			buf.WriteString(d)
		} else {
			buf.WriteRune(c) // want `SubstituteRune copies s element by element into buf, a replacement where one applies \(line 13\) and c itself elsewhere, then returns buf's text \(line 18\): when nothing is replaced the result equals s, yet it is built and copied on every call`
		}
	}
	return buf.String()
}

// Upper writes a changed rune every time: no element is kept as it is.
func Upper(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c >= 'a' && c <= 'z' {
			b.WriteRune(c - 32)
		} else {
			b.WriteRune(c + 1)
		}
	}
	return b.String()
}

// Escape returns the input when nothing needs escaping: nothing to say.
func Escape(s string) string {
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		if c == '<' {
			b.WriteString("&lt;")
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}
