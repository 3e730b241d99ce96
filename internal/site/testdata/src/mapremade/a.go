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

// A pooled request context: Set makes Keys lazily, and reset drops it for
// every request, so every request that sets a key makes a new map.
type Context struct {
	Keys map[any]any
	n    int
}

func (c *Context) reset() {
	c.n = 0
	c.Keys = nil
}

func (c *Context) Set(k, v any) {
	if c.Keys == nil {
		c.Keys = make(map[any]any) // want `Set makes c.Keys when it is nil, and reset sets it to nil \(line \d+\) each time the receiver is made ready again`
	}
	c.Keys[k] = v
}

// Made lazily and never dropped: once per receiver, no report.
type Cache struct{ m map[string]int }

func (c *Cache) Put(k string, v int) {
	if c.m == nil {
		c.m = make(map[string]int)
	}
	c.m[k] = v
}
