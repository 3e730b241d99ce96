package fieldscounted

import (
	"bytes"
	"strings"
)

func Words(line string) int {
	return len(strings.Fields(line)) // want `len\(strings.Fields\(line\)\) builds a slice of every part only to count them`
}

func Parts(b []byte) int { return len(bytes.Split(b, []byte(","))) } // want `len\(bytes.Split`

// The words are used: no shape.
func First(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
