package changepoint

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

// A Cache keeps the outcomes of the permutation tests Detect ran on a
// series, so that Detect on the same series after a change (a commit
// appended or inserted, more samples for a commit) runs again only the
// tests whose samples changed: the windows and splits that the change
// does not reach are answered from the cache. That is what makes
// recomputing the change points of a long series after each commit cheap
// — the permutation tests are nearly all of Detect's work.
//
// A test is keyed by everything its outcome depends on: the samples it
// shuffles, in their order; the splits it maximises over; the observed
// statistic; its level; the number of permutations; and its seeds. So
// Detect with a Cache returns exactly what it returns without one, and a
// cache entry can never be stale, only unused.
//
// After Detect, the cache holds the tests of that call only: what earlier
// calls ran and this one did not need is dropped, so a cache does not grow
// with the history. A Cache serves one Detect call at a time.
type Cache struct {
	entries map[cacheKey]float64
	used    map[cacheKey]float64 // the tests of the current call
	hits    int
	misses  int

	// verify (for tests) runs every test the cache answers as well, and
	// counts the answers that differ in wrong.
	verify bool
	wrong  int
}

type cacheKey [16]byte

// cacheVersion changes when what a test computes changes (the statistic,
// the shuffling, the stopping rule): entries of another version are
// dropped when a cache is read.
const cacheVersion = 1

// NewCache returns an empty cache.
func NewCache() *Cache { return &Cache{entries: map[cacheKey]float64{}} }

// Len returns the number of tests the cache holds.
func (c *Cache) Len() int { return len(c.entries) }

// Stats returns how many tests the last Detect call took from the cache
// and how many it ran.
func (c *Cache) Stats() (hits, misses int) { return c.hits, c.misses }

// begin starts a Detect call.
func (c *Cache) begin() {
	if c.entries == nil {
		c.entries = map[cacheKey]float64{}
	}
	c.used = map[cacheKey]float64{}
	c.hits, c.misses = 0, 0
}

// end keeps the tests of the call that ends.
func (c *Cache) end() {
	c.entries, c.used = c.used, nil
}

// key is the test's key: a hash of the loaded samples (sorted, and their
// ranks in series order), the cuts, the observed statistic, the level,
// the number of permutations and the seeds.
func (e *engine) key(cuts []int, qObs float64, permutations int, level float64, seed1, seed2 uint64) cacheKey {
	h := sha256.New()
	var buf [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	put(cacheVersion)
	put(seed1)
	put(seed2)
	put(uint64(permutations))
	put(math.Float64bits(level))
	put(math.Float64bits(qObs))
	put(uint64(len(cuts)))
	for _, c := range cuts {
		put(uint64(c))
	}
	put(uint64(len(e.sorted)))
	b := make([]byte, 0, 12*len(e.sorted))
	for _, v := range e.sorted {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	for _, r := range e.ranks {
		b = binary.LittleEndian.AppendUint32(b, uint32(r))
	}
	h.Write(b)
	var k cacheKey
	copy(k[:], h.Sum(nil))
	return k
}

// pvalue is the engine's pvalue on the loaded samples, taken from the
// cache when it has the test.
func (d *detector) pvalue(cuts []int, qObs, level float64, seed2 uint64) float64 {
	c := d.opt.Cache
	if c == nil {
		return d.eng.pvalue(cuts, qObs, d.opt.Permutations, level, d.opt.Seed, seed2)
	}
	k := d.eng.key(cuts, qObs, d.opt.Permutations, level, d.opt.Seed, seed2)
	if p, ok := c.used[k]; ok {
		return p
	}
	p, ok := c.entries[k]
	if ok {
		c.hits++
		if c.verify && d.eng.pvalue(cuts, qObs, d.opt.Permutations, level, d.opt.Seed, seed2) != p {
			c.wrong++
		}
	} else {
		c.misses++
		p = d.eng.pvalue(cuts, qObs, d.opt.Permutations, level, d.opt.Seed, seed2)
	}
	c.used[k] = p
	return p
}

// cacheMagic starts an encoded cache.
const cacheMagic = "plcp"

// MarshalBinary encodes the cache: its version, then each test's key and
// p-value, in key order (the same cache encodes to the same bytes).
func (c *Cache) MarshalBinary() ([]byte, error) {
	keys := make([]cacheKey, 0, len(c.entries))
	for k := range c.entries {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b cacheKey) int { return slices.Compare(a[:], b[:]) })
	out := make([]byte, 0, len(cacheMagic)+2*binary.MaxVarintLen64+len(keys)*24)
	out = append(out, cacheMagic...)
	out = binary.AppendUvarint(out, cacheVersion)
	out = binary.AppendUvarint(out, uint64(len(keys)))
	for _, k := range keys {
		out = append(out, k[:]...)
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(c.entries[k]))
	}
	return out, nil
}

// UnmarshalBinary replaces the cache's content with what MarshalBinary
// encoded. A cache of another version decodes as empty: its tests are run
// again.
func (c *Cache) UnmarshalBinary(data []byte) error {
	c.entries = map[cacheKey]float64{}
	rest, ok := cutPrefix(data, cacheMagic)
	if !ok {
		return errors.New("changepoint cache: bad magic")
	}
	version, n := binary.Uvarint(rest)
	if n <= 0 {
		return errors.New("changepoint cache: bad version")
	}
	if version != cacheVersion {
		return nil
	}
	rest = rest[n:]
	count, n := binary.Uvarint(rest)
	if n <= 0 || count > uint64(len(rest))/24 {
		return errors.New("changepoint cache: bad count")
	}
	rest = rest[n:]
	if uint64(len(rest)) != count*24 {
		return fmt.Errorf("changepoint cache: %d bytes of entries, want %d", len(rest), count*24)
	}
	for i := uint64(0); i < count; i++ {
		var k cacheKey
		copy(k[:], rest[:16])
		c.entries[k] = math.Float64frombits(binary.LittleEndian.Uint64(rest[16:24]))
		rest = rest[24:]
	}
	return nil
}

func cutPrefix(b []byte, prefix string) ([]byte, bool) {
	if len(b) < len(prefix) || string(b[:len(prefix)]) != prefix {
		return nil, false
	}
	return b[len(prefix):], true
}
