package chainwalk

// Node is a tree's node.
type Node struct {
	Parent *Node
	Name   string
}

func nodeContains(container, contained *Node) bool {
	for contained = contained.Parent; contained != nil; contained = contained.Parent { // want `nodeContains walks a chain of pointers \(contained = contained.Parent\) from its start on every call, one step per link; sliceContains calls it in a loop, itself run per element \(line 20\); hasNodes calls it in two nested loops \(line 31\)`
		if container == contained {
			return true
		}
	}
	return false
}

func sliceContains(container []*Node, contained *Node) bool {
	for _, n := range container {
		if nodeContains(n, contained) {
			return true
		}
	}
	return false
}

func hasNodes(sel, nodes []*Node) []*Node {
	var out []*Node
	for _, n := range sel {
		for _, c := range nodes {
			if nodeContains(n, c) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

func mapNodes(nodes []*Node, f func(*Node) bool) int {
	k := 0
	for _, n := range nodes {
		if f(n) {
			k++
		}
	}
	return k
}

func findNodes(sel, nodes []*Node) int {
	return mapNodes(nodes, func(n *Node) bool { return sliceContains(sel, n) })
}

func depth(n *Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent { // called once per call, not per pair
		d++
	}
	return d
}

func root(n *Node) *Node {
	r := n
	for p := n; p != nil; p = p.Parent {
		r = p
	}
	return r
}

func roots(ns []*Node) []*Node {
	var out []*Node
	for _, n := range ns {
		out = append(out, root(n)) // one walk per element: linear
	}
	return out
}

var _ = depth

// Tree is a node with children.
type Tree struct {
	FirstChild, NextSibling *Tree
	Text                    string
}

func text(n *Tree, out []string) []string {
	for c := n.FirstChild; c != nil; c = c.NextSibling { // a traversal: each child once
		out = text(c, append(out, c.Text))
	}
	return out
}

func texts(ns []*Tree) (out []string) {
	for _, n := range ns {
		out = text(n, out)
	}
	return out
}
