package sortfunc

import "sort"

// Ints is left to modernize's slicessort (slices.Sort).
func Ints(xs []int) {
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
}

// Point has float coordinates: NaN sorts apart under cmp.Compare.
type Point struct{ X, Y float64 }

// ByX compares floats.
func ByX(ps []Point) {
	sort.Slice(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
}

// Big is too large to pass by value on every comparison.
type Big struct {
	Key  int
	Rest [16]int
}

// ByKey sorts big elements.
func ByKey(bs []Big) {
	sort.Slice(bs, func(i, j int) bool { return bs[i].Key < bs[j].Key })
}

// ByIndex reads the indexes themselves.
func ByIndex(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Size < es[j].Size || i < j })
}

// Other sorts one slice by another's values.
func Other(es []Entry, rank map[string]int) {
	sort.Slice(es, func(i, j int) bool { return rank[es[i].Name] < rank[es[j].Name] })
}

// Named has a named slice type.
type Entries []Entry

// ByNamed sorts a named slice.
func ByNamed(es Entries) {
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
}

// Mixed compares different fields in its tie-break.
func Mixed(es []Entry) {
	sort.Slice(es, func(i, j int) bool {
		if es[i].Size != es[j].Size {
			return es[i].Name < es[j].Name
		}
		return es[i].Name < es[j].Name
	})
}

// sortGeneric sorts a slice of a type parameter: its element's size is
// not known, and no rewrite is offered.
func sortGeneric[E interface{ Less(E) bool }](xs []E) {
	sort.Slice(xs, func(i, j int) bool { return xs[i].Less(xs[j]) })
}
