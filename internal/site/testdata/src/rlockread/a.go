package rlockread

import "sync"

type Store struct {
	mu   sync.RWMutex
	vals []string
	m    map[string]int
}

func (s *Store) Get(i int) string {
	s.mu.RLock() // want `s.mu.RLock\(\) guards a read that calls nothing \(s.vals\[i\]\)`
	v := s.vals[i]
	s.mu.RUnlock()
	return v
}

func (s *Store) Count(k string) int {
	s.mu.RLock() // want `s.mu.RLock\(\) guards a read that calls nothing`
	defer s.mu.RUnlock()
	return s.m[k] + len(s.vals)
}

// The lock guards a call: the read is not cheap, no shape.
func (s *Store) Lookup(k string) int {
	s.mu.RLock()
	v := expensive(s.m, k)
	s.mu.RUnlock()
	return v
}

func expensive(m map[string]int, k string) int { return m[k] }

// An exclusive lock is not a read lock.
func (s *Store) Set(i int, v string) {
	s.mu.Lock()
	s.vals[i] = v
	s.mu.Unlock()
}
