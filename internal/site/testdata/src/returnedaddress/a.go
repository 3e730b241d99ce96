package returnedaddress

type Parser struct{ table [256]byte }

type Option func(*Parser)

// New returns the address of its local: the caller gets it.
func New(opts ...Option) *Parser {
	var p Parser // want `p is returned as &p`
	for _, o := range opts {
		o(&p)
	}
	return &p
}

// NewRenderer declares its value in a var block.
func NewRenderer() *Parser {
	var (
		r Parser // want `r is returned as &r`
		n int
	)
	_ = n
	return &r
}

// Copy returns a parameter's address: not a local, no shape.
func Copy(p Parser) *Parser { return &p }

// Value returns the value itself: no shape.
func Value() Parser {
	var p Parser
	return p
}

// Field returns the address of a field: no shape.
func Field() *byte {
	var p Parser
	return &p.table[0]
}

// A constructor returning the address of the value it makes.
type Response struct{ w any }

func NewResponse(w any) *Response {
	return &Response{w: w} // want `NewResponse returns the &Response\{…\} it makes: the caller gets it`
}
