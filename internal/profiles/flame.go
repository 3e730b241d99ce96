package profiles

import (
	"cmp"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// FlameNode is a node of a CPU profile's call tree, as a flame graph draws
// it: one function called along one path from the root.
type FlameNode struct {
	// Name is the function's full name ("example.com/m.(*T).Find"); the
	// root's is "root".
	Name string
	// Value is the value of the samples whose stack runs through this
	// node (its cum along this path); Self of those that end here.
	Value, Self int64
	// Children are the functions this one called, largest Value first
	// (then by name, so the tree is deterministic).
	Children []*FlameNode
}

// Flame aggregates a CPU profile's samples into a call tree by function:
// the root holds every sample, each child a function called from its
// parent's frame. Inlined frames are frames of their own (each entry of a
// Location's Line list, Line[0] innermost), as in pprof's flame graph, and
// recursion stays nested. Values are the profile's default sample value
// (cpu nanoseconds for runtime/pprof profiles).
func Flame(p *profile.Profile) *FlameNode {
	root := &FlameNode{Name: "root"}
	vi, err := cpuIndex(p)
	if err != nil {
		return root
	}
	ix := newIndex(p, Options{})
	// Children are found through a map per node while the tree grows,
	// then sorted into slices.
	type key struct {
		parent *FlameNode
		fn     int32
	}
	child := make(map[key]*FlameNode)
	var buf []frame
	for _, s := range p.Sample {
		if vi >= len(s.Value) {
			continue
		}
		v := s.Value[vi]
		if v == 0 {
			continue
		}
		buf = ix.stack(buf, s)
		n := root
		n.Value += v
		for i := len(buf) - 1; i >= 0; i-- {
			k := key{n, buf[i].fn}
			c := child[k]
			if c == nil {
				c = &FlameNode{Name: ix.funcs[buf[i].fn].name}
				child[k] = c
				n.Children = append(n.Children, c)
			}
			c.Value += v
			n = c
		}
		n.Self += v
	}
	root.sort()
	return root
}

func (n *FlameNode) sort() {
	slices.SortFunc(n.Children, func(a, b *FlameNode) int {
		return cmp.Or(cmp.Compare(b.Value, a.Value), strings.Compare(a.Name, b.Name))
	})
	for _, c := range n.Children {
		c.sort()
	}
}

// Depth returns the number of levels of the tree below and including n.
func (n *FlameNode) Depth() int {
	d := 0
	for _, c := range n.Children {
		d = max(d, c.Depth())
	}
	return d + 1
}
