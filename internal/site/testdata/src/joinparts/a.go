package joinparts

import (
	"bytes"
	"strings"
)

var lines = []string{"a\n", "b\n"}

// Each rune of a diff's text names a line: the lines are filled into a
// slice of parts only to be joined, and the runes are a copy of the text.
func charsToLines(s string) string {
	runes := []rune(s)
	text := make([]string, len(runes))
	for i, r := range runes {
		text[i] = lines[int(r)]
	}
	return strings.Join(text, "") // want `charsToLines fills text, one part per iteration of the loop at lines 15–17, only to join it here: the slice of parts is made to be copied once more`
}

// Appended parts, bytes.
func quoted(words [][]byte) []byte {
	var parts [][]byte
	for _, w := range words {
		parts = append(parts, bytes.ToUpper(w))
	}
	return bytes.Join(parts, []byte(", ")) // want `quoted fills parts, one part per iteration`
}

// The parts are read besides the join, returned, or filled outside a
// loop: no report.
func read(ws []string) (string, string) {
	parts := make([]string, 0, len(ws))
	for _, w := range ws {
		parts = append(parts, w+"!")
	}
	return strings.Join(parts, " "), parts[0]
}

func kept(ws []string) ([]string, string) {
	var parts []string
	for _, w := range ws {
		parts = append(parts, w)
	}
	return parts, strings.Join(parts, ",")
}

func pair(a, b string) string {
	parts := []string{a, b}
	return strings.Join(parts, "-")
}
