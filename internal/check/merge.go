package check

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// ParseShard reads "i/n" (1 ≤ i ≤ n): the i-th of n shards of a check.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("shard %q is not i/n with 1 ≤ i ≤ n, such as 1/3", s)
	}
	return i, n, nil
}

// InShard reports whether the benchmark key ("pkg BenchmarkX") belongs to
// shard i of n: keys, both sides' benchmarks, are sorted and dealt out in
// turn, so every shard of a check, on any runner, makes the same split and
// the shards differ in size by one benchmark at most.
func InShard(key string, keys []string, i, n int) bool {
	all := slices.Clone(keys)
	slices.Sort(all)
	all = slices.Compact(all)
	at, ok := slices.BinarySearch(all, key)
	return ok && at%n == i-1
}

// Merge joins the shards of one check (each run with -shard i/n) into one
// verdict: every shard's regressions, layout moves, improvements,
// inconclusive rows, failures and notes; the budgets a benchmark of some
// shard matched, and once each budget that none matched; the rows without
// a change added up. The shards must be the n shards of one check: the
// same sides, each i from 1 to n once. An interrupted shard makes the
// whole check interrupted.
func Merge(parts []*document.Check) (*document.Check, error) {
	if len(parts) == 0 {
		return nil, fmt.Errorf("no shard to merge")
	}
	n := 0
	have := map[int]bool{}
	for _, p := range parts {
		if p.Shard == "" {
			return nil, fmt.Errorf("a result of %s against %s is not a shard (run with -shard i/n)", p.Head, p.Base)
		}
		i, pn, err := ParseShard(p.Shard)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			n = pn
		}
		switch {
		case pn != n:
			return nil, fmt.Errorf("shards of %d shards and of %d: merge the shards of one check", n, pn)
		case have[i]:
			return nil, fmt.Errorf("shard %d/%d is given twice", i, n)
		case p.Base != parts[0].Base || p.Head != parts[0].Head:
			return nil, fmt.Errorf("shard %s compares %s against %s, shard %s %s against %s: merge the shards of one check",
				p.Shard, p.Head, p.Base, parts[0].Shard, parts[0].Head, parts[0].Base)
		}
		have[i] = true
	}
	for i := 1; i <= n; i++ {
		if !have[i] {
			return nil, fmt.Errorf("shard %d/%d is missing: merge all %d", i, n, n)
		}
	}
	sorted := slices.Clone(parts)
	slices.SortFunc(sorted, func(a, b *document.Check) int {
		ia, _, _ := ParseShard(a.Shard)
		ib, _, _ := ParseShard(b.Shard)
		return ia - ib
	})
	c := &document.Check{Schema: document.CheckSchema, Base: parts[0].Base, Head: parts[0].Head,
		Regressions: []document.Regression{}, Budgets: []document.BudgetCheck{}}
	var interrupted []string
	matched := map[string]bool{} // budgets some benchmark matched
	for _, p := range sorted {
		for _, b := range p.Budgets {
			if b.Benchmark != "" {
				matched[b.Budget] = true
			}
		}
	}
	unmatched := map[string]bool{}
	var comparisons []string
	for _, p := range sorted {
		c.Regressions = append(c.Regressions, p.Regressions...)
		c.Layout = append(c.Layout, p.Layout...)
		c.Improvements = append(c.Improvements, p.Improvements...)
		c.Inconclusive = append(c.Inconclusive, p.Inconclusive...)
		c.Failures = append(c.Failures, p.Failures...)
		c.Thresholds = append(c.Thresholds, p.Thresholds...)
		for _, b := range p.Budgets {
			if b.Benchmark == "" {
				if matched[b.Budget] || unmatched[b.Budget] {
					continue
				}
				unmatched[b.Budget] = true
			}
			c.Budgets = append(c.Budgets, b)
		}
		for _, note := range p.Notes {
			if !slices.Contains(c.Notes, note) {
				c.Notes = append(c.Notes, note)
			}
		}
		for _, u := range p.Unaltered {
			if !slices.Contains(c.Unaltered, u) {
				c.Unaltered = append(c.Unaltered, u)
			}
		}
		c.Unchanged += p.Unchanged
		c.Rounds = max(c.Rounds, p.Rounds)
		c.WallSeconds = max(c.WallSeconds, p.WallSeconds)
		if p.Verdict == document.CheckInterrupted {
			interrupted = append(interrupted, p.Shard)
		}
		if p.Comparison != "" {
			comparisons = append(comparisons, p.Comparison)
		}
	}
	c.Comparison = strings.Join(comparisons, "\n")
	sort.SliceStable(c.Regressions, func(i, j int) bool { return c.Regressions[i].Delta > c.Regressions[j].Delta })
	slices.Sort(c.Unaltered)
	c.Verdict = verdict(c)
	if len(interrupted) > 0 {
		Interrupt(c, fmt.Sprintf("shard %s was interrupted: its rows hold what it decided before it stopped", strings.Join(interrupted, ", ")))
	}
	return c, nil
}
