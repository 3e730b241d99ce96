package evictreuse

import "container/list"

type entry struct {
	key   string
	value int
	prev  *entry
	next  *entry
}

type ring struct {
	root entry
	n    int
}

func (r *ring) PushFront(k string, v int) *entry {
	e := &entry{key: k, value: v}
	r.n++
	return e
}

func (r *ring) Len() int { return r.n }

// LRU allocates an entry through its list, then evicts the oldest.
type LRU struct {
	ll    *ring
	items map[string]*entry
	size  int
}

func (c *LRU) removeOldest() {}

func (c *LRU) Add(k string, v int) bool {
	if e, ok := c.items[k]; ok {
		e.value = v
		return false
	}
	ent := c.ll.PushFront(k, v) // want `Add makes a new entry \(c.ll.PushFront\) for each new key, then, when c.ll.Len\(\) > c.size, evicts one \(c.removeOldest, line 42\)`
	c.items[k] = ent
	if c.ll.Len() > c.size {
		c.removeOldest()
	}
	return true
}

// Group is groupcache's shape: container/list and a literal entry.
type Group struct {
	MaxEntries int
	ll         *list.List
	cache      map[string]*list.Element
}

type gentry struct {
	key   string
	value any
}

func (c *Group) RemoveOldest() {}

func (c *Group) Add(key string, value any) {
	ele := c.ll.PushFront(&gentry{key, value}) // want `Add makes a new entry \(c.ll.PushFront\) for each new key, then, when c.MaxEntries != 0 && c.ll.Len\(\) > c.MaxEntries, evicts one \(c.RemoveOldest, line 65\)`
	c.cache[key] = ele
	if c.MaxEntries != 0 && c.ll.Len() > c.MaxEntries {
		c.RemoveOldest()
	}
}

// Bounded evicts first: nothing to say.
func (c *Group) AddReusing(key string, value any) {
	if c.ll.Len() >= c.MaxEntries {
		e := c.ll.Back()
		c.ll.Remove(e)
	}
	c.cache[key] = c.ll.PushFront(&gentry{key, value})
}

// Grow is no cache: no eviction after the insert.
func (c *LRU) Grow(k string, v int) {
	ent := c.ll.PushFront(k, v)
	c.items[k] = ent
	if c.ll.Len() > c.size {
		c.size *= 2
	}
}

// AddExpiring decides in a variable first, as an expirable cache does.
func (c *LRU) AddExpiring(k string, v int) bool {
	ent := c.ll.PushFront(k, v) // want `AddExpiring makes a new entry \(c.ll.PushFront\) for each new key, then, when c.size > 0 && c.ll.Len\(\) > c.size, evicts one`
	c.items[k] = ent
	evict := c.size > 0 && c.ll.Len() > c.size
	if evict {
		c.removeOldest()
	}
	return evict
}
