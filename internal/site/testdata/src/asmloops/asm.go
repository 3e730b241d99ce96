package asmloops

// clearTable zeroes n 16-byte blocks at p, one store per iteration.
func clearTable(p *byte, n int)

// copyWords copies n words: a load and a store per iteration, no clear.
func copyWords(dst, src *uint64, n int)

// emitLiteral writes a tag byte and copies lit after it: its work is the
// copy of what it is given.
func emitLiteral(dst, lit []byte) int
