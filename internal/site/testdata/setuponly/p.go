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

// ID is a value made per use as often as not: no setup.
type ID [4]byte

// NewID makes an ID from random bits.
func NewID() ID { return ID(random()) }

func random() [4]byte { return [4]byte{1, 2, 3, 4} }

// String formats the ID.
func (id ID) String() string { return string(id[:]) }

// Found is what Find makes per use.
type Found struct{ at int }

// Find makes a Found: a method, a use of the Pattern.
func (p *Pattern) Find(s string) *Found { return &Found{at: index(s)} }

func index(s string) int { return len(s) }

// At reads it.
func (f *Found) At() int { return f.at }
