package varboxed

type kind interface{ name() string }

type baseKind string

func (k baseKind) name() string { return string(k) }

var (
	kindHash  baseKind = "Hash"
	kindArray baseKind = "Array"
	kindInt   baseKind = "Integer"
	counter   baseKind = "n"
	settable  baseKind = "x"
)

const kindConst baseKind = "Const"

func same(a, b kind) bool { return a.name() == b.name() }

// isTable boxes two vars per call.
func isTable(t kind) bool {
	return same(t, kindHash) || same(t, kindArray) // want `kindHash, a package-level var of baseKind with a constant value that nothing assigns, is converted to the interface kind here`
}

// typeOf returns a var as the interface.
func typeOf(n int) kind {
	if n == 0 {
		return kindInt // want `kindInt, a package-level var of baseKind with a constant value that nothing assigns, is returned as the interface kind`
	}
	return kindConst
}

// A var that is assigned somewhere is a variable.
func set() { settable = "y" }

func useSettable(t kind) bool { return same(t, settable) }

// A var whose address is taken may change.
var p = &counter

func useCounter(t kind) bool { return same(t, counter) }

// Used as its own type: no conversion.
func raw() string { return string(kindHash) }
