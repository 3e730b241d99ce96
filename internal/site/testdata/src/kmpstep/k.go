package kmpstep

import "kmpstep/helpers"

var _ = helpers.IndexOfAny1

type cursor struct {
	pos, matched int
	prefix       []int
}

// The landmark search: runes, the module's own search of one rune.
func (c *cursor) findLiteral(input []rune, literal []rune, end int) bool {
	for c.pos < end { // want `findLiteral's Knuth–Morris–Pratt loop \(line 14\) feeds input to the automaton one element per iteration \(c.pos\+\+\), even with no partial match open \(c.matched == 0\), when all it looks for is literal\[0\]`
		r := input[c.pos]
		for c.matched > 0 && r != literal[c.matched] {
			c.matched = c.prefix[c.matched-1]
		}
		if r == literal[c.matched] {
			c.matched++
		}
		c.pos++
		if c.matched == len(literal) {
			return true
		}
	}
	return false
}

// Bytes, the element compared where it is read, the operands swapped.
func index(s []byte, lit []byte, fail []int) int {
	k := 0
	for i := 0; i < len(s); i++ { // want `index's Knuth–Morris–Pratt loop \(line 33\) feeds s to the automaton one element per iteration \(i\+\+\), even with no partial match open \(k == 0\), when all it looks for is lit\[0\]`
		for lit[k] != s[i] && k > 0 {
			k = fail[k-1]
		}
		if s[i] == lit[k] {
			k++
		}
		if k == len(lit) {
			return i - k + 1
		}
	}
	return -1
}

// Building the failure table walks the pattern itself: no input to
// search, the step is not the read's index.
func table(lit []byte) []int {
	t := make([]int, len(lit))
	for i, k := 1, 0; i < len(lit); i++ {
		for k > 0 && lit[i] != lit[k] {
			k = t[k-1]
		}
		if lit[i] == lit[k] {
			k++
		}
		t[i] = k
	}
	return t
}

type tok int

// Elements with no search of one value: no shape.
func tokens(in []tok, lit []tok, fail []int) int {
	k := 0
	for i := 0; i < len(in); i++ {
		for k > 0 && in[i] != lit[k] {
			k = fail[k-1]
		}
		if in[i] == lit[k] {
			k++
		}
	}
	return k
}
