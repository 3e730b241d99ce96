package regexptest

import (
	"regexp"
	"unicode/utf8"
)

var (
	nonAlnum   = regexp.MustCompile(`[^a-zA-Z0-9]`)
	space      = regexp.MustCompile(`\s`)
	lineBreak  = regexp.MustCompile(`[\r\n]`)
	blankEnd   = regexp.MustCompile(`\n\r?\n$`)
	blankStart = regexp.MustCompile(`^\r?\n\r?\n`)
	digits     = regexp.MustCompile(`\d`)
	word       = regexp.MustCompile(`(\w+)@(\w+)`)
	anyEnd     = regexp.MustCompile(`a*$`)
	caseless   = regexp.MustCompile(`(?i)x$`)
)

// A boundary score: one-rune strings tested against classes, and the
// whole strings against blank lines at their ends.
func score(one, two string) int {
	r1, _ := utf8.DecodeLastRuneInString(one)
	r2, _ := utf8.DecodeRuneInString(two)
	c1 := string(r1)
	c2 := string(r2)
	alnum1 := nonAlnum.MatchString(c1) // want `score runs nonAlnum, "\[\^a-zA-Z0-9\]", one character class, to test c1: the regexp engine runs on every call for what a comparison answers; it runs 5 more such tests \(lines 28, 29, 30, 31, 32\)`
	alnum2 := nonAlnum.MatchString(c2)
	space1 := alnum1 && space.MatchString(c1)
	break2 := alnum2 && lineBreak.MatchString(string(r2))
	blank1 := break2 && blankEnd.MatchString(one)
	blank2 := space1 && blankStart.MatchString(two)
	if blank1 || blank2 {
		return 5
	}
	return 0
}

// A class tested on a whole string, as bytes.
func hasDigit(b []byte) bool {
	return digits.Match(b) // want `hasDigit runs digits, "\\\\d", one character class, to test b`
}

// Groups, a repeat that matches the empty string, and a case-folded
// literal are no comparison.
func others(s string) bool {
	return word.MatchString(s) || anyEnd.MatchString(s) || caseless.MatchString(s)
}
