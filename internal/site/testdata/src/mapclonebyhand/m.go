package mapclonebyhand

type set[T comparable] map[T]struct{}

func newSet[T comparable](n int) *set[T] {
	s := make(set[T], n)
	return &s
}

func (s *set[T]) add(v T) { (*s)[v] = struct{}{} }

// Clone fills a new set through add.
func (s *set[T]) Clone() *set[T] {
	c := newSet[T](len(*s))
	for e := range *s { // want `Clone fills c with every entry of \*s, one insert per entry \(line 16\): each key is hashed and inserted again to make an exact copy`
		c.add(e)
	}
	return c
}

// copyMap copies key and value.
func copyMap(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m { // want `copyMap fills out with every entry of m`
		out[k] = v
	}
	return out
}

// doubled changes the values: work, not a copy.
func doubled(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = 2 * v
	}
	return out
}

// into fills a map it was given.
func into(dst, src map[string]int) {
	for k, v := range src {
		dst[k] = v
	}
}

// union fills one set from two: no copy of either.
func union[T comparable](a, b set[T]) *set[T] {
	u := make(set[T], len(a)+len(b))
	for e := range a {
		u.add(e)
	}
	for e := range b {
		u.add(e)
	}
	return &u
}
