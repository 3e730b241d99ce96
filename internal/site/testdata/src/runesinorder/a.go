package runesinorder

// The Levenshtein distance over two []rune copies: r1 is read at every
// index of the inner loop, again and again; r2 only in order, one rune
// per step of the outer loop.
func distance(s, t string) int {
	r1, r2 := []rune(s), []rune(t) // want `r2 is a \[\]rune copy of t that only the loop at lines 9–20 reads, one element per step, in order`
	column := make([]int, len(r1)+1)
	for x := 1; x <= len(r2); x++ {
		column[0] = x
		for y, last := 1, x-1; y <= len(r1); y++ {
			old := column[y]
			cost := 0
			if r1[y-1] != r2[x-1] {
				cost = 1
			}
			column[y] = min(column[y]+1, column[y-1]+1, last+cost)
			last = old
		}
	}
	return column[len(r1)]
}

// Written, read backwards, or handed on: no report.
func reversed(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func backwards(s string) int {
	r := []rune(s)
	n := 0
	for i := len(r) - 1; i >= 0; i-- {
		n += int(r[i])
	}
	return n
}
