package rwexclusive

import "sync"

type Cache struct {
	lock  sync.RWMutex
	items map[int]int
	order []int
}

// Get reorders: it must take the lock exclusively.
func (c *Cache) Get(k int) (int, bool) {
	c.lock.Lock() // want `Get takes c.lock, a sync.RWMutex, exclusively \(Lock\), as Add also does; only Len, Peek take it shared \(RLock\)`
	defer c.lock.Unlock()
	v, ok := c.items[k]
	c.order = append(c.order, k)
	return v, ok
}

func (c *Cache) Add(k, v int) {
	c.lock.Lock() // want `Add takes c.lock, a sync.RWMutex, exclusively`
	c.items[k] = v
	c.lock.Unlock()
}

func (c *Cache) Peek(k int) (int, bool) {
	c.lock.RLock()
	defer c.lock.RUnlock()
	v, ok := c.items[k]
	return v, ok
}

func (c *Cache) Len() int {
	c.lock.RLock()
	defer c.lock.RUnlock()
	return len(c.items)
}

// A plain Mutex: nothing to say.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Only shared locks: nothing to say.
type Table struct {
	mu sync.RWMutex
	m  map[string]int
}

func (t *Table) Get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.m[k]
}

// A generic cache: the field's name, whatever the receiver's type
// parameters.
type GCache[K comparable, V any] struct {
	mu    sync.RWMutex
	items map[K]V
}

func (c *GCache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock() // want `Get takes c.mu, a sync.RWMutex, exclusively \(Lock\); no method takes it shared \(RLock\)`
	defer c.mu.Unlock()
	v, ok := c.items[k]
	return v, ok
}

// A store whose reads share the lock and whose writers take it: the
// RWMutex is doing its job (go-cache's Set and Get).
type Store struct {
	mu    sync.RWMutex
	items map[string]int
}

func (s *Store) Set(k string, v int) {
	s.mu.Lock()
	s.items[k] = v
	s.mu.Unlock()
}

// Load reads a file into the store: a writer, whatever its name.
func (s *Store) Load(data map[string]int) {
	s.mu.Lock()
	for k, v := range data {
		s.items[k] = v
	}
	s.mu.Unlock()
}

func (s *Store) Get(k string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[k]
}
