package lockshard

import (
	"sync"
	"sync/atomic"
)

// lockedMap is one shard: its own lock, embedded.
type lockedMap[V any] struct {
	sync.RWMutex
	data map[uint64]V
}

func (m *lockedMap[V]) get(key uint64) (V, bool) {
	m.RLock() // want `m.RLock\(\) locks one lockedMap, one of the shards shardedMap.shards holds`
	v, ok := m.data[key]
	m.RUnlock()
	return v, ok
}

func (m *lockedMap[V]) set(key uint64, v V) {
	m.Lock() // want `m.Lock\(\) locks one lockedMap, one of the shards shardedMap.shards holds`
	defer m.Unlock()
	m.data[key] = v
}

type shardedMap[V any] struct {
	shards []*lockedMap[V]
}

// Get picks the shard by key.
func (s *shardedMap[V]) Get(key uint64) (V, bool) {
	return s.shards[key%uint64(len(s.shards))].get(key)
}

// bucket holds its lock in a named field, and buckets are an array.
type bucket struct {
	mu    sync.Mutex
	count int
	stats struct{ hits int64 }
}

type counter struct {
	buckets [16]bucket
}

func (c *counter) add(i int) {
	b := &c.buckets[i%16]
	b.mu.Lock() // want `b.mu.Lock\(\) locks one bucket, one of the shards counter.buckets holds`
	b.count++
	b.mu.Unlock()
	atomic.AddInt64(&b.stats.hits, 1) // want `atomic.AddInt64\(&b.stats.hits, 1\) updates a counter of one bucket, one of the shards counter.buckets holds`
}

// cache has one lock for everything: no shard.
type cache struct {
	mu   sync.Mutex
	data map[string]int
}

func (c *cache) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.data[k]
}

// entries are values without a lock: a slice of them makes no shard.
type entry struct{ v int }

type list struct {
	mu    sync.Mutex
	items []entry
}

func (l *list) add(v int) {
	l.mu.Lock()
	l.items = append(l.items, entry{v})
	l.mu.Unlock()
}

// part is held by the dozen in whole's parts, and whole by Public as a
// field of its own: its lock is the whole's, not a shard's.
type part struct {
	mu sync.Mutex
	n  int
}

type whole struct {
	parts []*part
}

// Public uses one part as the whole.
type Public struct {
	*part
}

func (p *part) inc() {
	p.mu.Lock()
	p.n++
	p.mu.Unlock()
}
