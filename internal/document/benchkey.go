package document

import (
	"cmp"
	"strings"
)

// BenchKey names one benchmark across runs, sides and documents: the
// import path of its package and its full name, sub-benchmarks included
// ("BenchmarkParse/size=10"). Two packages may each have a benchmark of
// one name, so the name alone is not a key.
type BenchKey struct {
	Package string
	Name    string
}

// String is "PKG NAME", the form the history store keeps and messages
// print.
func (k BenchKey) String() string { return k.Package + " " + k.Name }

// Compare orders keys by package, then by name, as their String forms
// sort (an import path holds no space, and every byte of one sorts after
// the space).
func (k BenchKey) Compare(o BenchKey) int {
	return cmp.Or(strings.Compare(k.Package, o.Package), strings.Compare(k.Name, o.Name))
}

// ParseBenchKey reads a key's String form; an import path holds no space,
// so the first space ends the package.
func ParseBenchKey(s string) BenchKey {
	pkg, name, _ := strings.Cut(s, " ")
	return BenchKey{Package: pkg, Name: name}
}
