package changepoint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// randomHistory returns a random series: n commits of 1 to 6 samples, a
// few steps of random size, random noise per run and per commit, now
// and then a sample that is NaN or ten times too high.
func randomHistory(rng *rand.Rand, n int) []Point {
	level := 100 + 900*rng.Float64()
	sd, commitSD := 0.005+0.05*rng.Float64(), 0.03*rng.Float64()
	pts := make([]Point, n)
	for i := range pts {
		if rng.IntN(15) == 0 {
			level *= 0.7 + 0.8*rng.Float64()
		}
		lvl := level * (1 + commitSD*rng.NormFloat64())
		v := make([]float64, 1+rng.IntN(6))
		for j := range v {
			v[j] = lvl * (1 + sd*rng.NormFloat64())
			switch rng.IntN(60) {
			case 0:
				v[j] = math.NaN()
			case 1:
				v[j] *= 10
			}
		}
		pts[i] = Point{Label: fmt.Sprintf("c%03d", i), Values: v}
	}
	return pts
}

// TestCacheIncremental builds random histories the way a store receives
// them — commits mostly appended in order, now and then one recorded late
// and inserted between two others, and a commit's samples split in two
// runs that arrive apart (CI shards) — and after every arrival compares
// Detect carrying one Cache from call to call with Detect from scratch:
// the change points must be the same, to the bit. Every test the cache
// answers is also run afresh, and must give the same p-value: a key that
// leaves out something a test depends on would answer it wrongly now
// and then, and change the result only rarely.
func TestCacheIncremental(t *testing.T) {
	histories := 12
	if testing.Short() {
		histories = 4
	}
	for seed := uint64(1); seed <= uint64(histories); seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		all := randomHistory(rng, 10+rng.IntN(40))
		// The order commits arrive in: git order, with a few moved later.
		arrival := make([]int, len(all))
		for i := range arrival {
			arrival[i] = i
		}
		for range len(all) / 10 {
			i := rng.IntN(len(all))
			j := min(len(all)-1, i+1+rng.IntN(8))
			x := arrival[i]
			arrival = slices.Delete(arrival, i, i+1)
			arrival = slices.Insert(arrival, j, x)
		}
		// Short windows give short histories many windows, and
		// windows that an arrival does not reach.
		window := []int{8, 12, 20, 50}[rng.IntN(4)]
		cache := &Cache{verify: true}
		have := map[int][]float64{} // commit → samples arrived so far
		late := map[int][]float64{} // the second shard of a commit, still to come
		current := func() []Point {
			var pts []Point
			for i, p := range all {
				if v, ok := have[i]; ok {
					pts = append(pts, Point{Label: p.Label, Values: v})
				}
			}
			return pts
		}
		step := 0
		for _, i := range arrival {
			v := all[i].Values
			if len(v) > 1 && rng.IntN(4) == 0 {
				k := 1 + rng.IntN(len(v)-1)
				have[i], late[i] = slices.Clone(v[:k]), slices.Clone(v[k:])
			} else {
				have[i] = slices.Clone(v)
			}
			// A late shard arrives now and then.
			for j, rest := range late {
				if rng.IntN(3) == 0 {
					have[j] = append(have[j], rest...)
					delete(late, j)
				}
			}
			pts := current()
			step++
			got := Detect(pts, Options{MinDelta: 0.02, Window: window, Cache: cache})
			want := Detect(pts, Options{MinDelta: 0.02, Window: window})
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("history %d, step %d (%d commits): with the cache %v, from scratch %v", seed, step, len(pts), got, want)
			}
			if cache.wrong > 0 {
				t.Fatalf("history %d, step %d (%d commits): the cache answered %d tests with another p-value than the test gives", seed, step, len(pts), cache.wrong)
			}
		}
	}
}

// TestCacheSavesWork: appending a commit to a long series runs again only
// the tests of the windows the new commit reaches, and the cache then
// holds only the tests of the last call.
func TestCacheSavesWork(t *testing.T) {
	pts := gen(3, levels(201, 1000, map[int]float64{40: 1.3, 90: 0.8}), 5, 0.02, 0.005)
	cache := NewCache()
	Detect(pts[:200], Options{Cache: cache})
	first := cache.Len()
	if hits, misses := cache.Stats(); hits != 0 || misses != first || first == 0 {
		t.Fatalf("first call: %d hits, %d misses, %d tests kept; want 0 hits and every test kept", hits, misses, first)
	}
	got := Detect(pts, Options{Cache: cache})
	hits, misses := cache.Stats()
	t.Logf("200 commits: %d tests; one more commit: %d from the cache, %d run", first, hits, misses)
	if misses == 0 || hits < 3*misses {
		t.Errorf("one commit appended to 200: %d tests from the cache, %d run; want most from the cache", hits, misses)
	}
	if cache.Len() != hits+misses {
		t.Errorf("the cache keeps %d tests, want the %d of the last call", cache.Len(), hits+misses)
	}
	if want := Detect(pts, Options{}); !reflect.DeepEqual(got, want) {
		t.Errorf("with the cache %v, from scratch %v", got, want)
	}
	if idx := indexes(got); !slices.Equal(idx, []int{40, 90}) {
		t.Errorf("changes at %v, want [40 90]", idx)
	}
}

// TestCacheEncoding: a cache survives MarshalBinary and UnmarshalBinary
// (a store keeps it between records); damaged bytes are an error, and a
// cache of another version decodes as empty.
func TestCacheEncoding(t *testing.T) {
	pts := gen(5, levels(60, 1000, map[int]float64{30: 1.2}), 5, 0.02, 0)
	cache := NewCache()
	want := Detect(pts, Options{Cache: cache})
	data, err := cache.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	again, _ := cache.MarshalBinary()
	if !slices.Equal(data, again) {
		t.Error("the same cache encodes to different bytes")
	}
	var read Cache
	if err := read.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if read.Len() != cache.Len() {
		t.Fatalf("decoded %d tests, want %d", read.Len(), cache.Len())
	}
	got := Detect(pts, Options{Cache: &read})
	if hits, misses := read.Stats(); misses != 0 || hits == 0 {
		t.Errorf("the decoded cache answered %d tests and missed %d; want every test answered", hits, misses)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with the decoded cache %v, want %v", got, want)
	}
	for _, bad := range [][]byte{nil, []byte("xxxx"), data[:len(data)-3], append(slices.Clone(data), 0)} {
		if err := new(Cache).UnmarshalBinary(bad); err == nil {
			t.Errorf("UnmarshalBinary(%d bytes of damaged data) = nil, want an error", len(bad))
		}
	}
	other := append([]byte(cacheMagic), 99, 0)
	var c Cache
	if err := c.UnmarshalBinary(other); err != nil || c.Len() != 0 {
		t.Errorf("a cache of another version: %v, %d tests; want no error and an empty cache", err, c.Len())
	}
}
