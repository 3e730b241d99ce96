package setuponly

// Pattern is a compiled pattern.
type Pattern struct{ m matcher }

type matcher interface{ Match(s string) bool }

type text struct{ s string }

func (t *text) Match(s string) bool { return s == t.s }

// Compile lexes and parses: its helpers run only here.
func Compile(p string) *Pattern {
	return &Pattern{m: parse(lex(p))}
}

func lex(p string) []string { return []string{p} }

func parse(tokens []string) matcher { return &text{s: trim(tokens[0])} }

// trim is called by Match too: a use's cost as well.
func trim(s string) string { return s }

// Match matches s.
func (p *Pattern) Match(s string) bool { return p.m.Match(trim(s)) }
