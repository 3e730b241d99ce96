// Package history turns the runs a store holds into every benchmark's
// series over commits, and finds where each series shifted.
//
// This package is opinionated:
//
//   - A series belongs to one machine: points are compared only within one
//     fingerprint (CPU model, GOMAXPROCS, Go version, OS, kernel, build
//     settings that change the code). A history on a mixed fleet shows
//     the fingerprint with the newest run unless asked for another; the
//     runs of the others are counted, never mixed in. A run without
//     results is no point and no machine.
//   - Commits are in git order (the caller passes the order, oldest first;
//     without it, commit time), not in the order runs were recorded: a CI
//     job that records an old commit late does not move it.
//   - A point is every sample of a commit: the -count values of all its
//     runs (several CI jobs, or the shards of one), pooled. The change
//     points are found on the samples (internal/changepoint), so a commit
//     measured five times weighs five samples, and one noisy commit is not
//     a shift.
package history

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/changepoint"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
	"github.com/perfloop/perfloop/internal/store"
)

// Options select and tune a history.
type Options struct {
	// Order lists commits oldest first (git rev-list --reverse); runs of
	// other commits are left out. Nil orders runs by commit time.
	Order []string
	// Fingerprint is the key of the machine to show; "" is the newest
	// run's among the runs with results.
	Fingerprint string
	// Match, if set, keeps only the benchmarks whose full name
	// ("BenchmarkEncode/size=1k") it accepts.
	Match func(name string) bool
	// MinDelta ignores shifts smaller than this relative change (default
	// 0.02: below the noise of most machines).
	MinDelta float64
	// Seed seeds the change-point permutations (results are the same for
	// the same seed).
	Seed uint64
	// Since, if set, keeps the commits from this one on in git order (a
	// full hash, of a commit with runs or in Order): their points and
	// change points, found on the whole series.
	Since string
	// Points, if set, says which series need their points (the others
	// come with their change points only, and nil Points): text output
	// prints only the series that shifted. Nil means every series.
	Points func(b *document.HistoryBenchmark) bool
	// Each, if set, receives every series in order as soon as its points
	// are built, with the history it belongs to (its commits complete,
	// its Benchmarks empty), and Load leaves the history's Benchmarks
	// empty: the series of a store are read a chunk at a time, so a
	// history of any length is written in the memory of one chunk.
	Each func(h *document.History, b *document.HistoryBenchmark) error
}

// emitter hands the series of a history to Options.Each, or keeps them
// in the history, after the Since filter.
type emitter struct {
	h    *document.History
	each func(h *document.History, b *document.HistoryBenchmark) error
	keep func(b *document.HistoryBenchmark) bool
}

func (e *emitter) emit(b *document.HistoryBenchmark) error {
	if e.keep != nil && !e.keep(b) {
		return nil
	}
	if e.each != nil {
		return e.each(e.h, b)
	}
	e.h.Benchmarks = append(e.h.Benchmarks, *b)
	return nil
}

