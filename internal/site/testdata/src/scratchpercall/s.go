package scratchpercall

type symType struct {
	yys  int
	str  string
	node any
	pad  [128]byte
}

type lexer interface{ Lex(*symType) int }

type parser interface{ Parse(lexer) int }

type parserImpl struct {
	lval  symType
	stack [16]symType
}

func (p *parserImpl) Parse(l lexer) int { return l.Lex(&p.lval) }

func newParser() parser {
	return &parserImpl{} // want `newParser makes a parserImpl \(2.8 KiB\) for each call of parse, which calls its methods and drops it: the heap allocates and zeroes it every call`
}

func parse(l lexer) int {
	return newParser().Parse(l)
}

func parseLocal(l lexer) int {
	p := new(parserImpl) // want `parseLocal makes a parserImpl \(2.8 KiB\) on every call, calls its methods and drops it`
	return p.Parse(l)
}

// A small value: no pool pays for itself.
type small struct{ n int }

func (s *small) Parse(l lexer) int { return s.n }

func newSmall() parser { return &small{} }

func parseSmall(l lexer) int { return newSmall().Parse(l) }

// A constructor whose result some caller keeps.
type table struct{ cells [512]int }

func (t *table) Fill() {}

func newTable() *table { return &table{} }

func fill() { newTable().Fill() }

var kept *table

func keep() { kept = newTable() }

// A large value returned to the caller is the caller's.
func build() *parserImpl {
	p := &parserImpl{}
	p.Parse(nil)
	return p
}

//line gen.y:10
func newGenerated() parser {
	return &parserImpl{} // want `newGenerated makes a parserImpl \(2.8 KiB\) for each call of parseGenerated, which calls its methods and drops it: the heap allocates and zeroes it every call \(generated code at s.go:65\)`
}

func parseGenerated(l lexer) int {
	return newGenerated().Parse(l)
}
