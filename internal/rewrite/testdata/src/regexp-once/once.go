package once

import (
	"regexp"
	"strconv"
)

var lineRe = regexp.MustCompile(`^(\w+)=(\d+)$`)

// Parse tests a line, then finds its parts.
func Parse(line string) (string, int, bool) {
	if lineRe.MatchString(line) { // want `lineRe runs twice on line: MatchString here, then FindStringSubmatch`
		m := lineRe.FindStringSubmatch(line)
		n, _ := strconv.Atoi(m[2])
		return m[1], n, true
	}
	return "", 0, false
}

// Parser holds its pattern.
type Parser struct {
	re *regexp.Regexp
}

// Fields returns early when the line does not match.
func (p *Parser) Fields(line string) []string {
	if !p.re.MatchString(line) { // want `p.re runs twice on line: MatchString here, then FindAllString`
		return nil
	}
	fields := p.re.FindAllString(line, -1)
	return fields
}

// Index tests bytes, counts, then finds the submatch indexes.
func Index(re *regexp.Regexp, b []byte, counts map[string]int) []int {
	if re.Match(b) { // want `re runs twice on b: Match here, then FindSubmatchIndex`
		counts["match"]++
		loc := re.FindSubmatchIndex(b)
		return loc
	} else {
		counts["miss"]++
	}
	return nil
}
