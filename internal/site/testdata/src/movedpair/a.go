package movedpair

type context struct{ free []int }

type Tree struct {
	cow  *context
	root *int
}

// Clone gives the tree and its copy a context each.
func (t *Tree) Clone() *Tree {
	cow1, cow2 := *t.cow, *t.cow // want `cow1 and cow2 \(context\) are each moved to the heap: their addresses are stored \(t.cow = &cow1, out.cow = &cow2\)`
	out := *t
	t.cow = &cow1
	out.cow = &cow2
	return &out
}

// One local: nothing to put together.
func (t *Tree) Reset() {
	c := context{}
	t.cow = &c
}

// Addresses that stay in the function: nothing moves.
func sum() int {
	a, b := context{}, context{}
	pa, pb := &a, &b
	return len(pa.free) + len(pb.free)
}

// Two types: two allocations of different sizes.
func (t *Tree) Mixed() {
	c, n := context{}, [1]int{}
	t.cow = &c
	t.root = &n[0]
}
