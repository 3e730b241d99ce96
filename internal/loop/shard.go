package loop

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
)

// Shard is one of Count parts of a suite's benchmarks, for spreading them
// over CI runners: every benchmark falls in exactly one part, and the
// parts take about as long.
type Shard struct {
	Index, Count int // 1 ≤ Index ≤ Count
	// Durations are past wall times per benchmark (a store's):
	// the parts are balanced on them. Benchmarks without one count as
	// the median of the others (1s when none has one).
	Durations map[document.BenchKey]time.Duration
}

// ParseShard parses "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 1 ≤ i ≤ n, such as 2/4", s)
	}
	return Shard{Index: i, Count: n}, nil
}

// String is "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Key is a target's key in Durations.
func Key(t gotest.Target) document.BenchKey {
	return document.BenchKey{Package: t.Binary.Package.ImportPath, Name: t.Name}
}

// pick returns the targets of the shard. The assignment is the longest
// first greedy one (each benchmark, longest first, to the part with the
// least time so far; ties by name), so every runner computes the same
// parts from the same durations, whatever order go list gave.
func (s Shard) pick(targets []gotest.Target) []gotest.Target {
	if s.Count <= 1 {
		return targets
	}
	var known []time.Duration
	for _, t := range targets {
		if d, ok := s.Durations[Key(t)]; ok && d > 0 {
			known = append(known, d)
		}
	}
	def := time.Second
	if len(known) > 0 {
		slices.Sort(known)
		def = known[len(known)/2]
	}
	cost := func(t gotest.Target) time.Duration {
		if d, ok := s.Durations[Key(t)]; ok && d > 0 {
			return d
		}
		return def
	}
	idx := make([]int, len(targets))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(cost(targets[b]), cost(targets[a])), Key(targets[a]).Compare(Key(targets[b])))
	})
	load := make([]time.Duration, s.Count)
	part := make([]int, len(targets))
	for _, i := range idx {
		p := 0
		for j := range load {
			if load[j] < load[p] {
				p = j
			}
		}
		part[i] = p
		load[p] += cost(targets[i])
	}
	var out []gotest.Target
	for i, t := range targets {
		if part[i] == s.Index-1 {
			out = append(out, t)
		}
	}
	return out
}
