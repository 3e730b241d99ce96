package apitype

// Cache is built by NewCache and used through its methods.
type Cache struct{ m map[string]int } // want `Cache's API: NewCache, \(\*Cache\).Get, \(\*Cache\).Set, \(\*Cache\).Del`

// NewCache makes a Cache.
func NewCache() *Cache { return &Cache{m: map[string]int{}} }

// Get reads k.
func (c *Cache) Get(k string) int { return c.m[k] }

// Set writes k.
func (c *Cache) Set(k string, v int) { c.m[k] = v }

// Del removes k.
func (c *Cache) Del(k string) { delete(c.m, k) }

func (c *Cache) size() int { return len(c.m) }

// Small has too few methods to be an API of its own.
type Small struct{}

// NewSmall makes a Small.
func NewSmall() Small { return Small{} }

// A does nothing.
func (Small) A() {}

// B does nothing.
func (Small) B() {}

// Bare has methods but no constructor.
type Bare struct{}

// A does nothing.
func (Bare) A() {}

// B does nothing.
func (Bare) B() {}

// C does nothing.
func (Bare) C() {}
