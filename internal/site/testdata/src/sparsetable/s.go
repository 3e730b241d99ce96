package sparsetable

type table struct {
	data    []byte
	closeAt []int
}

// ensure keeps a slot per byte for the brackets' matches.
func (t *table) ensure() {
	n := len(t.data)
	t.closeAt = make([]int, n) // want `ensure makes t.closeAt with a slot for every byte of t.data, fills every slot, but the loop over t.data \(lines 16–27\) sets slots only for some bytes \(line 24, under a test of c\)`
	for i := range t.closeAt {
		t.closeAt[i] = -1
	}
	var stack []int
	for i, c := range t.data {
		switch c {
		case '[':
			stack = append(stack, i)
		case ']':
			if len(stack) == 0 {
				continue
			}
			t.closeAt[stack[len(stack)-1]] = i
			stack = stack[:len(stack)-1]
		}
	}
}

// widths sets a slot for every byte: dense, no shape.
func widths(s string) []int {
	w := make([]int, len(s))
	for i, c := range []byte(s) {
		w[i] = int(c)
	}
	return w
}

// upper sets every slot, whatever the byte: dense.
func upper(s []byte) []byte {
	out := make([]byte, len(s))
	for i, c := range s {
		if c >= 'a' && c <= 'z' {
			out[i] = c - 32
		} else {
			out[i] = c
		}
	}
	return out
}
