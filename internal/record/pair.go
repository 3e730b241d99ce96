package record

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/store"
)

// PairAlpha is the false discovery rate of a record's paired measurement
// across its benchmarks: every record makes one, so a history of n
// commits has n−1 chances of a false change in some series.
const PairAlpha = 0.01

// Previous is the newest commit of commit's history (in git order) before
// it that has a run of module in the store, or "". A shallow clone is an
// error: the earlier commits are not there to build.
func Previous(ctx context.Context, st *store.Store, module, repo, commit string) (string, error) {
	runs, err := st.Runs(ctx, module)
	if err != nil {
		return "", err
	}
	has := map[string]bool{}
	for _, r := range runs {
		if r.Commit != commit {
			has[r.Commit] = true
		}
	}
	if len(has) == 0 {
		return "", nil
	}
	if git.IsShallow(ctx, repo) {
		return "", fmt.Errorf("%s is a shallow clone: the earlier commits are not there to build (fetch the whole history, as actions/checkout's fetch-depth: 0 does)", repo)
	}
	order, err := git.Ancestry(ctx, repo, commit)
	if err != nil {
		return "", err
	}
	for i := len(order) - 1; i >= 0; i-- {
		if has[order[i]] {
			return order[i], nil
		}
	}
	return "", nil
}

// ShardPattern is a -bench pattern for the top-level benchmarks that a
// shard's results hold, keeping the sub-benchmark part of the user's
// pattern.
func ShardPattern(results []byte, user string) string {
	keys, _ := store.ParseSamples(results)
	seen := map[string]bool{}
	var names []string
	for _, k := range keys {
		top, _, _ := strings.Cut(k.Name, "/")
		if !seen[top] {
			seen[top] = true
			names = append(names, regexp.QuoteMeta(top))
		}
	}
	p := "^(?:" + strings.Join(names, "|") + ")$"
	if _, sub, ok := strings.Cut(user, "/"); ok {
		p += "/" + sub
	}
	return p
}

// Steps turns an A/B run of base against the recorded commit into the
// run's steps: for each compared benchmark and unit with a paired change
// (all values positive), the change, its interval, its test and each
// side's median.
func Steps(res *abtest.Result, base string) []store.Step {
	var steps []store.Step
	for _, t := range res.Tables {
		pkg := ""
		for _, c := range t.Config {
			if v, ok := strings.CutPrefix(c, "pkg: "); ok {
				pkg = v
			}
		}
		for _, row := range t.Rows {
			if len(row.Cells) < 2 || row.Cells[0] == nil || row.Cells[1] == nil || !row.Cells[1].Compared {
				continue
			}
			delta, low, high, sig, ok := res.Interval(pkg, row.FullName, t.Unit)
			if !ok {
				continue
			}
			steps = append(steps, store.Step{Key: store.SeriesKey{Package: pkg, Name: "Benchmark" + row.Benchmark, Procs: row.Procs, Unit: t.Unit},
				Base: base, Delta: delta, Low: low, High: high, P: row.Cells[1].P, Significant: sig,
				Before: row.Cells[0].Summary.Median, After: row.Cells[1].Summary.Median})
		}
	}
	return steps
}
