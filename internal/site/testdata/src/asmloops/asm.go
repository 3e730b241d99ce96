package asmloops

// clearTable zeroes n 16-byte blocks at p, one store per iteration.
func clearTable(p *byte, n int)

// copyWords copies n words: a load and a store per iteration, no clear.
func copyWords(dst, src *uint64, n int)
