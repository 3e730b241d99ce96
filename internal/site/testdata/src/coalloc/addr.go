package coalloc

type bound struct{ min, max [2]float64 }

type visitor struct {
	k            int
	closestBound *bound
}

type tree struct{ bound bound }

// Nearest points the visitor it allocates at a local copy of the bound.
func (t *tree) Nearest(k int) int {
	b := t.bound // want `Nearest points the field closestBound of the visitor it allocates at b, a local bound: b moves to the heap for it`
	v := &visitor{k: k, closestBound: &b}
	return v.k + int(v.closestBound.max[0])
}

// Given points at what it is given: not a local of its own.
func Given(b *bound, k int) *visitor {
	return &visitor{k: k, closestBound: b}
}
