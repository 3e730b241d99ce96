package lockpercallshard

import "sync"

// lockedMap is one of shardedMap's shards.
type lockedMap struct {
	sync.RWMutex
	data map[uint64]int
}

func (m *lockedMap) get(key uint64) int {
	m.RLock() // want `get takes the sync.RWMutex m embeds, once per call`
	defer m.RUnlock()
	return m.data[key]
}

type shardedMap struct {
	shards [256]*lockedMap
}

// Get picks the shard by key.
func (s *shardedMap) Get(key uint64) int { return s.shards[key%256].get(key) }

// cache has one lock for all its keys.
type cache struct {
	mu   sync.Mutex
	data map[string]int
}

func (c *cache) get(k string) int {
	c.mu.Lock() // want `get takes c.mu, a sync.Mutex, once per call`
	defer c.mu.Unlock()
	return c.data[k]
}
