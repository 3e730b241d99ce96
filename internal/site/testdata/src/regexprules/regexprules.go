package regexprules

import "regexp"

type rule struct {
	name string
	re   *regexp.Regexp
}

type lexer struct {
	rules []rule
	data  string
	stack []string
}

func (l *lexer) pattern(r rule) *regexp.Regexp { return r.re }

// Next tries every rule on the rest of the input, in order.
func (l *lexer) Next() (string, []int) {
	for _, r := range l.rules {
		if r.name == "return" {
			l.stack = l.stack[:len(l.stack)-1]
			continue
		}
		re := l.pattern(r)
		m := re.FindStringSubmatchIndex(l.data) // want `re.FindStringSubmatchIndex\(l.data\) runs each candidate's regexp on l.data in turn \(the loop at lines 20–30 over l.rules\), until one matches: every input pays for the patterns tried before the one that matches, each given all of l.data`
		if m != nil {
			return r.name, m
		}
	}
	return "", nil
}

// Longest runs them all.
func Longest(rules []rule, s string) int {
	best := 0
	for i := range rules {
		if m := rules[i].re.FindStringIndex(s); m != nil && m[1] > best { // want `rules\[i\].re.FindStringIndex\(s\) runs each candidate's regexp on s in turn \(the loop at lines 37–41 over rules\): every input`
			best = m[1]
		}
	}
	return best
}

// Each matches one regexp against each input: the input changes, not the
// regexp.
func Each(re *regexp.Regexp, inputs []string) int {
	n := 0
	for _, in := range inputs {
		if re.MatchString(in) {
			n++
		}
	}
	return n
}

// Pairs matches each rule against its own input.
func Pairs(rules []rule, inputs []string) int {
	n := 0
	for i, r := range rules {
		if r.re.MatchString(inputs[i]) {
			n++
		}
	}
	return n
}

// Consume moves the input along as it matches: each regexp runs on new
// input.
func (l *lexer) Consume() {
	for _, r := range l.rules {
		if m := r.re.FindStringIndex(l.data); m != nil {
			l.data = l.data[m[1]:]
		}
	}
}
