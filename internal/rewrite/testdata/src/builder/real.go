package builder

import (
	"strconv"
	"strings"
)

// Prefix starts from something: the builder starts from it too.
func Prefix(xs []string) string {
	s := "> "
	for _, x := range xs {
		s += x // want `s is built with \+= in a loop`
	}
	return s
}

// Quote builds its named result and returns it with a bare return.
func Quote(fields []string) (out string) {
	for i, f := range fields {
		if i > 0 {
			out += "," // want `out is built with \+= in a loop`
		}
		out += strconv.Quote(f)
	}
	return
}

// Render's accumulator is declared in an outer scope, the loop nested in
// an if.
func Render(rows [][]string, header bool) string {
	text := ""
	if header {
		text = "name\tvalue\n"
	}
	if len(rows) > 0 {
		for _, r := range rows {
			text += strings.Join(r, "\t") + "\n" // want `text is built with \+= in a loop`
		}
	}
	return text
}

// Indent extends its parameter.
func Indent(s string, n int) string {
	for range n {
		s = s + "  " // want `s is built with \+= in a loop`
	}
	return s
}

// Grid's string is extended in an inner and an outer loop: the outer one
// is rewritten.
func Grid(cells [][]string) string {
	var g string
	for _, row := range cells {
		for _, c := range row {
			g += c + " " // want `g is built with \+= in a loop`
		}
		g += "\n"
	}
	return g
}
