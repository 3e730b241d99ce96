package boxedfield

type astNodeType int

const (
	astField astNodeType = iota
	astLiteral
	astIndex
)

type token struct {
	value string
	n     int
}

type ASTNode struct {
	nodeType astNodeType
	value    interface{}
	children []ASTNode
}

func nud(t token, parsed any) ASTNode {
	switch t.n {
	case 0:
		return ASTNode{nodeType: astLiteral, value: parsed} // an interface already: nothing boxed
	case 1:
		return ASTNode{nodeType: astField, value: t.value} // want `nud stores t.value, a string, into ASTNode.value, whose type is interface\{\}: the string \(16 bytes\) is boxed, copied to the heap, at every store; the field holds a string at 2 of its 4 stores in the package \(the others: 1 any, 1 int\)`
	case 2:
		return ASTNode{nodeType: astIndex, value: "const"} // a constant: static data
	}
	return ASTNode{value: nil}
}

func index(n int, s string) ASTNode {
	node := ASTNode{nodeType: astIndex}
	node.value = n // want `index stores n, an int, into ASTNode.value`
	return node
}

// Pointers are not boxed anew.
type holder struct{ v any }

func keep(p *token, m map[string]int) holder {
	h := holder{v: p}
	h.v = m
	return h
}

// Exported field of an exported type: the API's.
type Value struct {
	Data any
}

func make1(s string) Value { return Value{Data: s} }

// An interface with methods holds implementations by design.
type Stringer interface{ String() string }

type named string

func (n named) String() string { return string(n) }

type pair struct{ s Stringer }

func wrap(n named) pair { return pair{s: n} }

// A variant: no type holds most of the boxed stores.

type variant struct{ v any }

func newString(s string) variant { return variant{v: s} } // want `newString stores s, a string, into variant.v`
func newInt(i int64) variant     { return variant{v: i} } // want `newInt stores i, an int64, into variant.v`
func newFloat(f float64) variant { return variant{v: f} } // want `newFloat stores f, a float64, into variant.v`
func newList(l *[]int) variant   { return variant{v: l} }
