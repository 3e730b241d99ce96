// Package fixers holds one shape of each analyzer fix tries.
package fixers

import (
	"fmt"
	"sort"
	"strings"
)

// Join is built with += in a loop.
func Join(names []string) string {
	s := ""
	for _, n := range names {
		s += n
	}
	return s
}

// Hex formats bytes with Sprintf's %x.
func Hex(b []byte) string {
	return fmt.Sprintf("%x", b)
}

// Bytes formats into a string, then copies it into bytes.
func Bytes(n int) []byte {
	return []byte(fmt.Sprintf("n=%d", n))
}

// Words ranges over a slice Split makes for the loop alone.
func Words(s string) int {
	n := 0
	for _, w := range strings.Split(s, " ") {
		n += len(w)
	}
	return n
}

// Sort sorts ints through reflection.
func Sort(xs []int) {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
}

// Least is the smaller of a and b, with a branch.
func Least(a, b int) int {
	x := a
	if b < a {
		x = b
	}
	return x
}

// Label formats an integer with Sprintf: strconv's edit, not perfsprint's.
func Label(n int) string {
	return fmt.Sprintf("%d", n)
}
