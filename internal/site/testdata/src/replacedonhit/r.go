package replacedonhit

// Entry is a key and its value.
type Entry struct {
	Key   int
	Value any
}

// Node holds sorted entries.
type Node struct{ Entries []*Entry }

// Tree is a one-node tree.
type Tree struct {
	Root *Node
	size int
}

func (t *Tree) search(n *Node, k int) (int, bool) {
	for i, e := range n.Entries {
		if e.Key >= k {
			return i, e.Key == k
		}
	}
	return len(n.Entries), false
}

// Put makes the entry first.
func (t *Tree) Put(k int, v any) {
	entry := &Entry{Key: k, Value: v} // want `Put makes a new Entry before it knows whether the key is there; insertIntoLeaf, when it is, stores it over the one in its slot \(line 40\)`
	if t.insert(t.Root, entry) {
		t.size++
	}
}

func (t *Tree) insert(n *Node, e *Entry) bool { return t.insertIntoLeaf(n, e) }

func (t *Tree) insertIntoLeaf(n *Node, e *Entry) bool {
	i, found := t.search(n, e.Key)
	if found {
		n.Entries[i] = e
		return false
	}
	n.Entries = append(n.Entries, nil)
	copy(n.Entries[i+1:], n.Entries[i:])
	n.Entries[i] = e
	return true
}

// Add makes its entry only to insert it.
func (t *Tree) Add(k int, v any) {
	e := &Entry{Key: k, Value: v}
	t.Root.Entries = append(t.Root.Entries, e)
}
