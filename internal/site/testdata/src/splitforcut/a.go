package splitforcut

import (
	"strconv"
	"strings"
)

func Commaf(v float64) string {
	parts := strings.Split(strconv.FormatFloat(v, 'f', -1, 64), ".") // want `Commaf splits strconv.FormatFloat\(v, 'f', -1, 64\) at "." into a slice of parts, and uses only parts\[0\], parts\[1\] and its length`
	s := parts[0]
	if len(parts) > 1 {
		s += "," + parts[1]
	}
	return s
}

// Every part is used: the slice is the point.
func Fields(s string) int {
	n := 0
	for _, p := range strings.Split(s, ",") {
		n += len(p)
	}
	parts := strings.Split(s, ";")
	for _, p := range parts {
		n += len(p)
	}
	return n
}

// A part written: not only read.
func Rename(s string) string {
	parts := strings.Split(s, ".")
	parts[0] = "x"
	return strings.Join(parts, ".")
}
