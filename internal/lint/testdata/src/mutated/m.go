package mutated

// Diff is one edit.
type Diff struct {
	Op   int
	Text string
}

func splice(s []Diff, at int, d Diff) []Diff {
	s = append(s, Diff{})
	copy(s[at+1:], s[at:])
	s[at] = d
	return s
}

// Cleanup merges edits, inserting into diffs in place.
func Cleanup(diffs []Diff) []Diff {
	for i := 0; i < len(diffs); i++ {
		if diffs[i].Op == 0 {
			diffs = splice(diffs, i, Diff{Op: 1})
			i++
		}
	}
	return diffs
}

// Encode fills dst: an output buffer, written only.
func Encode(dst []byte, src string) {
	for i := 0; i < len(src) && i < len(dst); i++ {
		dst[i] = src[i]
	}
}

// Sum reads xs and writes nothing.
func Sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
