package document

import "strings"

// PlainFunc drops a generic function's type arguments from its name as
// profiles write it: "m.(*Tree[...]).Get" → "m.(*Tree).Get",
// "m.Map[go.shape.int]" → "m.Map". Instantiations of one function, and the
// same function in two revisions, then share a name.
func PlainFunc(fn string) string {
	if !strings.Contains(fn, "[") {
		return fn
	}
	var b strings.Builder
	depth := 0
	for _, r := range fn {
		switch {
		case r == '[':
			depth++
		case r == ']':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}
