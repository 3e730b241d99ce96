package paidwhileoff

import "time"

const noEvictionTTL = time.Hour * 24 * 365 * 10

type LRU struct {
	ttl   time.Duration
	items map[int]time.Time
}

func NewLRU(ttl time.Duration) *LRU {
	if ttl <= 0 {
		ttl = noEvictionTTL
	}
	c := &LRU{ttl: ttl, items: map[int]time.Time{}}
	if c.ttl != noEvictionTTL {
		go c.janitor()
	}
	return c
}

func (c *LRU) janitor() {}

func (c *LRU) Add(k int) {
	now := time.Now() // want `Add reads the clock \(time.Now\) on every call, with no test of c.ttl around it, though the package knows when that setting turns its use off \(c.ttl != noEvictionTTL, line 17\)`
	c.items[k] = now.Add(c.ttl)
}

func (c *LRU) Get(k int) bool {
	exp, ok := c.items[k]
	if ok && time.Now().After(exp) { // want `Get reads the clock`
		return false
	}
	return ok
}

// Guarded reads are not this shape.
func (c *LRU) Touch(k int) {
	if c.ttl != noEvictionTTL {
		c.items[k] = time.Now().Add(c.ttl)
	}
}

func (c *LRU) Peek(k int) bool {
	if c.ttl == noEvictionTTL {
		return true
	}
	return time.Now().Before(c.items[k])
}

// A type with no off test on its durations is not this shape.
type Timer struct{ every time.Duration }

func (t *Timer) Tick() time.Time { return time.Now().Add(t.every) }
