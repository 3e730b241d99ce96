package nodechunks

// Node is a node of a document's tree.
type Node struct {
	Kind    int
	Value   string
	Content []*Node
}

type parser struct{ events []string }

func (p *parser) node(kind int, value string) *Node {
	n := &Node{Kind: kind, Value: value} // want `node makes every Node of the tree with an allocation of its own \(&Node\{…\}, 48 bytes, with its Content\)`
	if kind == 0 {
		n.Value = "null"
	}
	return n
}

func (p *parser) parseChild(parent *Node, value string) *Node {
	child := p.node(1, value)
	parent.Content = append(parent.Content, child)
	return child
}

// Elem is a linked tree node with a first child.
type Elem struct {
	Parent, FirstChild, Next *Elem
	Text                     string
}

// NewElem allocates an element.
func NewElem(text string) *Elem {
	return &Elem{Text: text} // want `NewElem makes every Elem of the tree with an allocation of its own \(&Elem\{…\}, 40 bytes, with its FirstChild\)`
}

// list is a list's element: next and prev, no child.
type list struct {
	next, prev *list
	v          int
}

func newList(v int) *list { return &list{v: v} }

type freeList struct{ free []*Node }

// get hands out a recycled node when it has one: two returns.
func (f *freeList) get() *Node {
	if n := len(f.free); n > 0 {
		x := f.free[n-1]
		f.free = f.free[:n-1]
		return x
	}
	return new(Node)
}

// Branch has children given room where it is made.
type Branch struct {
	Kids []*Branch
}

func newBranch() *Branch {
	return &Branch{Kids: make([]*Branch, 0, 4)} // want `newBranch makes every Branch of the tree`
}

func (b *Branch) add(c *Branch) {
	b.Kids = append(b.Kids, c) // room given in newBranch: no report
}

func (b *Branch) addAll(cs []*Branch) {
	b.Kids = append(b.Kids, cs...)
}

func newLeaf() *Node {
	return new(Node) // want `newLeaf makes every Node of the tree with an allocation of its own \(new\(Node\), 48 bytes`
}
