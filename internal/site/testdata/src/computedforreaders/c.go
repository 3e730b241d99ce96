package computedforreaders

import (
	"math"
	"sync/atomic"
	"time"
)

type snapshot struct {
	count    int64
	rateMean uint64
	last     int64
}

type Meter struct {
	snapshot snapshot
	start    time.Time
	hits     atomic.Int64
	avg      atomic.Uint64
}

// Mark records n events and publishes the mean rate every time.
func (m *Meter) Mark(n int64) {
	atomic.AddInt64(&m.snapshot.count, n)
	m.update()
}

func (m *Meter) update() {
	rateMean := math.Float64bits(float64(atomic.LoadInt64(&m.snapshot.count)) / time.Since(m.start).Seconds()) // want `update computes rateMean on every call and stores it in m.snapshot.rateMean, which only RateMean read`
	atomic.StoreUint64(&m.snapshot.rateMean, rateMean)
	m.snapshot.last = n() // a plain field others never read: nothing to say
}

func n() int64 { return 1 }

// RateMean reads what update stores.
func (m *Meter) RateMean() float64 {
	return math.Float64frombits(atomic.LoadUint64(&m.snapshot.rateMean))
}

// Hit keeps a typed atomic average for Average.
func (m *Meter) Hit(d time.Duration) {
	h := m.hits.Add(1)
	m.avg.Store(uint64(d.Nanoseconds() / h)) // want `Hit computes uint64\(d.Nanoseconds\(\) / h\) on every call and stores it in m.avg, which only Average read`
}

func (m *Meter) Average() uint64 { return m.avg.Load() }

// Count accumulates: it reads what it stores.
type Counter struct{ total int64 }

func (c *Counter) Add(x int64) { c.total = c.total + x*2 }

func (c *Counter) Total() int64 { return c.total }

// A plain copy is not a computation.
type Holder struct{ v int }

func (h *Holder) Set(v int) { h.v = v }

func (h *Holder) Get() int { return h.v }

// Storage made at the size asked for, which other methods fill: no
// value computed for readers.
type Bloom struct{ bitset []uint64 }

func (bl *Bloom) Size(sz uint64) { bl.bitset = make([]uint64, sz>>6) }

func (bl *Bloom) IsSet(i uint64) bool { return bl.bitset[i>>6]&(1<<(i%64)) != 0 }

// A value the method uses itself before storing it: what it returns
// depends on it, not computed only for the readers.
type bitmapContainer struct {
	cardinality int
	bitmap      []uint64
}

func popcnt(b []uint64) int {
	n := 0
	for _, w := range b {
		for ; w != 0; w &= w - 1 {
			n++
		}
	}
	return n
}

func (bc *bitmapContainer) ixor(other []uint64) bool {
	newCardinality := popcnt(other)
	if newCardinality > 4096 {
		bc.cardinality = newCardinality
		return true
	}
	return false
}

func (bc *bitmapContainer) getCardinality() int { return bc.cardinality }
