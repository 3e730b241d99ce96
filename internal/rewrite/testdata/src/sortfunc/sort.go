package sortfunc

import (
	"net/netip"
	"sort"
)

// Entry is one row of a listing.
type Entry struct {
	Name string
	Size int64
}

// ByName sorts the entries by name.
func ByName(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name }) // want `sort.Slice sorts es through a swapper made by reflection`
}

// Largest sorts pointers, largest first, then by name.
func Largest(es []*Entry) []*Entry {
	sort.SliceStable(es, func(i, j int) bool { // want `sort.SliceStable sorts es through a swapper made by reflection`
		if es[i].Size != es[j].Size {
			return es[i].Size > es[j].Size
		}
		return es[i].Name < es[j].Name
	})
	return es
}

// Route is a prefix and where it goes.
type Route struct {
	Dest string
	Hops struct{ N int }
}

// ByAddr sorts addresses, a type of another package, by zone.
func ByAddr(as []netip.Addr) {
	sort.Slice(as, func(i, j int) bool { return as[i].BitLen() < as[j].BitLen() })
}

// Table keeps its routes sorted by hop count.
type Table struct {
	routes []Route
}

// Sort sorts the table's routes.
func (t *Table) Sort() {
	sort.Slice(t.routes, func(a, b int) bool { return t.routes[a].Hops.N < t.routes[b].Hops.N }) // want `sort.Slice sorts t.routes through a swapper`
}
