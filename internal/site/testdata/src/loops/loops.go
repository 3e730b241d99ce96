package loops

import (
	"errors"
	"strings"
)

// TrailingZeros divides by ten per trailing zero.
func TrailingZeros(v int64) int64 {
	var zeros int64
	for x := v; x%10 == 0; x /= 10 { // want `the loop at lines 11–13 runs while x%10 == 0, x /= 10 per iteration, counting zeros`
		zeros++
	}
	return zeros
}

// Scan looks at every rune for an exponent and a point.
func Scan(value string) (int, int, error) {
	e, p := -1, -1
	for i, r := range value { // want `the loop at lines 20–31 ranges over every rune of value \(decoding UTF-8\), comparing with 'E', 'e', '.'`
		if r == 'E' || r == 'e' {
			if e > -1 {
				return 0, 0, errors.New("multiple E")
			}
			e = i
			continue
		}
		if r == '.' {
			p = i
		}
	}
	return e, p, nil
}

// Upper calls a function per element and appends.
func Upper(xs []string) []string {
	var out []string
	for _, x := range xs { // want `the loop at lines 38–40 ranges over every element of xs, appending to out, calling strings.ToUpper per iteration`
		out = append(out, strings.ToUpper(x))
	}
	return out
}

// debug is a build tag's switch: false, the branches it guards are
// compiled away.
const debug = false

// Lower calls what it logs only under debug: the loop calls ToLower.
func Lower(xs []string, trace func(string)) []string {
	var out []string
	for _, x := range xs { // want `the loop at lines 51–59 ranges over every element of xs, appending to out, calling strings.ToLower per iteration`
		if debug && len(x) > 0 {
			trace("lower: " + x)
		}
		if debug {
			trace(x)
		}
		out = append(out, strings.ToLower(x))
	}
	return out
}

// Bytes counts newlines; the nested loop is described on its own.
func Bytes(b []byte, m map[string]int) int {
	n := 0
	for _, c := range b { // want `the loop at lines 66–70 ranges over every byte of b, comparing with '\\n', counting n`
		if c == '\n' {
			n++
		}
	}
	for k := range m { // want `the loop at lines 71–76 ranges over every entry of m$`
		for range 3 { // want `the loop at lines 72–74 runs 3 times, counting n`
			n++
		}
		n += len(k)
	}
	return n
}

// Run is a bytecode interpreter's loop: a switch over its ops.
func Run(code []byte) int {
	acc, ip := 0, 0
	for ip < len(code) { // want `the loop at lines 83–119 runs while ip < len\(code\), dispatching on code\[ip\] over 16 cases: its time is the cases the benchmarks' programs run`
		switch code[ip] {
		case 0:
			acc += 0
		case 1:
			acc += 1
		case 2:
			acc += 2
		case 3:
			acc += 3
		case 4:
			acc += 4
		case 5:
			acc += 5
		case 6:
			acc += 6
		case 7:
			acc += 7
		case 8:
			acc += 8
		case 9:
			acc += 9
		case 10:
			acc += 10
		case 11:
			acc += 11
		case 12:
			acc += 12
		case 13:
			acc += 13
		case 14:
			acc += 14
		case 15:
			acc += 15
		}
		ip++
	}
	return acc
}

var noEscape = [256]bool{}

func init() {
	for i := range noEscape { // want `the loop at lines \d+–\d+ ranges over every element of noEscape`
		noEscape[i] = i >= 0x20 && i != '\\' && i != '"'
	}
}

func complexEscape(dst []byte, s string, i int) []byte { return append(dst, s[i:]...) }

// A scan at one table lookup per byte: its floor.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ { // want `a byte-at-a-time scan of s through noEscape, one table lookup and one branch per byte`
		if !noEscape[s[i]] {
			return complexEscape(dst, s, i)
		}
	}
	return append(dst, s...)
}

// More work per byte than the lookup: no floor.
func countEscapes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ { // want `the loop at lines \d+–\d+ runs while i < len\(s\)`
		if !noEscape[s[i]] {
			n++
		}
	}
	return n
}
