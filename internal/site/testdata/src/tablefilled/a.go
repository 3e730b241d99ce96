package tablefilled

type handler func(p *Parser, data []byte) int

type Parser struct {
	callbacks [256]handler
	flags     int
}

func star(p *Parser, data []byte) int  { return 1 }
func link(p *Parser, data []byte) int  { return 2 }
func code(p *Parser, data []byte) int  { return 3 }
func slash(p *Parser, data []byte) int { return 4 }

// New fills the same table for every parser.
func New(flags int) *Parser {
	var p Parser // want `New fills p.callbacks, a \[256\]handler of 2048 bytes in every value it makes, with 10 constant entries on every call \(lines 19–29, 2 of them under conditions on its options\)`
	p.flags = flags
	p.callbacks['*'] = star
	p.callbacks['_'] = star
	p.callbacks['['] = link
	p.callbacks['`'] = code
	p.callbacks['\\'] = slash
	p.callbacks['!'] = link
	p.callbacks['<'] = link
	p.callbacks['&'] = slash
	if flags&1 != 0 {
		p.callbacks['h'] = link
		p.callbacks['H'] = link
	}
	return &p
}

// A composite literal made here: the same.
func NewLit() *Parser {
	p := &Parser{} // want `NewLit fills p.callbacks`
	p.callbacks['*'] = star
	p.callbacks['_'] = star
	p.callbacks['['] = link // (the shape is at the literal)
	p.callbacks['`'] = code
	p.callbacks['\\'] = slash
	p.callbacks['!'] = link
	p.callbacks['<'] = link
	p.callbacks['&'] = slash
	return p
}

// A few entries are not a table.
func small() *Parser {
	var p Parser
	p.callbacks['*'] = star
	p.callbacks['_'] = star
	return &p
}

// Entries that vary with the input are the function's work.
func fromInput(fs []handler) *Parser {
	var p Parser
	for i := 0; i < 8; i++ {
		p.callbacks[i] = fs[i]
	}
	p.callbacks[8] = fs[8]
	p.callbacks[9] = fs[9]
	p.callbacks[10] = fs[10]
	p.callbacks[11] = fs[11]
	p.callbacks[12] = fs[12]
	p.callbacks[13] = fs[13]
	p.callbacks[14] = fs[14]
	p.callbacks[15] = fs[15]
	return &p
}

// A small array filled with constants is a few stores.
type small8 struct{ b [8]byte }

func newSmall() *small8 {
	var s small8
	s.b[0], s.b[1] = 1, 2
	s.b[2] = 3
	s.b[3] = 4
	s.b[4] = 5
	s.b[5] = 6
	s.b[6] = 7
	s.b[7] = 8
	s.b[0] = 9
	s.b[1] = 9
	return &s
}

// A receiver's table set again is not a value made here.
func (p *Parser) reset() {
	p.callbacks['*'] = star
	p.callbacks['_'] = star
	p.callbacks['['] = link
	p.callbacks['`'] = code
	p.callbacks['\\'] = slash
	p.callbacks['!'] = link
	p.callbacks['<'] = link
	p.callbacks['&'] = slash
}
