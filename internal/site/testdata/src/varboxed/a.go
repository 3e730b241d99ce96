package varboxed

import "io"

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

type levelWriter interface{ Write(p []byte) (int, error) }

type adapter struct{ w io.Writer }

func (a adapter) Write(p []byte) (int, error) { return a.w.Write(p) }

type event struct{ w levelWriter }

func newEvent(w levelWriter) *event { return &event{w: w} }

// appendObject converts the same adapter on every call.
func appendObject() *event {
	return newEvent(adapter{io.Discard}) // want `adapter{io.Discard} is the same value on every call, and converting it to the interface levelWriter here copies it`
}

type pair struct{ a, b int }

// constants convert from static data: no shape.
func constPair() any {
	var x any
	x = pair{1, 2}
	return x
}

type wrap struct{ p *int }

var one = new(int)

// pointer-shaped: no allocation to save.
func pointerShaped() any {
	var x any
	x = wrap{one}
	return x
}

// perCall varies: no shape.
func perCall(w io.Writer) *event {
	return newEvent(adapter{w})
}
