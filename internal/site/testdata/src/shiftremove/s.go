package shiftremove

// List is a slice-backed list.
type List struct {
	elements []any
	size     int
}

// Remove shifts the rest left.
func (list *List) Remove(index int) {
	if index < 0 || index >= list.size {
		return
	}
	list.elements[index] = nil
	copy(list.elements[index:], list.elements[index+1:list.size]) // want `Remove shifts every element of list.elements after index one place left: O\(n\) per call`
	list.size--
}

// Insert shifts right: another shape.
func (list *List) Insert(index int, v any) {
	list.elements = append(list.elements, nil)
	copy(list.elements[index+1:], list.elements[index:])
	list.elements[index] = v
}

// CopyFrom copies between two slices.
func CopyFrom(dst, src []byte, i int) {
	copy(dst[i:], src[i+1:])
}

type items []int

// removeAt is the package's own helper: it removes where its caller's
// algorithm needs.
func (s *items) removeAt(index int) int {
	out := (*s)[index]
	copy((*s)[index:], (*s)[index+1:])
	*s = (*s)[:len(*s)-1]
	return out
}
