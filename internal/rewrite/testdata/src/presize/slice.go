package presize

import "strings"

// Field is one trimmed part.
type Field struct{ Name string }

// Fields trims every part: one append per part.
func Fields(parts []string) []Field {
	out := []Field{}
	for _, p := range parts {
		f := Field{Name: strings.TrimSpace(p)}
		out = append(out, f) // want `grows by one element per element of`
	}
	return out
}
