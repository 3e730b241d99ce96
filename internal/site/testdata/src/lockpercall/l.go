package lockpercall

import "sync"

type cache struct {
	mu    sync.RWMutex
	items map[string]int
}

// IncrementInt takes the lock once, released on every path.
func (c *cache) IncrementInt(k string, n int) (int, error) {
	c.mu.Lock() // want `IncrementInt takes c.mu, a sync.RWMutex, once per call \(Lock here, released at lines 15, 19\): the lock that makes cache safe for concurrent use`
	v, ok := c.items[k]
	if !ok {
		c.mu.Unlock()
		return 0, nil
	}
	c.items[k] = v + n
	c.mu.Unlock()
	return v + n, nil
}

// Get defers its RUnlock.
func (c *cache) Get(k string) int {
	c.mu.RLock() // want `Get takes c.mu, a sync.RWMutex, once per call \(RLock here, released at lines 26, 27, 28\)`
	defer c.mu.RUnlock()
	return c.items[k]
}

// set.
type set struct {
	sync.Mutex
	m map[int]struct{}
}

// Add locks the Mutex the set embeds.
func (s *set) Add(v int) {
	s.Lock() // want `Add takes the sync.Mutex s embeds, once per call`
	s.m[v] = struct{}{}
	s.Unlock()
}

// AddAll takes the lock per element: not the price of one call.
func (s *set) AddAll(vs []int) {
	for _, v := range vs {
		s.Lock()
		s.m[v] = struct{}{}
		s.Unlock()
	}
}

// Swap takes the lock twice in turn: a shape of its own.
func (s *set) Swap(a, b int) {
	s.Lock()
	delete(s.m, a)
	s.Unlock()
	s.Lock()
	s.m[b] = struct{}{}
	s.Unlock()
}

var global sync.Mutex

// Count locks a package-level lock: not the receiver's.
func (s *set) Count() int {
	global.Lock()
	defer global.Unlock()
	return len(s.m)
}

// Inner hands the lock to a function literal: not this method's call.
func (s *set) Inner() func() {
	return func() {
		s.Lock()
		s.Unlock()
	}
}

// NewSet adds each value through Add, a lock per element.
func NewSet(vals ...int) *set {
	s := &set{m: map[int]struct{}{}}
	for _, v := range vals {
		s.Add(v) // want `NewSet calls s.Add once per iteration of the loop at lines 82–84, and Add takes the sync.Mutex s embeds on every call: a lock round trip per element`
	}
	return s
}

// addToEach locks another set each iteration (fastcache's loadBuckets
// calling buckets[bucketNum].Load): there is no one lock to take around
// the loop.
func addToEach(sets []set, vals []int) {
	for i, v := range vals {
		sets[i].Add(v)
	}
	for _, v := range vals {
		n := v % len(sets)
		sets[n].Add(v)
	}
}
