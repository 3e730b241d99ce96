package rangecopied

type element struct {
	value any
	next  *element
}

// List is a linked list.
type List struct {
	first *element
	size  int
}

// Values copies every element into a new slice.
func (l *List) Values() []any {
	values := make([]any, l.size)
	for i, e := 0, l.first; e != nil; i, e = i+1, e.next {
		values[i] = e.value
	}
	return values
}

// Remove unlinks an element (a stub).
func (l *List) Remove(i int) { l.size-- }

// IndexOf copies the list to find one value.
func (l *List) IndexOf(v any) int {
	for i, e := range l.Values() { // want `IndexOf ranges over l.Values\(\), which makes a new slice of every element \(line 16\) for this one pass over them`
		if e == v {
			return i
		}
	}
	return -1
}

// RemoveAll changes the list while it ranges: the copy is needed.
func (l *List) RemoveAll(v any) {
	for i, e := range l.Values() {
		if e == v {
			l.Remove(i)
		}
	}
}
