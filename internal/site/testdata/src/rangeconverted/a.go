package rangeconverted

import "unicode"

// A transformer lowering its input chunk by chunk.
func lower(dst, src []byte) int {
	n := 0
	for _, r := range string(src) { // want `the loop ranges over string\(src\), a copy of src made only to decode its runes`
		n += copy(dst[n:], string(unicode.ToLower(r)))
	}
	return n
}

// Over the indexes only, or over a string: no report.
func count(src []byte, s string) int {
	n := 0
	for i := range string(src) {
		n += i
	}
	for _, r := range s {
		n += int(r)
	}
	return n
}
