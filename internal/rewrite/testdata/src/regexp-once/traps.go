package once

import (
	"regexp"
	"strings"
)

// Trimmed finds on another input.
func Trimmed(re *regexp.Regexp, line string) []string {
	if re.MatchString(line) {
		line = strings.TrimSpace(line)
		m := re.FindStringSubmatch(line)
		return m
	}
	return nil
}

// Other finds with another regexp.
func Other(a, b *regexp.Regexp, line string) []string {
	if a.MatchString(line) {
		return b.FindStringSubmatch(line)
	}
	return nil
}

// Empty: FindString returns "" both for no match and for an empty match.
func Empty(re *regexp.Regexp, line string) string {
	if re.MatchString(line) {
		s := re.FindString(line)
		return s
	}
	return "none"
}

// Shadow: the else branch reads another m, which the moved declaration
// would hide.
func Shadow(re *regexp.Regexp, line string, m []string) []string {
	if re.MatchString(line) {
		m := re.FindStringSubmatch(line)
		return m[1:]
	} else {
		return m
	}
}

// Reload may change the field between the two scans.
type Reload struct{ re *regexp.Regexp }

func (r *Reload) load() { r.re = regexp.MustCompile(`x`) }

// Get reloads in between.
func (r *Reload) Get(line string) []string {
	if r.re.MatchString(line) {
		r.load()
		m := r.re.FindStringSubmatch(line)
		return m
	}
	return nil
}

// Zero finds no match at all with n == 0.
func Zero(re *regexp.Regexp, line string) []string {
	if re.MatchString(line) {
		m := re.FindAllString(line, 0)
		return m
	}
	return nil
}

// Captured input is changed by a goroutine's closure.
func Captured(re *regexp.Regexp, line string) []string {
	go func() { line = "" }()
	if re.MatchString(line) {
		m := re.FindStringSubmatch(line)
		return m
	}
	return nil
}

// Bytes are written between the scans.
func Bytes(re *regexp.Regexp, b []byte) [][]byte {
	if re.Match(b) {
		b[0] = 'x'
		m := re.FindSubmatch(b)
		return m
	}
	return nil
}

// Upper may write the bytes in between.
func Upper(re *regexp.Regexp, b []byte) [][]byte {
	if re.Match(b) {
		upper(b)
		m := re.FindSubmatch(b)
		return m
	}
	return nil
}

func upper(b []byte) {
	for i := range b {
		b[i] &^= 0x20
	}
}
