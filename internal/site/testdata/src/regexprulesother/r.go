package regexprulesother

import "github.com/dlclark/regexp2"

// compiledRule is a lexer rule compiled by another engine.
type compiledRule struct {
	re   *regexp2.Regexp
	kind int
}

// matchRules tries each rule's pattern at pos until one matches.
func matchRules(text []rune, pos int, rules []*compiledRule) (int, *compiledRule) {
	for i, rule := range rules {
		m, err := rule.re.FindRunesMatchStartingAt(text, pos) // want `rule.re.FindRunesMatchStartingAt\(text, pos\) runs each candidate's regexp on text in turn \(the loop at lines 13–18 over rules\), until one matches`
		if m != nil && err == nil && m.Index == pos {
			return i, rule
		}
	}
	return 0, nil
}

// String is not a scan.
func names(rules []*compiledRule) []string {
	var out []string
	for _, r := range rules {
		out = append(out, r.re.String())
	}
	return out
}
