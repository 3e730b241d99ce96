package computedforreaders

// Iter steps through a string; boundaries are computed by Step on every
// Next, though only IsWord and LineBreak read them, and First, of the
// same signature, computes the cluster alone.
type Iter struct {
	remaining, cluster string
	boundaries, state  int
}

func (it *Iter) Next() bool {
	if len(it.remaining) == 0 {
		return false
	}
	it.cluster, it.remaining, it.boundaries, it.state = Step(it.remaining, it.state) // want `Next calls Step\(it.remaining, it.state\) on every call and stores its result it.boundaries, which only IsWord, LineBreak read`
	return true
}

func (it *Iter) Str() string    { return it.cluster }
func (it *Iter) IsWord() bool   { return it.boundaries&1 != 0 }
func (it *Iter) LineBreak() int { return it.boundaries & 6 }

func Step(s string, state int) (cluster, rest string, boundaries, newState int) {
	return s[:1], s[1:], 7, state
}

func First(s string, state int) (cluster, rest string, width, newState int) {
	return s[:1], s[1:], 1, state
}

// Scanner keeps its error for Err: the call's outcome, not extra work.
type Scanner struct {
	tok string
	err error
	src string
}

func (s *Scanner) Scan() bool {
	s.tok, s.err = lex(s.src)
	return s.err == nil
}

func (s *Scanner) Err() error  { return s.err }
func (s *Scanner) Tok() string { return s.tok }

func lex(src string) (string, error)    { return src, nil }
func lexAlt(src string) (string, error) { return src, nil }

// Pair has no function of Split's signature besides it: nothing cheaper
// to name.
type Pair struct{ a, b, extra string }

func (p *Pair) Set(s string)  { p.a, p.extra = Split(s) }
func (p *Pair) Extra() string { return p.extra }
func (p *Pair) A() string     { return p.a }

func Split(s string) (string, string) { return s, s }
