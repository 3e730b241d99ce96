package smallkeymap

type tokType int

const (
	tEOF tokType = iota
	tDot
	tStar
	tPipe
)

var bindingPowers = map[tokType]int{
	tEOF:  0,
	tDot:  40,
	tStar: 20,
	tPipe: 1,
}

var oneRune = map[rune]tokType{
	'.': tDot,
	'*': tStar,
	'|': tPipe,
}

func power(tok tokType) int {
	return bindingPowers[tok] // want `bindingPowers\[tok\] looks a key up in bindingPowers, a fixed table of 4 entries keyed by tokType constants from 0 to 3`
}

func pipePower() int {
	return bindingPowers[tPipe] // want `bindingPowers\[tPipe\] looks up the constant key tPipe in bindingPowers, a fixed table of 4 entries: the same answer on every call`
}

func lex(r rune) (tokType, bool) {
	t, ok := oneRune[r] // want `oneRune\[r\] looks a key up in oneRune, a fixed table of 3 entries keyed by rune constants from 0 to 124`
	return t, ok
}

// A table written after init is not fixed.
var registry = map[int]string{1: "a"}

func register(k int, name string) { registry[k] = name }

func lookup(k int) string { return registry[k] }

// Keys too large for an array.
var ports = map[int]string{80: "http", 8080: "alt"}

func port(p int) string { return ports[p] }

// String keys: not this shape.
var words = map[string]int{"a": 1}

func word(s string) int { return words[s] }

// A local map is not a package table.
func local(k int) int {
	m := map[int]int{1: 2}
	return m[k]
}
