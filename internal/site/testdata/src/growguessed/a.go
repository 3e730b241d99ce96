package growguessed

import "strings"

type Key []string

func (k Key) String() string {
	var b strings.Builder
	b.Grow(len(k) * 25) // want `b.Grow\(len\(k\) \* 25\) reserves 25 bytes per element of k, whatever their length, and the loop at line 10 writes each element`
	for i, kk := range k {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(kk)
	}
	return b.String()
}

func join(parts []string) []byte {
	buf := make([]byte, 0, 16*len(parts)) // want `make\(\[\]byte, 0, 16\*len\(parts\)\) reserves 16 bytes per element of parts`
	for _, p := range parts {
		buf = append(buf, p...)
		buf = append(buf, ',')
	}
	return buf
}

// Small guesses and exact sizes are not this shape.
func small(parts []string) string {
	var b strings.Builder
	b.Grow(len(parts) * 2)
	for _, p := range parts {
		b.WriteString(p)
	}
	return b.String()
}

// Fixed-size elements: the product is exact.
func ints(xs []int64) []byte {
	buf := make([]byte, 0, len(xs)*8)
	for _, x := range xs {
		buf = append(buf, byte(x))
		_ = append(buf[:0], x8(x)...)
	}
	return buf
}

func x8(x int64) []byte { return nil }

// Fixed-size arrays as elements: exact too.
func arrays(xs [][8]byte) []byte {
	buf := make([]byte, 0, len(xs)*8)
	for _, x := range xs {
		buf = append(buf, x[:]...)
	}
	return buf
}
