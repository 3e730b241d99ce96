package mapbound

type LRU struct {
	items map[string]int
	size  int
}

func NewLRU(size int) *LRU {
	return &LRU{items: make(map[string]int, size), size: size} // want `NewLRU makes the map with room for size entries up front \(make\(map\[string\]int, size\)\): size is a bound`
}

func NewCache(maxEntries int, n int) map[int]bool {
	_ = make(map[int]bool, n)             // an expected size: not this shape
	return make(map[int]bool, maxEntries) // want `NewCache makes the map with room for maxEntries entries`
}

func Index(keys []string, size int) map[string]int {
	m := make(map[string]int, len(keys)) // the count of what it will hold
	_ = make([]int, 0, size)             // a slice: not this shape
	return m
}
