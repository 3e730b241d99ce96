package makezero

import "testing"

func width(s string) int { return len(s) }

func benchWidth(b *testing.B, start, stop rune) {
	ss := make([]string, stop-start) // want `ss := make\(\[\]string, stop - start\) has length stop - start, and a loop then appends to ss: it holds stop - start zero values before the ones appended`
	for r := start; r < stop; r++ {
		ss = append(ss, string(r))
	}
	n := 0
	for i := 0; i < b.N; i++ {
		for _, s := range ss {
			n += width(s)
		}
	}
}

func BenchmarkWidth(b *testing.B) { benchWidth(b, 0x100, 0x200) }

func BenchmarkCapacity(b *testing.B) {
	ss := make([]string, 0, 16)
	for i := 0; i < 16; i++ {
		ss = append(ss, "x")
	}
	for i := 0; i < b.N; i++ {
		_ = width(ss[0])
	}
}

func BenchmarkIndexed(b *testing.B) {
	ss := make([]string, 16)
	for i := range ss {
		ss[i] = "x"
	}
	for i := 0; i < 4; i++ {
		ss = append(ss, "y")
	}
	for i := 0; i < b.N; i++ {
		_ = width(ss[0])
	}
}
