package sliceregrown

type token struct {
	kind  int
	value string
}

type Lexer struct {
	input string
	pos   int
}

func (l *Lexer) next() (token, bool) {
	if l.pos >= len(l.input) {
		return token{}, false
	}
	l.pos++
	return token{kind: 1, value: l.input[l.pos-1 : l.pos]}, true
}

// tokenize builds its tokens from nothing on every call.
func (l *Lexer) tokenize(s string) []token {
	var tokens []token
	l.input, l.pos = s, 0
	for {
		t, ok := l.next()
		if !ok {
			break
		}
		tokens = append(tokens, t) // want `tokenize returns tokens, which starts with no room on every call and grows by append in the loop at lines 25–31`
	}
	tokens = append(tokens, token{kind: 0}) // want `tokenize returns tokens, which starts with no room on every call and grows by append in the loop at lines 25–31`
	return tokens
}

// fields has no receiver: the caller's slice is the fix.
func fields(s string) []string {
	out := []string{}
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			if i > start {
				out = append(out, s[start:i]) // want `fields returns out, which starts with no room on every call`
			}
			start = i + 1
		}
	}
	return out
}

// squares appends once per element of a known count: presize's shape.
func squares(xs []int) []int {
	var out []int
	for _, x := range xs {
		out = append(out, x*x)
	}
	return out
}

// evens appends under a condition in a range: not known, reported.
func evens(xs []int) []int {
	out := make([]int, 0)
	for _, x := range xs {
		if x%2 == 0 {
			out = append(out, x) // want `evens returns out, which starts with no room`
		}
	}
	return out
}

// kept is not returned.
func kept(xs []int) int {
	var out []int
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return len(out)
}

// sized starts with room.
func sized(xs []int) []int {
	out := make([]int, 0, len(xs))
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}

// reset reassigns the slice: not built from nothing alone.
func reset(xs []int, buf []int) []int {
	var out []int
	out = buf[:0]
	for _, x := range xs {
		if x > 0 {
			out = append(out, x)
		}
	}
	return out
}

type node interface{}

type ifNode struct{ body []node }

type parser struct{ segs []string }

// parseUntil returns the nodes of one body; its callers keep each.
func (p *parser) parseUntil(stop string) ([]node, error) {
	var nodes []node
	for _, s := range p.segs {
		if s == stop {
			break
		}
		if s != "" {
			nodes = append(nodes, len(s)) // want `parseUntil returns nodes, which starts with no room on every call and grows by append in the loop at lines \d+–\d+, whose count is not known before it: each call regrows it from nothing \(about log2\(n\) allocations, each copying what it holds\), and its callers keep each result \(n.body, line \d+\)`
		}
	}
	return nodes, nil
}

func (p *parser) parseIf() *ifNode {
	n := &ifNode{}
	body, err := p.parseUntil("endif")
	if err != nil {
		return nil
	}
	n.body = body
	return n
}

func winnow(nodes []*int, keep bool) []*int {
	var result []*int
	for _, n := range nodes {
		if (*n > 0) == keep {
			result = append(result, n) // want `winnow returns result, which starts with no room on every call and grows by append as the loop at lines \d+–\d+ keeps some of the elements of nodes: about log2\(n\) allocations, each copying what it holds, though it holds at most len\(nodes\)`
		}
	}
	return result
}

type lexer struct{ src string }

type tokParser struct{ tokens []int }

func (l *lexer) tokens() ([]int, error) {
	var toks []int
	for i := range l.src {
		if l.src[i] != ' ' {
			toks = append(toks, i) // want `tokens returns toks, which starts with no room on every call and grows by append in the loop at lines \d+–\d+, whose count is not known before it: each call regrows it from nothing \(about log2\(n\) allocations, each copying what it holds\)$`
		}
	}
	return toks, nil
}

// parse keeps the tokens in its own field until the next parse: working
// state, not a part of what it builds.
func (p *tokParser) parse(l *lexer) {
	toks, _ := l.tokens()
	p.tokens = toks
}

// Automaton is a matcher whose FindAll hands its result to its user.
type Automaton struct{ pat byte }

// FindAll's result belongs to its caller: the advice is a variant that
// appends to the caller's slice, not a slice kept in the receiver.
func (a *Automaton) FindAll(haystack []byte) []int {
	var matches []int
	for i, c := range haystack {
		if c == a.pat {
			matches = append(matches, i) // want `FindAll returns matches, which starts with no room on every call`
		}
	}
	return matches
}
