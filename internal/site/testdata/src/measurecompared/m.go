package measurecompared

import "unicode/utf8"

// Condition measures widths.
type Condition struct{ wide bool }

// StringWidth walks all of s.
func (c *Condition) StringWidth(s string) (width int) {
	for i := 0; i < len(s); i++ {
		width++
	}
	return width
}

// Truncate measures s only to compare with w, then cuts it.
func (c *Condition) Truncate(s string, w int, tail string) string {
	if c.StringWidth(s) <= w { // want `c.StringWidth\(s\) measures all of s only to compare the measure with w, and Truncate goes on to work on s after`
		return s
	}
	return s[:w] + tail
}

// Limit counts runes against a maximum.
func Limit(s string, max int) string {
	if utf8.RuneCountInString(s) > max { // want `utf8.RuneCountInString\(s\) measures all of s`
		return string([]rune(s)[:max])
	}
	return s
}

// Fits uses the measure and nothing after: the whole measure is the answer.
func (c *Condition) Fits(s string, w int) bool {
	if c.StringWidth(s) <= w {
		return true
	}
	return false
}

// Pad needs the measure itself (w - width), so the full walk is used.
func (c *Condition) Pad(s string, w int) string {
	width := c.StringWidth(s)
	if width < w {
		return s + " "
	}
	return s
}
