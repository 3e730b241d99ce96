package grow

import (
	"bytes"
	"strings"
)

// Escape writes s rune by rune, two bytes for a quote or a backslash:
// every rune is written at least at its own length.
func Escape(s string) string {
	var buf bytes.Buffer
	buf.WriteByte('"')
	for _, r := range s { // want `buf is written in a loop that writes at least len\(s\) bytes`
		switch r {
		case '"':
			buf.WriteString(`\"`)
		case '\\':
			buf.WriteString(`\\`)
		default:
			buf.WriteRune(r)
		}
	}
	buf.WriteByte('"')
	return buf.String()
}

// Hex writes two digits and a separator per byte.
func Hex(data []byte) string {
	const digits = "0123456789abcdef"
	var sb strings.Builder
	for _, c := range data { // want `sb is written in a loop that writes at least len\(data\) \* 3 bytes`
		sb.WriteByte(digits[c>>4])
		sb.WriteByte(digits[c&0xf])
		sb.WriteByte(' ')
	}
	return sb.String()
}

// Lower copies s byte by byte with an index loop.
func Lower(s string) string {
	b := new(strings.Builder)
	for i := 0; i < len(s); i++ { // want `b is written in a loop that writes at least len\(s\) bytes`
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Encoder keeps its buffer between calls.
type Encoder struct {
	buf bytes.Buffer
}

// Names writes each name and a comma; the names' lengths are not known,
// the commas are.
func (e *Encoder) Names(names []string) []byte {
	e.buf.Reset()
	for _, n := range names { // want `e.buf is written in a loop that writes at least len\(names\) bytes`
		e.buf.WriteString(n)
		e.buf.WriteByte(',')
	}
	return e.buf.Bytes()
}
