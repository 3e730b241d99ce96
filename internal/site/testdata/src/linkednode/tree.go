package linkednode

// Node is a tree's node.
type Node interface {
	GetParent() Node
}

// Leaf holds a node's parent and text.
type Leaf struct {
	Parent  Node
	Literal []byte
}

// Text is a node of text.
type Text struct {
	Leaf
}

// GetParent returns the parent.
func (t *Text) GetParent() Node { return t.Parent }

func newTextNode(d []byte) *Text {
	return &Text{Leaf: Leaf{Literal: d}} // want `&Text\{…\} is a node of a tree \(its Parent holds nodes of an interface \*Text implements\), made in newTextNode for every such node`
}

type point struct{ x, y int }

// newPoint makes a value, no node.
func newPoint(x, y int) *point {
	return &point{x, y}
}

// Rule is a node of the tree.
type Rule struct{ Leaf }

// GetParent returns the parent.
func (r *Rule) GetParent() Node { return r.Parent }

func addBlock(n Node) {}

func parseRule(d []byte) {
	addBlock(&Rule{Leaf: Leaf{Literal: d}}) // want `&Rule\{…\} is a node of a tree`
}

// Container holds children.
type Container struct {
	Parent   Node
	Children []Node
}

// GetParent returns the parent.
func (c *Container) GetParent() Node { return c.Parent }

func appendChild(parent *Container, child Node) {
	parent.Children = append(parent.Children, child) // want `parent.Children grows by one node per child appendChild appends`
}
