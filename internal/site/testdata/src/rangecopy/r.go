package rangecopy

type node struct {
	label    byte
	children [4]nodes
}

type nodes []*node

type record struct {
	name  string
	attrs [16]string
}

// find copies the children array each time it starts the loop.
func (n *node) find(label byte) *node {
	for t, nds := range n.children { // want `the loop ranges over n.children, an array of 96 bytes \(\[4\]nodes\), with a value variable`
		_ = t
		for _, c := range nds {
			if c.label == label {
				return c
			}
		}
	}
	return nil
}

// count ranges over the indexes only: no copy.
func (n *node) count() int {
	c := 0
	for t := range n.children {
		c += len(n.children[t])
	}
	return c
}

// names copies each record.
func names(rs []record) []string {
	var out []string
	for _, r := range rs { // want `the loop copies each element of rs \(a record, 272 bytes\) into r`
		out = append(out, r.name)
	}
	return out
}

// small elements are cheap to copy.
func sum(xs [8]int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

// Each ranges over elements of a type parameter: their size is not known
// until the function is instantiated, and no shape is said.
func Each[E any](xs []E, f func(E)) {
	for _, x := range xs {
		f(x)
	}
}

// holder is generic; its children array has no size yet.
type holder[E any] struct{ children [4]E }

func (h *holder[E]) each(f func(E)) {
	for _, c := range h.children {
		f(c)
	}
}

type rule struct {
	a, b, c, d, e func() int
}

func rules() [4]rule { return [4]rule{} }

func ruleLoop() int {
	n := 0
	for _, r := range rules() { // want `the loop ranges over rules\(\), which returns an array of 160 bytes \(\[4\]rule\) by value: the array is built and copied every time the loop starts`
		if r.a != nil {
			n++
		}
	}
	return n
}
