package appendarena

type Value struct {
	s string
	a []*Value
}

type cache struct{ vs []Value }

// getValue hands out the next value of the cache.
func (c *cache) getValue() *Value {
	if cap(c.vs) > len(c.vs) {
		c.vs = c.vs[:len(c.vs)+1]
	} else {
		c.vs = append(c.vs, Value{}) // want `c.vs grows by append while the function hands out its elements by address`
	}
	return &c.vs[len(c.vs)-1]
}

// Values handed out by value: copying them is the whole cost.
func (c *cache) next() Value {
	c.vs = append(c.vs, Value{})
	return c.vs[len(c.vs)-1]
}

// The address of another slice's element.
func (c *cache) other(xs []Value) *Value {
	c.vs = append(c.vs, Value{})
	return &xs[0]
}
