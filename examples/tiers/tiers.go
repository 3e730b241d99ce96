// Package tiers aggregates request statistics per region and service tier.
//
// It is one of perfloop's bundled example targets, with two aggregators that
// keep identical statistics at very different costs:
//
//   - [MapAggregator] keys a map[string]*Stats by "region/tier", a string
//     built for every event. The concatenation allocates (the key is stored
//     in the map, so it must live on the heap) and hashing it is most of the
//     remaining time.
//   - [DenseAggregator] uses the small integers that Region and Tier already
//     are to index a fixed array. No allocation, no hashing.
//
// [Bucket], which picks a latency histogram bucket, is already as cheap as it
// gets: a benchmark of it shows what "nothing to gain here" looks like.
package tiers

import (
	"math/bits"
	"time"
)

// Region is a deployment region. Regions are dense small integers.
type Region uint8

// The regions, in the order they index a DenseAggregator.
const (
	USEast Region = iota
	USWest
	EUWest
	EUCentral
	APSouth
	APNortheast
	NumRegions // the number of regions, not a region
)

var regionNames = [NumRegions]string{"us-east", "us-west", "eu-west", "eu-central", "ap-south", "ap-northeast"}

// String returns the region's name, such as "eu-west".
func (r Region) String() string {
	if r >= NumRegions {
		return "region-invalid"
	}
	return regionNames[r]
}

// Tier is a service tier. Tiers are dense small integers.
type Tier uint8

// The tiers, in the order they index a DenseAggregator.
const (
	Free Tier = iota
	Pro
	Team
	Enterprise
	NumTiers // the number of tiers, not a tier
)

var tierNames = [NumTiers]string{"free", "pro", "team", "enterprise"}

// String returns the tier's name, such as "pro".
func (t Tier) String() string {
	if t >= NumTiers {
		return "tier-invalid"
	}
	return tierNames[t]
}

// Event is one served request.
type Event struct {
	Region  Region
	Tier    Tier
	Latency time.Duration
	Bytes   int64 // response size
}

// valid reports whether e names a known region and tier; both aggregators
// count other events as dropped.
func (e Event) valid() bool { return e.Region < NumRegions && e.Tier < NumTiers }

// NumBuckets is the number of latency histogram buckets.
const NumBuckets = 24

// Bucket returns the histogram bucket of a latency: 0 for latencies under
// 1µs, then bucket i holds latencies of [2^(i-1), 2^i) microseconds, and the
// last bucket everything from about 4.2s up.
func Bucket(d time.Duration) int {
	us := d.Microseconds()
	if us <= 0 {
		return 0
	}
	return min(bits.Len64(uint64(us)), NumBuckets-1)
}

// Stats are the statistics of the events of one region and tier.
type Stats struct {
	Count   int64
	Bytes   int64
	Total   time.Duration // sum of latencies
	Max     time.Duration
	Buckets [NumBuckets]int64 // latency histogram, see Bucket
}

func (s *Stats) add(e Event) {
	s.Count++
	s.Bytes += e.Bytes
	s.Total += e.Latency
	s.Max = max(s.Max, e.Latency)
	s.Buckets[Bucket(e.Latency)]++
}

// Mean returns the mean latency, or 0 if there were no events.
func (s *Stats) Mean() time.Duration {
	if s.Count == 0 {
		return 0
	}
	return s.Total / time.Duration(s.Count)
}

// MapAggregator keeps Stats in a map keyed by "region/tier".
// The zero value is not usable; call NewMapAggregator.
type MapAggregator struct {
	stats   map[string]*Stats
	dropped int64
}

// NewMapAggregator returns an empty MapAggregator.
func NewMapAggregator() *MapAggregator {
	return &MapAggregator{stats: make(map[string]*Stats)}
}

// Add records e.
func (a *MapAggregator) Add(e Event) {
	if !e.valid() {
		a.dropped++
		return
	}
	key := e.Region.String() + "/" + e.Tier.String()
	s := a.stats[key]
	if s == nil {
		s = new(Stats)
		a.stats[key] = s
	}
	s.add(e)
}

// Get returns the statistics of region r and tier t.
func (a *MapAggregator) Get(r Region, t Tier) Stats {
	if s := a.stats[r.String()+"/"+t.String()]; s != nil {
		return *s
	}
	return Stats{}
}

// Dropped returns the number of events with an unknown region or tier.
func (a *MapAggregator) Dropped() int64 { return a.dropped }

// DenseAggregator keeps Stats in an array indexed by region and tier.
// The zero value is an empty aggregator.
type DenseAggregator struct {
	stats   [int(NumRegions) * int(NumTiers)]Stats
	dropped int64
}

// Add records e.
func (a *DenseAggregator) Add(e Event) {
	if !e.valid() {
		a.dropped++
		return
	}
	a.stats[int(e.Region)*int(NumTiers)+int(e.Tier)].add(e)
}

// Get returns the statistics of region r and tier t.
func (a *DenseAggregator) Get(r Region, t Tier) Stats {
	if !(Event{Region: r, Tier: t}).valid() {
		return Stats{}
	}
	return a.stats[int(r)*int(NumTiers)+int(t)]
}

// Dropped returns the number of events with an unknown region or tier.
func (a *DenseAggregator) Dropped() int64 { return a.dropped }