// Load reads the module's history from st. A store that keeps runs by
// series (schema 3 on) gives the change points record computed, when they
// are current, and its samples; an older store, read as it is, is built
// from its runs' results (Build).
func Load(ctx context.Context, st *store.Store, module string, opts Options) (*document.History, error) {
	runs, err := st.Runs(ctx, module)
	if err != nil {
		return nil, err
	}
	if st.HasSeries() {
		return loadStored(ctx, st, module, runs, opts)
	}
	h, err := Build(runs, func(id int64) ([]byte, error) { return st.Results(ctx, id) }, module, opts)
	if err != nil {
		return nil, err
	}
	keep, err := since(h, opts.Since, opts.Order)
	if err != nil {
		return nil, err
	}
	all := h.Benchmarks
	h.Benchmarks = []document.HistoryBenchmark{}
	e := emitter{h: h, each: opts.Each, keep: keep}
	for i := range all {
		if err := e.emit(&all[i]); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// since keeps the part of h from commit on (all of it for ""): it trims
// h's commits to that commit and later ones in git order, and returns
// the filter of a series (nil for all): it keeps the points and change
// points of those commits, and reports whether the series has a point
// there. The change points are those of the whole series. The commit may
// be one without runs when order (HEAD's history) holds it.
func since(h *document.History, commit string, order []string) (func(b *document.HistoryBenchmark) bool, error) {
	if commit == "" {
		return nil, nil
	}
	from := slices.IndexFunc(h.Commits, func(c document.HistoryCommit) bool { return c.Commit == commit })
	if from < 0 {
		at := slices.Index(order, commit)
		if at < 0 {
			return nil, fmt.Errorf("%w: %s", ErrNoCommit, short(commit))
		}
		pos := map[string]int{}
		for i, c := range order {
			pos[c] = i
		}
		from = slices.IndexFunc(h.Commits, func(c document.HistoryCommit) bool { return pos[c.Commit] >= at })
		if from < 0 {
			from = len(h.Commits)
		}
	}
	keep := map[string]bool{}
	for _, c := range h.Commits[from:] {
		keep[c.Commit] = true
	}
	h.Commits = h.Commits[from:]
	return func(b *document.HistoryBenchmark) bool {
		b.Points = slices.DeleteFunc(b.Points, func(p document.HistoryPoint) bool { return !keep[p.Commit] })
		b.ChangePoints = slices.DeleteFunc(b.ChangePoints, func(c document.ChangePoint) bool { return !keep[c.Commit] })
		return len(b.Points) > 0
	}, nil
}

// ErrNoCommit is matched by Load's error for an Options.Since commit
// that is neither a commit of the history shown nor in Options.Order.
var ErrNoCommit = errors.New("no run of that commit in the history")

// Build builds a history from runs, reading each chosen run's benchfmt
// results with results.
func Build(runs []store.RunInfo, results func(id int64) ([]byte, error), module string, opts Options) (*document.History, error) {
	h := &document.History{Schema: document.HistorySchema, Module: module, Commits: []document.HistoryCommit{}, Benchmarks: []document.HistoryBenchmark{}}
	runs = ordered(runs, opts.Order)
	if len(runs) == 0 {
		return h, nil
	}
	// A run without a single benchmark result (older perfloops stored
	// one for a -bench or a shard that selected nothing, under a
	// fingerprint of its own) is left out: it must not decide which
	// machine is shown, nor be a commit without points.
	read := map[int64][]byte{}
	empty := map[int64]bool{}
	h.Fingerprint = opts.Fingerprint
	if h.Fingerprint == "" {
		byNewest := slices.Clone(runs)
		slices.SortStableFunc(byNewest, func(a, b store.RunInfo) int {
			return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.ID, a.ID))
		})
		for _, r := range byNewest {
			data, err := results(r.ID)
			if err != nil {
				return nil, fmt.Errorf("run %d (%s): %w", r.ID, short(r.Commit), err)
			}
			if !hasResults(data) {
				empty[r.ID] = true
				continue
			}
			read[r.ID] = data
			h.Fingerprint = r.FingerprintKey
			break
		}
		if h.Fingerprint == "" {
			return h, nil
		}
	}
	type key struct {
		pkg, name, unit string
		procs           int
	}
	type series struct {
		bench  document.HistoryBenchmark
		byComm map[string]*[]float64
		runOf  map[string]int64
	}
	all := map[key]*series{}
	var order []key
	commitIndex := map[string]int{}
	for _, r := range runs {
		if empty[r.ID] {
			continue
		}
		if r.FingerprintKey != h.Fingerprint {
			h.Others++
			continue
		}
		data, ok := read[r.ID]
		if !ok {
			var err error
			if data, err = results(r.ID); err != nil {
				return nil, fmt.Errorf("run %d (%s): %w", r.ID, short(r.Commit), err)
			}
			if !hasResults(data) {
				continue
			}
		}
		i, ok := commitIndex[r.Commit]
		if !ok {
			i = len(h.Commits)
			commitIndex[r.Commit] = i
			h.Commits = append(h.Commits, document.HistoryCommit{Commit: r.Commit, Subject: r.Subject})
		}
		h.Commits[i].Runs = append(h.Commits[i].Runs, r.ID)
		br := benchfmt.NewReader(bytes.NewReader(data), fmt.Sprintf("run %d", r.ID))
		for br.Scan() {
			res, ok := br.Result().(*benchfmt.Result)
			if !ok {
				continue // a syntax error: skip the line
			}
			base, procs := stats.SplitProcs(res.Name)
			name := "Benchmark" + base
			if opts.Match != nil && !opts.Match(name) {
				continue
			}
			for _, v := range res.Values {
				k := key{res.GetConfig("pkg"), name, v.Unit, procs}
				s := all[k]
				if s == nil {
					s = &series{bench: document.HistoryBenchmark{Package: k.pkg, Name: name, Procs: procs, Unit: v.Unit},
						byComm: map[string]*[]float64{}, runOf: map[string]int64{}}
					all[k] = s
					order = append(order, k)
				}
				vs := s.byComm[r.Commit]
				if vs == nil {
					vs = new([]float64)
					s.byComm[r.Commit] = vs
				}
				*vs = append(*vs, v.Value)
				if s.runOf[r.Commit] == 0 || r.HasReport {
					s.runOf[r.Commit] = r.ID
				}
			}
		}
		if err := br.Err(); err != nil && err != io.EOF {
			return nil, fmt.Errorf("run %d (%s): read results: %w", r.ID, short(r.Commit), err)
		}
	}
	slices.SortStableFunc(order, func(a, b key) int {
		return cmp.Or(cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.name, b.name), cmp.Compare(a.procs, b.procs), cmp.Compare(store.UnitRank(a.unit), store.UnitRank(b.unit)), cmp.Compare(a.unit, b.unit))
	})
	minDelta := opts.MinDelta
	if minDelta == 0 {
		minDelta = 0.02
	}
	for _, k := range order {
		s := all[k]
		var pts []changepoint.Point
		for _, c := range h.Commits {
			vs := s.byComm[c.Commit]
			if vs == nil {
				continue
			}
			sorted := slices.Clone(*vs)
			slices.Sort(sorted)
			s.bench.Points = append(s.bench.Points, document.HistoryPoint{Commit: c.Commit, Value: median(sorted), N: len(sorted),
				Low: sorted[0], High: sorted[len(sorted)-1], Run: s.runOf[c.Commit]})
			pts = append(pts, changepoint.Point{Label: c.Commit, Values: sorted})
		}
		s.bench.ChangePoints = []document.ChangePoint{}
		for _, ch := range changepoint.Detect(pts, changepoint.Options{MinDelta: minDelta, Seed: opts.Seed}) {
			s.bench.ChangePoints = append(s.bench.ChangePoints, document.ChangePoint{Commit: ch.Label, Delta: ch.Delta,
				Before: ch.Before, After: ch.After, Confidence: ch.Confidence})
		}
		h.Benchmarks = append(h.Benchmarks, s.bench)
	}
	return h, nil
}

// hasResults reports whether benchfmt text holds a benchmark result.
func hasResults(data []byte) bool {
	r := benchfmt.NewReader(bytes.NewReader(data), "")
	for r.Scan() {
		if _, ok := r.Result().(*benchfmt.Result); ok {
			return true
		}
	}
	return false
}

// ordered returns the runs in git order (order's), or by commit time.
func ordered(runs []store.RunInfo, order []string) []store.RunInfo {
	out := slices.Clone(runs)
	if order == nil {
		slices.SortStableFunc(out, func(a, b store.RunInfo) int {
			return cmp.Or(a.CommitTime.Compare(b.CommitTime), cmp.Compare(a.ID, b.ID))
		})
		return out
	}
	pos := map[string]int{}
	for i, c := range order {
		pos[c] = i
	}
	out = slices.DeleteFunc(out, func(r store.RunInfo) bool { _, ok := pos[r.Commit]; return !ok })
	slices.SortStableFunc(out, func(a, b store.RunInfo) int {
		return cmp.Or(cmp.Compare(pos[a.Commit], pos[b.Commit]), cmp.Compare(a.ID, b.ID))
	})
	return out
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

func short(commit string) string { return commit[:min(12, len(commit))] }
