package coalloc

type writeContext struct{ items map[string]int }

type Tx struct {
	writable bool
	wc       *writeContext
}

func Begin(writable bool) *Tx {
	tx := &Tx{writable: writable}
	if writable {
		tx.wc = &writeContext{} // want `Begin allocates a Tx \(line 11\) and then a writeContext for its field tx.wc: two objects that live and die together, two allocations`
		tx.wc.items = make(map[string]int)
	}
	return tx
}

// A field set from elsewhere: not this shape.
func Attach(tx *Tx, wc *writeContext) { tx.wc = wc }

// One allocation: nothing to say.
func Read() *Tx { return &Tx{} }

// Handler is an interface a field holds: the value stored is not the
// field's pointer type.
type Handler interface{ Serve() }

type router struct{ routes map[string]int }

func (*router) Serve() {}

type Echo struct{ h Handler }

// NewEcho stores a *router in an interface field.
func NewEcho() *Echo {
	e := &Echo{}
	e.h = &router{}
	return e
}
