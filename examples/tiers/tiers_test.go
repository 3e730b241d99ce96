package tiers_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/perfloop/perfloop/examples/tiers"
)

// events returns n deterministic events: regions and tiers skewed towards
// the first few, latencies log-normal around 2ms, a few invalid events.
func events(n int) []tiers.Event {
	rng := rand.New(rand.NewPCG(3, uint64(n)))
	evs := make([]tiers.Event, n)
	for i := range evs {
		evs[i] = tiers.Event{
			Region:  tiers.Region(min(rng.IntN(8), rng.IntN(8))), // 6 and 7 are invalid
			Tier:    tiers.Tier(min(rng.IntN(4), rng.IntN(4))),
			Latency: time.Duration(math.Exp(rng.NormFloat64()*1.5) * float64(2*time.Millisecond)),
			Bytes:   rng.Int64N(64 << 10),
		}
	}
	return evs
}

func TestAggregatorsAgree(t *testing.T) {
	evs := events(20000)
	m := tiers.NewMapAggregator()
	var d tiers.DenseAggregator
	var count, dropped int64
	for _, e := range evs {
		m.Add(e)
		d.Add(e)
	}
	for r := range tiers.NumRegions + 1 {
		for tr := range tiers.NumTiers + 1 {
			ms, ds := m.Get(r, tr), d.Get(r, tr)
			if ms != ds {
				t.Errorf("%v/%v: map %+v, dense %+v", r, tr, ms, ds)
			}
			count += ds.Count
		}
	}
	for _, e := range evs {
		if e.Region >= tiers.NumRegions || e.Tier >= tiers.NumTiers {
			dropped++
		}
	}
	if dropped == 0 || m.Dropped() != dropped || d.Dropped() != dropped {
		t.Errorf("dropped: map %d, dense %d; want %d > 0", m.Dropped(), d.Dropped(), dropped)
	}
	if count+dropped != int64(len(evs)) {
		t.Errorf("counted %d + dropped %d events; want %d", count, dropped, len(evs))
	}
}

func TestStats(t *testing.T) {
	var d tiers.DenseAggregator
	for _, ms := range []int{1, 2, 6} {
		d.Add(tiers.Event{Region: tiers.EUWest, Tier: tiers.Pro, Latency: time.Duration(ms) * time.Millisecond, Bytes: 100})
	}
	s := d.Get(tiers.EUWest, tiers.Pro)
	if s.Count != 3 || s.Bytes != 300 || s.Max != 6*time.Millisecond || s.Mean() != 3*time.Millisecond {
		t.Errorf("stats = %+v, mean %v", s, s.Mean())
	}
	if s.Buckets[10]+s.Buckets[11]+s.Buckets[13] != 3 {
		t.Errorf("buckets = %v; want one each in 10, 11 and 13", s.Buckets)
	}
	if got := (&tiers.Stats{}).Mean(); got != 0 {
		t.Errorf("empty Mean() = %v", got)
	}
	if got := tiers.EUCentral.String() + "/" + tiers.Enterprise.String(); got != "eu-central/enterprise" {
		t.Errorf("names = %q", got)
	}
}

func TestBucket(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want int
	}{
		{-time.Second, 0},
		{0, 0},
		{999 * time.Nanosecond, 0},
		{time.Microsecond, 1},
		{2 * time.Microsecond, 2},
		{3 * time.Microsecond, 2},
		{time.Millisecond, 10}, // 1000µs < 1024
		{1024 * time.Microsecond, 11},
		{4 * time.Second, 22},
		{5 * time.Second, 23},
		{time.Hour, 23},
		{math.MaxInt64, 23},
	}
	for _, tt := range tests {
		if got := tiers.Bucket(tt.d); got != tt.want {
			t.Errorf("Bucket(%v) = %d; want %d", tt.d, got, tt.want)
		}
	}
}

// The aggregator benchmarks add n events per op to a long-lived aggregator,
// as a server does; only the adding is timed.

func BenchmarkMapAggregator(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			evs := events(n)
			a := tiers.NewMapAggregator()
			b.ReportAllocs()
			for b.Loop() {
				for _, e := range evs {
					a.Add(e)
				}
			}
		})
	}
}

func BenchmarkDenseAggregator(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			evs := events(n)
			var a tiers.DenseAggregator
			b.ReportAllocs()
			for b.Loop() {
				for _, e := range evs {
					a.Add(e)
				}
			}
		})
	}
}

// BenchmarkBucket measures Bucket over a spread of latencies. It is already
// a few instructions with no allocation: there is nothing to gain here.
func BenchmarkBucket(b *testing.B) {
	evs := events(1024)
	lat := make([]time.Duration, len(evs))
	for i, e := range evs {
		lat[i] = e.Latency
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tiers.Bucket(lat[i%len(lat)])
		i++
	}
}
