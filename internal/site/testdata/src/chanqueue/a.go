package chanqueue

type item struct{ val string }

type stateFn func(*lexer) stateFn

type lexer struct {
	input string
	pos   int
	state stateFn
	items chan item
}

func lex(input string) *lexer {
	return &lexer{
		input: input,
		state: lexText,
		items: make(chan item, 10), // want `items, a buffered channel made here, is filled \(one send, at line 34\) and drained with a non-blocking receive \(line 25\)`
	}
}

func (lx *lexer) nextItem() item {
	for {
		select {
		case it := <-lx.items: // want `items, a buffered channel made here`
			return it
		default:
			lx.state = lx.state(lx)
		}
	}
}

func (lx *lexer) emit() {
	lx.items <- item{val: lx.input[:lx.pos]} // want `items, a buffered channel made here`
}

func lexText(lx *lexer) stateFn {
	lx.pos = len(lx.input)
	lx.emit()
	return nil
}
