package mapremade

type state struct{ merge int }

type Table struct {
	last  map[int]int
	index map[string]int
}

func (t *Table) appendRow(cells []state) {
	t.last = make(map[int]int) // want `appendRow replaces t.last with a new map and fills it on every call`
	for i, c := range cells {
		t.last[i] = c.merge
	}
}

// Reset makes it once: not this shape.
func (t *Table) Reset() {
	t.index = make(map[string]int)
	t.index["x"] = 1
}

// Made but not filled here.
func (t *Table) drop() { t.last = make(map[int]int) }
