package maplookuprepeated

type endpoint struct {
	pattern string
	handler func()
}

type node struct {
	endpoints map[int]*endpoint
}

type context struct {
	pattern  string
	patterns []string
}

// find reads the same endpoint three times.
func (n *node) find(c *context, method int) (*node, func()) {
	if n.endpoints[method].pattern != "" {
		c.pattern = n.endpoints[method].pattern // want `n.endpoints\[method\] is looked up 3 times \(lines 19, 20, 23\) with nothing written to the map between`
		c.patterns = append(c.patterns, c.pattern)
	}
	return n, n.endpoints[method].handler
}

// set writes between: a second lookup reads what was written.
func (n *node) set(method int, e *endpoint) string {
	before := n.endpoints[method]
	n.endpoints[method] = e
	_ = before
	return n.endpoints[method].pattern
}

// next changes the key between.
func (n *node) next(method int) (string, string) {
	a := n.endpoints[method].pattern
	method++
	return a, n.endpoints[method].pattern
}

// either reads it on one branch or the other: once per call.
func (n *node) either(method int, ok bool) string {
	if ok {
		return n.endpoints[method].pattern
	}
	return n.endpoints[method].pattern + "!"
}

// counts increments: a write.
func counts(m map[string]int, k string) int {
	m[k]++
	return m[k]
}

// set is a generic map type: set[T] in make and conversions is the type
// instantiated, no lookup.
type set[T comparable] map[T]struct{}

func union[T comparable](a, b *set[T]) *set[T] {
	o := (*set[T])(b)
	u := make(set[T], len(*a)+len(*o))
	for k := range *a {
		u[k] = struct{}{}
	}
	var w set[T]
	w = make(set[T], 1)
	_ = w
	return &u
}
