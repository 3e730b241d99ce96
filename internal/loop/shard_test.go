package loop

import (
	"fmt"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
)

func targets(names ...string) []gotest.Target {
	var ts []gotest.Target
	for _, n := range names {
		ts = append(ts, gotest.Target{Name: n, Binary: &gotest.Binary{Package: gotest.Package{ImportPath: "example.com/m"}}})
	}
	return ts
}

// Every benchmark lands in exactly one shard, the shards balance the
// past durations, and the order go list gives does not matter.
func TestShard(t *testing.T) {
	names := []string{"BenchmarkA", "BenchmarkB", "BenchmarkC", "BenchmarkD", "BenchmarkE", "BenchmarkF"}
	d := map[document.BenchKey]time.Duration{}
	for i, n := range names {
		d[document.BenchKey{Package: "example.com/m", Name: n}] = time.Duration(i+1) * time.Second // 1s … 6s: 21s in all
	}
	seen := map[string]int{}
	var loads []time.Duration
	for i := 1; i <= 3; i++ {
		var load time.Duration
		for _, tg := range (Shard{Index: i, Count: 3, Durations: d}).pick(targets(names...)) {
			seen[tg.Name]++
			load += d[Key(tg)]
		}
		loads = append(loads, load)
	}
	for _, n := range names {
		if seen[n] != 1 {
			t.Errorf("%s in %d shards, want 1", n, seen[n])
		}
	}
	for _, l := range loads {
		if l != 7*time.Second {
			t.Errorf("shard loads %v, want 7s each", loads)
			break
		}
	}
	rev := []string{"BenchmarkF", "BenchmarkE", "BenchmarkD", "BenchmarkC", "BenchmarkB", "BenchmarkA"}
	a := fmt.Sprint(names2((Shard{Index: 2, Count: 3, Durations: d}).pick(targets(names...))))
	b := fmt.Sprint(names2((Shard{Index: 2, Count: 3, Durations: d}).pick(targets(rev...))))
	if a != b {
		t.Errorf("shard 2/3 depends on the input order: %s vs %s", a, b)
	}
	// Without durations, counts balance.
	if n := len((Shard{Index: 1, Count: 4}).pick(targets(names...))); n < 1 || n > 2 {
		t.Errorf("shard 1/4 of 6 without durations: %d benchmarks", n)
	}
}

func names2(ts []gotest.Target) map[string]bool {
	m := map[string]bool{}
	for _, t := range ts {
		m[t.Name] = true
	}
	return m
}

func TestParseShard(t *testing.T) {
	for in, ok := range map[string]bool{"1/1": true, "2/4": true, "0/4": false, "5/4": false, "1": false, "a/b": false, "1/0": false} {
		if _, err := ParseShard(in); (err == nil) != ok {
			t.Errorf("ParseShard(%q) error %v, want ok=%v", in, err, ok)
		}
	}
}
