package childrengrown

// Node is a node of a document's tree.
type Node struct {
	Kind    int
	Content []*Node
}

func node(kind int) *Node {
	n := &Node{Kind: kind}
	return n
}

func parseChild(parent *Node, kind int) *Node {
	child := node(kind)
	parent.Content = append(parent.Content, child) // want `parseChild appends each child to parent.Content, which every Node starts without \(nothing in the package gives Content room\)`
	return child
}

// Branch has children given room where it is made.
type Branch struct {
	Kids []*Branch
}

func newBranch() *Branch {
	return &Branch{Kids: make([]*Branch, 0, 4)}
}

func (b *Branch) add(c *Branch) {
	b.Kids = append(b.Kids, c) // room given in newBranch: no report
}

// Set holds values, not children.
type Set struct {
	vals []*int
}

func (s *Set) add(v *int) {
	s.vals = append(s.vals, v) // not a tree's children
}

// Group holds its members by value.
type Group struct {
	Members []Group
}

func (g *Group) add(m Group) {
	g.Members = append(g.Members, m) // not pointers
}

// GNode is a generic tree node; its children are given room where a node
// is copied.
type GNode[T any] struct {
	items    []T
	children []*GNode[T]
}

func (n *GNode[T]) copyNode() *GNode[T] {
	out := &GNode[T]{}
	out.children = make([]*GNode[T], len(n.children), cap(n.children))
	copy(out.children, n.children)
	return out
}

func (n *GNode[T]) adopt(c *GNode[T]) {
	n.children = append(n.children, c) // room given in copyNode, through another instantiation's field: no report
}
