package linkednode

type element struct {
	value any
	next  *element
}

// List is a singly linked list.
type List struct {
	first, last *element
	size        int
}

// Add appends a value.
func (l *List) Add(v any) {
	e := &element{value: v} // want `&element\{…\} is a node of a linked structure \(element points to its own type\), linked in at l.first`
	if l.size == 0 {
		l.first, l.last = e, e
	} else {
		l.last.next = e
		l.last = e
	}
	l.size++
}

// Prepend links a new first element directly.
func (l *List) Prepend(v any) {
	l.first = &element{value: v, next: l.first} // want `&element\{…\} is a node of a linked structure \(element points to its own type\), linked in at l.first`
}

type entry struct{ k, v int }

// Tree keeps entries that point to nothing of their own type.
type Tree struct{ root *entry }

// Put stores an entry: no link of its own type.
func (t *Tree) Put(k, v int) { t.root = &entry{k, v} }

// Temp makes a node it never links.
func Temp() int {
	e := &element{value: 1}
	return len(e.value.(string))
}
