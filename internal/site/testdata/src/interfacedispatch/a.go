package interfacedispatch

// Item is a tree's element.
type Item interface{ Less(than Item) bool }

// Int is an Item.
type Int int

// Less compares two Ints.
func (a Int) Less(b Item) bool { return a < b.(Int) }

var itemLess = func(a, b Item) bool {
	return a.Less(b) // want `a.Less\(b\), the function's whole body, calls Less through the Item interface: a dynamic call on every call`
}

// less does more than dispatch: no shape.
func less(a, b Item) bool {
	if a == nil {
		return true
	}
	return a.Less(b)
}

// concrete calls a concrete method: no shape.
func concrete(a, b Int) bool { return a.Less(b) }

// Use keeps the functions used.
func Use() bool { return itemLess(Int(1), Int(2)) && less(Int(1), Int(2)) && concrete(1, 2) }
