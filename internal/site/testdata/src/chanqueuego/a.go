package chanqueuego

// The same queue, with the lexer running in its own goroutine: the
// channel crosses goroutines, nothing to say.
type item struct{ val string }

type lexer struct {
	input string
	items chan item
}

func lex(input string) *lexer {
	lx := &lexer{input: input, items: make(chan item, 2)}
	go lx.run()
	return lx
}

func (lx *lexer) run() {
	lx.items <- item{val: lx.input}
	close(lx.items)
}

func (lx *lexer) nextItem() (item, bool) {
	select {
	case it, ok := <-lx.items:
		return it, ok
	default:
		return item{}, false
	}
}
