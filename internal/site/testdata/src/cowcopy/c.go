package cowcopy

type ctx struct{ id int }

type node struct {
	items    []int
	children []*node
	cow      *ctx
}

func (c *ctx) newNode() *node {
	return &node{cow: c}
}

func (n *node) mutableFor(cow *ctx) *node {
	if n.cow == cow {
		return n
	}
	out := cow.newNode() // want `mutableFor copies n when it belongs to another copy-on-write owner \(n.cow != cow\): a new node, and items and children copied into slices made at full length and capacity`
	out.items = make([]int, len(n.items), cap(n.items))
	copy(out.items, n.items)
	out.children = make([]*node, len(n.children), cap(n.children))
	copy(out.children, n.children)
	return out
}

// same returns n when the owner matches but copies nothing.
func (n *node) same(cow *ctx) *node {
	if n.cow == cow {
		return n
	}
	return cow.newNode()
}

// clone copies every time: no owner guard.
func (n *node) clone() *node {
	out := &node{}
	out.items = make([]int, len(n.items))
	copy(out.items, n.items)
	return out
}
