package growshort

import "strings"

// Snake inserts a delimiter before each upper-case byte.
func Snake(s string) string {
	n := strings.Builder{}
	n.Grow(len(s) + 2) // want `n.Grow\(len\(s\) \+ 2\) reserves len\(s\) \+ 2 bytes, then the loop at line 9 writes each byte of s and, at some, more \(2 writes into n in one iteration\)`
	for i, v := range []byte(s) {
		if i > 0 && v >= 'A' && v <= 'Z' {
			n.WriteByte('_')
		}
		n.WriteByte(v | 0x20)
	}
	return n.String()
}

// Camel drops delimiters: at most one write per byte, nothing to say.
func Camel(s string) string {
	n := strings.Builder{}
	n.Grow(len(s))
	for _, v := range []byte(s) {
		if v == '_' {
			continue
		} else if v >= 'a' && v <= 'z' {
			n.WriteByte(v - 0x20)
		} else {
			n.WriteByte(v)
		}
	}
	return n.String()
}
