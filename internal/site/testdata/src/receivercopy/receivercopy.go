package receivercopy

type context struct {
	cursor, depth int
	err           error
	apply         []func()
}

// Branch starts a lookahead branch: a heap copy of the context.
func (p *context) Branch() *context {
	branch := &context{} // want `Branch returns a new heap copy of all of its receiver \(a context, 56 bytes\) on every call`
	*branch = *p
	branch.apply = nil
	return branch
}

// With copies by value and returns its address.
func (p *context) With(err error) *context {
	c := *p // want `With returns a new heap copy of all of its receiver`
	c.err = err
	return &c
}

// Reset changes the receiver: no copy.
func (p *context) Reset() *context {
	*p = context{}
	return p
}

// Child makes a new context from a field: not a copy of the receiver.
func (p *context) Child() *context {
	c := &context{}
	c.depth = p.depth + 1
	return c
}

// gen is a generic context: its size is not known, and no shape is said.
type gen[E any] struct {
	items []E
	last  E
}

// Branch copies a generic receiver.
func (g *gen[E]) Branch() *gen[E] {
	c := &gen[E]{}
	*c = *g
	return c
}
