package lock

import (
	"crypto/sha256"
	"strconv"
	"strings"
	"sync"
)

// Store keeps blobs by their hash.
type Store struct {
	mu    sync.Mutex
	blobs map[[32]byte][]byte
	names map[string]int
}

// Put hashes the payload while holding the lock.
func (s *Store) Put(payload []byte) [32]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := sha256.Sum256(payload) // want `sum := sha256.Sum256\(payload\) is computed while s.mu is held`
	s.blobs[sum] = payload
	return sum
}

// Name normalises a name under the lock, then counts it.
func (s *Store) Name(name string, n int) {
	s.mu.Lock()
	key := strings.ToLower(strings.TrimSpace(name)) + ":" + strconv.Itoa(n) // want `key := .* is computed while s.mu is held`
	s.names[key]++
	s.mu.Unlock()
}

// Cache is read-mostly.
type Cache struct {
	mu sync.RWMutex
	m  map[string]string
}

// Get looks a normalised key up under the read lock.
func (c *Cache) Get(k string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	var key = strings.ToLower(k) // want `var key = strings.ToLower\(k\) is computed while c.mu is held`
	return c.m[key]
}
