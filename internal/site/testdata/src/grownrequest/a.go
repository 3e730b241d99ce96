package grownrequest

const log2WordSize = 6

type BitSet struct {
	length uint
	set    []uint64
}

func wordsNeeded(i uint) int { return int((i + 63) >> log2WordSize) }

func (b *BitSet) extendSet(i uint) {
	nsize := wordsNeeded(i + 1)
	if b.set == nil {
		b.set = make([]uint64, nsize) // want `extendSet grows b.set to the size its argument asks for \(make\(\[\]uint64, nsize\)\): the storage the caller's request needs`
	} else if cap(b.set) >= nsize {
		b.set = b.set[:nsize]
	} else if len(b.set) < nsize {
		newset := make([]uint64, nsize, 2*nsize) // want `extendSet grows b.set to the size its argument asks for`
		copy(newset, b.set)
		b.set = newset
	}
	b.length = i + 1
}

// Tokenizer's Reset makes its buffer anew, copying nothing: not a grow.
type Tokenizer struct{ buf []byte }

func (t *Tokenizer) Reset(size int) {
	t.buf = make([]byte, 0, size)
}

// Grow of a fixed amount: not sized by the argument.
func (b *BitSet) grow(extra bool) {
	newset := make([]uint64, 2*len(b.set))
	copy(newset, b.set)
	b.set = newset
}
