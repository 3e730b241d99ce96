package mapswept

type Entry struct {
	Key        string
	Bucket     int
	prev, next *Entry
}

type bucket struct {
	entries map[string]*Entry
}

type LRU struct {
	items   map[string]*Entry
	buckets []bucket
	seen    map[string]int
	names   map[string]string
	shared  map[string]*Entry
}

func New() *LRU {
	c := &LRU{items: map[string]*Entry{}, seen: map[string]int{}}
	c.buckets = make([]bucket, 4)
	for i := range c.buckets {
		c.buckets[i] = bucket{entries: make(map[string]*Entry)}
	}
	return c
}

func (c *LRU) Add(key string) {
	if _, ok := c.items[key]; ok {
		return
	}
	e := &Entry{Key: key}
	c.items[key] = e // looked up by key: a real map
	c.addToBucket(e)
	c.seen[key] = len(c.seen)
	c.names[key] = key // never deleted: there to keep one value per key, perhaps
	c.shared[key] = e
}

func (c *LRU) addToBucket(e *Entry) {
	e.Bucket = len(e.Key) % len(c.buckets)
	c.buckets[e.Bucket].entries[e.Key] = e // want `addToBucket stores into and deletes from \(line 48\) c.buckets\[e.Bucket\].entries by key, a map the package reads only by ranging over it \(deleteExpired, line 54\)`
}

func (c *LRU) removeFromBucket(e *Entry) {
	delete(c.buckets[e.Bucket].entries, e.Key)
	delete(c.seen, e.Key)
}

func (c *LRU) deleteExpired(i int) int {
	n := 0
	for range c.buckets[i].entries {
		n++
	}
	for k := range c.seen { // deleted by key, values not nodes: the map is the index
		_ = k
	}
	for k := range c.names { // never deleted: a slice would do
		_ = k
	}
	for k := range c.shared { // handed to a caller: read in ways we cannot see
		_ = k
	}
	return n + len(c.items)
}

func (c *LRU) Shared() map[string]*Entry { return c.shared }
