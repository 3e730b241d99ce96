package history

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/store"
)

// IndexQuery selects a page of a history's series for the dashboard.
type IndexQuery struct {
	// Fingerprint is the machine's key; "" is the newest run's.
	Fingerprint string
	// Search keeps the series whose package, name or unit contains every
	// word of it (case-insensitive).
	Search string
	// Offset and Limit select the page (Limit 0: every series).
	Offset, Limit int
}

// Index is a page of a history's series: the ones that shifted most
// recently first, then the steady ones by name.
type Index struct {
	Fingerprint string
	Commits     int // commits with runs of the machine
	Others      int // runs of other machines
	// Stale counts the machine's runs that the stored change points do
	// not take in yet (saved while, or since, the last update ran): the
	// rows may be behind by those.
	Stale int
	Total int // series that match the search
	Rows  []IndexRow
}

// IndexRow is a series as the dashboard's first page shows it.
type IndexRow struct {
	Key    store.SeriesKey
	Points int
	Last   float64               // the newest point's median
	Change *document.ChangePoint // the newest change point, or nil
	// Medians are the points' medians, oldest first, and At the index
	// of each change point among them: the sparkline.
	Medians []float64
	At      []int
}

// LoadIndex returns a page of module's series, from the state record
// stored (on an older store, read as it is, from the history computed
// whole).
func LoadIndex(ctx context.Context, st *store.Store, module string, q IndexQuery) (*Index, error) {
	runs, err := st.Runs(ctx, module)
	if err != nil {
		return nil, err
	}
	if !st.HasSeries() {
		return indexOf(ctx, st, module, q)
	}
	idx := &Index{Fingerprint: q.Fingerprint, Rows: []IndexRow{}}
	if idx.Fingerprint == "" {
		idx.Fingerprint = newestFingerprint(runs)
	}
	stored, err := st.Order(ctx, module)
	if err != nil {
		return nil, err
	}
	order := chooseOrder(nil, stored, runs)
	inOrder := map[string]bool{}
	for _, c := range order {
		inOrder[c] = true
	}
	commits := map[string]bool{}
	for _, r := range runs {
		switch {
		case r.Series == 0 || !inOrder[r.Commit]:
		case r.FingerprintKey != idx.Fingerprint:
			idx.Others++
		default:
			commits[r.Commit] = true
			if !r.Applied {
				idx.Stale++
			}
		}
	}
	idx.Commits = len(commits)
	list, total, err := st.Series(ctx, store.SeriesFilter{Module: module, Fingerprint: idx.Fingerprint,
		Search: q.Search, Offset: q.Offset, Limit: q.Limit})
	if err != nil {
		return nil, err
	}
	idx.Total = total
	for _, s := range list {
		row := IndexRow{Key: s.Key}
		if s.State != nil {
			cps, at, err := StoredChanges(s.State)
			if err != nil {
				return nil, err
			}
			row.Points, row.Last, row.Medians, row.At = s.State.Points, s.State.Last, s.State.Medians, at
			if n := len(cps); n > 0 {
				row.Change = &cps[n-1]
			}
		}
		idx.Rows = append(idx.Rows, row)
	}
	return idx, nil
}

// newestFingerprint is the fingerprint of the newest run with results.
func newestFingerprint(runs []store.RunInfo) string {
	var newest *store.RunInfo
	for i := range runs {
		r := &runs[i]
		if r.Series == 0 {
			continue
		}
		if newest == nil || cmp.Or(r.Started.Compare(newest.Started), cmp.Compare(r.ID, newest.ID)) > 0 {
			newest = r
		}
	}
	if newest == nil {
		return ""
	}
	return newest.FingerprintKey
}

// indexOf is LoadIndex on a store at an older schema: the whole history
// computed, searched and paged here.
func indexOf(ctx context.Context, st *store.Store, module string, q IndexQuery) (*Index, error) {
	h, err := Load(ctx, st, module, Options{Fingerprint: q.Fingerprint})
	if err != nil {
		return nil, err
	}
	idx := &Index{Fingerprint: h.Fingerprint, Commits: len(h.Commits), Others: h.Others, Rows: []IndexRow{}}
	pos := map[string]int{}
	for i, c := range h.Commits {
		pos[c.Commit] = i
	}
	words := strings.Fields(strings.ToLower(q.Search))
	type ranked struct {
		row    IndexRow
		change int
	}
	var all []ranked
	for _, b := range h.Benchmarks {
		text := strings.ToLower(b.Package + " " + b.Name + " " + b.Unit)
		if slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(text, w) }) {
			continue
		}
		row := IndexRow{Key: store.SeriesKey{Package: b.Package, Name: b.Name, Procs: b.Procs, Unit: b.Unit}, Points: len(b.Points)}
		for _, p := range b.Points {
			row.Medians = append(row.Medians, p.Value)
		}
		if n := len(b.Points); n > 0 {
			row.Last = b.Points[n-1].Value
		}
		change := -1
		for i := range b.ChangePoints {
			c := &b.ChangePoints[i]
			row.At = append(row.At, slices.IndexFunc(b.Points, func(p document.HistoryPoint) bool { return p.Commit == c.Commit }))
			row.Change, change = c, pos[c.Commit]
		}
		all = append(all, ranked{row, change})
	}
	slices.SortStableFunc(all, func(a, b ranked) int { return b.change - a.change })
	idx.Total = len(all)
	end := len(all)
	if q.Limit > 0 {
		end = min(end, q.Offset+q.Limit)
	}
	for _, r := range all[min(max(q.Offset, 0), len(all)):end] {
		idx.Rows = append(idx.Rows, r.row)
	}
	return idx, nil
}

// LoadSeries returns one series of module's history, in the order record
// stored: the history with that benchmark alone (nil Benchmarks when there
// is no such series). Its change points are the stored ones when they are
// current, else computed with the series' cache.
func LoadSeries(ctx context.Context, st *store.Store, module, fingerprint string, key store.SeriesKey) (*document.History, error) {
	h, err := Load(ctx, st, module, Options{Fingerprint: fingerprint,
		Match: func(name string) bool { return name == key.Name },
		Points: func(b *document.HistoryBenchmark) bool {
			return b.Package == key.Package && b.Unit == key.Unit && b.Procs == key.Procs
		}})
	if err != nil {
		return nil, err
	}
	h.Benchmarks = slices.DeleteFunc(h.Benchmarks, func(b document.HistoryBenchmark) bool {
		return b.Package != key.Package || b.Unit != key.Unit || b.Procs != key.Procs
	})
	return h, nil
}
