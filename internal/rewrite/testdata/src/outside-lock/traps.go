package lock

import (
	"crypto/sha256"
	"strings"
	"sync"
)

// Shared reads the locked state.
func (s *Store) Shared(name string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.names) + len(name)
	return n
}

// Early may return before the hash: moved, it would hash on that path too.
func (s *Store) Early(payload []byte) [32]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blobs == nil {
		return [32]byte{}
	}
	sum := sha256.Sum256(payload)
	s.blobs[sum] = payload
	return sum
}

// Written changes the payload under the lock before hashing it.
func (s *Store) Written(payload []byte) [32]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	payload[0] = 0
	sum := sha256.Sum256(payload)
	return sum
}

// Local hashes a slice of the locked state held in a local.
func (s *Store) Local(k [32]byte) [32]byte {
	data := s.blobs[k]
	s.mu.Lock()
	defer s.mu.Unlock()
	sum := sha256.Sum256(data)
	return sum
}

// Goroutine shares the name with a goroutine.
func (s *Store) Goroutine(name string) {
	go func() { name = "" }()
	s.mu.Lock()
	key := strings.ToLower(name)
	s.names[key]++
	s.mu.Unlock()
}

// After computes after the unlock already.
func (s *Store) After(name string) string {
	s.mu.Lock()
	s.names[name]++
	s.mu.Unlock()
	key := strings.ToLower(name)
	return key
}

// Shadow: the moved key would hide the parameter the map index reads.
func (s *Store) Shadow(key string, n int) {
	s.mu.Lock()
	s.names[key]++
	{
		key := strings.ToUpper(key)
		s.names[key] = n
	}
	s.mu.Unlock()
}

// Global is locked by another mutex type: not sync's.
type Global struct{ mu fakeMutex }

type fakeMutex struct{}

func (fakeMutex) Lock()   {}
func (fakeMutex) Unlock() {}

// Fake hashes under a lock that is not one.
func (g *Global) Fake(p []byte) [32]byte {
	g.mu.Lock()
	sum := sha256.Sum256(p)
	g.mu.Unlock()
	return sum
}

var (
	mu     sync.Mutex
	prefix = "x-"
)

// Declared reads a package variable, then a local declared after the
// lock.
func Declared(name string) string {
	mu.Lock()
	lower := strings.ToLower(prefix + name)
	upper := strings.ToUpper(lower)
	mu.Unlock()
	return upper
}
