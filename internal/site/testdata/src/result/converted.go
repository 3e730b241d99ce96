package result

import (
	"bytes"
	"strings"
)

// Differ works on runes; its API takes strings.
type Differ struct{}

func commonPrefix(a, b []rune) int { // want `commonPrefix's result is what the exported Differ.CommonPrefix returns`
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// CommonPrefix converts the strings it is given.
func (Differ) CommonPrefix(text1, text2 string) int {
	return commonPrefix([]rune(text1), []rune(text2)) // want `CommonPrefix returns commonPrefix's result` `\[\]rune\(text1\) converts CommonPrefix's parameter text1, a string, once per call: the API takes a string and the work is on its runes` `\[\]rune\(text2\) converts`
}

// Bytes converts a string it changes first: not its input as given.
func Bytes(s string) int {
	s = s + "x"
	return len([]byte(s))
}

// lower is unexported: no API.
func lower(s string) int { return len([]rune(s)) }

// Loop converts in a loop: a repeat, not the input once.
func Loop(ss []string) int {
	n := 0
	for _, s := range ss {
		n += len([]byte(s))
	}
	return n
}

// FillLeft pads s: the padding is part of the string it returns.
func FillLeft(s string, n int) string {
	return strings.Repeat(" ", n) + s // want `strings.Repeat\(" ", n\) \+ s concatenates the string FillLeft returns` `strings.Repeat\(" ", n\) computes the value FillLeft returns`
}

// Contains converts for a library function with a string variant: a
// conversion strings.Contains avoids, not the API's.
func Contains(s, sub string) bool {
	return bytes.Contains([]byte(s), []byte(sub)) // want `bytes.Contains\(\[\]byte\(s\), \[\]byte\(sub\)\) computes the value Contains returns`
}
