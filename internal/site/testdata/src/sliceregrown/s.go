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
