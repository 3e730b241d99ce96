package linearlookup

type kv struct {
	k string
	v *int
}

type Object struct{ kvs []kv }

// Get searches the pairs for key, twice: the fast path and the slow one.
func (o *Object) Get(key string) *int {
	for _, kv := range o.kvs {
		if kv.k == key { // want `Get compares key with kv.k for each element of o.kvs in turn until one is equal: a linear search`
			return kv.v
		}
	}
	o.unescape()
	for _, kv := range o.kvs {
		if kv.k == key {
			return kv.v
		}
	}
	return nil
}

func (o *Object) unescape() {}

// Has finds a name in a slice of names, the name on the left.
func Has(names []string, name string) bool {
	for _, n := range names {
		if name == n { // want `Has compares name with n for each element of names in turn`
			return true
		}
	}
	return false
}

// Count reads every element: no search ends early.
func Count(names []string, name string) int {
	c := 0
	for _, n := range names {
		if n == name {
			c++
		}
	}
	return c
}

// A map is an index already.
func Lookup(m map[string]int, name string) int {
	for k, v := range m {
		if k == name {
			return v
		}
	}
	return 0
}

// Compared with a local, not with what the function is given.
func First(names []string) string {
	want := "x"
	for _, n := range names {
		if n == want {
			return n
		}
	}
	return ""
}

type node struct {
	label    byte
	children []*node
}

// A router's children by their first byte: few keys, no index.
func (n *node) child(l byte) *node {
	for _, c := range n.children {
		if c.label == l { // want `child compares l, a byte, with c.label for each element of n.children in turn until one is equal: a search among at most 256 distinct keys`
			return c
		}
	}
	return nil
}
