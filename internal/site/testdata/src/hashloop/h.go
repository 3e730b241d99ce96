package hashloop

const (
	offset64 = 14695981039346656037
	prime64  = 1099511628211
)

type fnv64a struct{}

// Sum64 is FNV-1a.
func (f fnv64a) Sum64(key string) uint64 {
	var hash uint64 = offset64
	for i := 0; i < len(key); i++ { // want `the loop mixes each byte of key into hash and does nothing else: Sum64's hash, one step per byte`
		hash ^= uint64(key[i])
		hash *= prime64
	}
	return hash
}

// A Java-style string hash over a byte slice's range.
func javaHash(b []byte) uint32 {
	var h uint32
	for _, c := range b { // want `the loop mixes each byte of b into h`
		h = h*31 + uint32(c)
	}
	return h
}

// A loop that also counts: more than a hash.
func hashAndCount(s string) (uint64, int) {
	var h uint64
	n := 0
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		if s[i] == ' ' {
			n++
		}
	}
	return h, n
}

// A sum of a slice of ints: not bytes.
func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}
