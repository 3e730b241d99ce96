package stackpush

type mark struct{ line, col int }

type parser struct {
	marks   []mark
	indents []int
	tokens  []string
}

func (p *parser) enter(m mark) {
	p.marks = append(p.marks, m) // want `enter pushes onto p.marks, a stack the package pops at stackpush.go:\d+`
}

func (p *parser) leave() mark {
	m := p.marks[len(p.marks)-1]
	p.marks = p.marks[:len(p.marks)-1]
	return m
}

// A queue reset with [:0] and a slice only appended: not a stack.
func (p *parser) add(t string) { p.tokens = append(p.tokens, t) }

func (p *parser) reset() { p.tokens = p.tokens[:0] }

func (p *parser) indent(n int) { p.indents = append(p.indents, n) }

type scanner struct{ keys []int }

func (s *scanner) up(k int) {
	s.keys = append(s.keys, k) // want `up pushes onto s.keys`
}

func (s *scanner) down() {
	last := len(s.keys) - 1
	s.keys = s.keys[:last]
}

// A table compacted after a filter: appended to, then cut to the entries
// kept; not a stack.
type tracker struct{ entries []int }

func (t *tracker) create(v int) { t.entries = append(t.entries, v) }

func (t *tracker) compact() {
	n := 0
	for _, e := range t.entries {
		if e > 0 {
			t.entries[n] = e
			n++
		}
	}
	t.entries = t.entries[:n]
}

// An output buffer: bytes spread onto it, a trailing newline trimmed;
// not a stack.
type Buffer struct{ bs []byte }

func (b *Buffer) Write(p []byte) (int, error) {
	b.bs = append(b.bs, p...)
	return len(p), nil
}

func (b *Buffer) TrimNewline() {
	if i := len(b.bs) - 1; i >= 0 && b.bs[i] == '\n' {
		b.bs = b.bs[:len(b.bs)-1]
	}
}
