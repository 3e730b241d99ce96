package subslicekept

// pairs keeps a slice of flat per match while flat grows.
func pairs(n int, next func() (int, int, bool)) [][]int {
	var out [][]int
	var flat []int
	for {
		s, e, ok := next()
		if !ok {
			break
		}
		flat = append(flat, s, e)
		out = append(out, flat[len(flat)-2:len(flat):len(flat)]) // want `out keeps slices of flat, which the same loop grows by append \(line 12\)`
	}
	return out
}

// words slices the input it was given, which does not grow: no shape.
func words(s []byte) [][]byte {
	var out [][]byte
	for i := 0; i+2 <= len(s); i += 2 {
		out = append(out, s[i:i+2])
	}
	return out
}

// once slices flat after the loop: the fix, no shape.
func once(n int) [][]int {
	var flat []int
	for i := range n {
		flat = append(flat, i, i+1)
	}
	out := make([][]int, len(flat)/2)
	for i := range out {
		out[i] = flat[2*i : 2*i+2 : 2*i+2]
	}
	return out
}
