package m

import "example.com/dep"

// Fill sets n bits.
func Fill(b *dep.Bits, n uint) {
	for i := uint(0); i < n; i++ {
		b.Set(i)
	}
}
