// Package dep is a dependency with a method just over the inlining budget.
package dep

// Bits is a set of bits.
type Bits struct {
	n    uint
	set  []uint64
	grow int
}

// Set sets bit i, growing the set past its end.
func (b *Bits) Set(i uint) *Bits {
	if i >= b.n {
		nsize := int(i+64) >> 6
		if b.set == nil {
			b.set = make([]uint64, nsize)
		} else if cap(b.set) >= nsize {
			b.set = b.set[:nsize]
		} else if len(b.set) < nsize {
			newset := make([]uint64, nsize, 2*nsize)
			copy(newset, b.set)
			b.set = newset
		}
		b.n = i + 1
		b.grow++
	}
	b.set[i>>6] |= 1 << (i & 63)
	return b
}

// Small is inlined.
func Small(x int) int { return x + 1 }
