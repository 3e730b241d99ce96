package history

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/perfloop/perfloop/internal/changepoint"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/store"
)

// defaultMinDelta is the smallest shift reported unless Options say
// otherwise: below the noise of most machines. The change points record
// keeps are computed with it (and seed 0).
const defaultMinDelta = 0.02

// chooseOrder returns the commits of a history in git order: the commits
// of ancestry (HEAD's history, oldest first) that have runs; or, without
// an ancestry (a shallow clone's is not the history, and serve may run
// far from the repository), the order record stored, followed by the
// commits of runs no update has taken in yet, by commit time. (The
// commits a recorder's ancestry left out, a branch's, stay out.)
func chooseOrder(ancestry, stored []string, runs []store.RunInfo) []string {
	has := map[string]bool{}
	for _, r := range runs {
		has[r.Commit] = true
	}
	var order []string
	if ancestry != nil {
		for _, c := range ancestry {
			if has[c] {
				order = append(order, c)
				delete(has, c)
			}
		}
		return order
	}
	for _, c := range stored {
		if has[c] {
			order = append(order, c)
			delete(has, c)
		}
	}
	// Then the commits of runs not taken in, by commit time, then the
	// run that came first.
	first := map[string]store.RunInfo{}
	for _, r := range runs {
		if !has[r.Commit] || r.Applied {
			continue
		}
		if f, ok := first[r.Commit]; !ok || r.ID < f.ID {
			first[r.Commit] = r
		}
	}
	var rest []store.RunInfo
	for _, r := range first {
		rest = append(rest, r)
	}
	slices.SortFunc(rest, func(a, b store.RunInfo) int {
		return cmp.Or(a.CommitTime.Compare(b.CommitTime), cmp.Compare(a.ID, b.ID))
	})
	for _, r := range rest {
		order = append(order, r.Commit)
	}
	return order
}

// keepsOrder reports whether order holds every commit of stored, in the
// same order: then a series whose runs did not change has the same points.
func keepsOrder(stored, order []string) bool {
	pos := map[string]int{}
	for i, c := range order {
		pos[c] = i
	}
	last := -1
	for _, c := range stored {
		p, ok := pos[c]
		if !ok || p < last {
			return false
		}
		last = p
	}
	return true
}

// seriesPoints is one series' samples gathered by commit, and the steps
// (paired measurements) of its commits' runs. Samples may come in any
// order.
type seriesPoints struct {
	byCommit map[string][]float64
	// reported and first are, per commit, the newest run with a report
	// and the first run: a point links to the former, else the latter.
	reported, first map[string]int64
	steps           map[string][]store.RunStep
}

// addStep adds a step of a run of commit.
func (sp *seriesPoints) addStep(commit string, st store.RunStep) {
	if sp.steps == nil {
		sp.steps = map[string][]store.RunStep{}
	}
	sp.steps[commit] = append(sp.steps[commit], st)
}

// gather adds a run's samples of the series.
func (sp *seriesPoints) add(r store.RunInfo, vals []float64) {
	if sp.byCommit == nil {
		sp.byCommit, sp.reported, sp.first = map[string][]float64{}, map[string]int64{}, map[string]int64{}
	}
	sp.byCommit[r.Commit] = append(sp.byCommit[r.Commit], vals...)
	if f, ok := sp.first[r.Commit]; !ok || r.ID < f {
		sp.first[r.Commit] = r.ID
	}
	if r.HasReport && r.ID > sp.reported[r.Commit] {
		sp.reported[r.Commit] = r.ID
	}
}

// runOf is the run a commit's point links to: the newest with a report,
// else the first.
func (sp *seriesPoints) runOf(commit string) int64 {
	if id := sp.reported[commit]; id != 0 {
		return id
	}
	return sp.first[commit]
}

// points returns the series' points in order, and the detector's input.
func (sp *seriesPoints) points(order []string) ([]document.HistoryPoint, []changepoint.Point) {
	var hp []document.HistoryPoint
	var cp []changepoint.Point
	for _, c := range order {
		vs := sp.byCommit[c]
		if len(vs) == 0 {
			continue
		}
		sorted := slices.Clone(vs)
		slices.Sort(sorted)
		hp = append(hp, document.HistoryPoint{Commit: c, Value: median(sorted), N: len(sorted),
			Low: sorted[0], High: sorted[len(sorted)-1], Run: sp.runOf(c)})
		cp = append(cp, changepoint.Point{Label: c, Values: sorted})
	}
	return hp, cp
}

// withSteps puts a series' paired measurements into its change points.
// At a commit whose run measured it against the point before it,
// interleaved in the same job (a step with that base), the paired
// measurement decides: a loaded machine moves the level of a whole run,
// and so the change between points measured apart, but both sides of a
// pair alike.
//
//   - A significant paired change of at least minDelta is a change point,
//     with the paired change, the sides' medians in the paired run and
//     1 − its p-value, whether or not the levels show it.
//   - A change point the levels show there is dropped when the paired
//     change is not significant and its 95% interval leaves out the shift
//     the levels show: the pair measured that commit against the one
//     before, under one load, and saw no such change.
//
// Of several runs of a commit with a step, the newest counts.
func withSteps(changes []document.ChangePoint, hp []document.HistoryPoint, steps map[string][]store.RunStep, minDelta float64) []document.ChangePoint {
	if len(steps) == 0 {
		return changes
	}
	at := map[string]int{}
	for i, c := range changes {
		at[c.Commit] = i
	}
	drop := map[string]bool{}
	var added []document.ChangePoint
	for i := 1; i < len(hp); i++ {
		c, prev := hp[i].Commit, hp[i-1].Commit
		var st *store.RunStep
		for k := range steps[c] {
			if s := &steps[c][k]; s.Base == prev && (st == nil || s.Run > st.Run) {
				st = s
			}
		}
		if st == nil {
			continue
		}
		j, shown := at[c]
		switch {
		case st.Significant && math.Abs(st.Delta) >= minDelta:
			cp := document.ChangePoint{Commit: c, Delta: st.Delta, Before: st.Before, After: st.After, Confidence: 1 - st.P}
			if shown {
				changes[j] = cp
			} else {
				added = append(added, cp)
			}
		case shown && !st.Significant && (changes[j].Delta < st.Low || changes[j].Delta > st.High):
			drop[c] = true
		}
	}
	if len(added) == 0 && len(drop) == 0 {
		return changes
	}
	pos := map[string]int{}
	for i, p := range hp {
		pos[p.Commit] = i
	}
	out := slices.DeleteFunc(append(changes, added...), func(c document.ChangePoint) bool { return drop[c.Commit] })
	slices.SortFunc(out, func(a, b document.ChangePoint) int { return cmp.Compare(pos[a.Commit], pos[b.Commit]) })
	return out
}

// detect finds the change points of a series' points.
func detect(pts []changepoint.Point, minDelta float64, seed uint64, cache *changepoint.Cache) []document.ChangePoint {
	out := []document.ChangePoint{}
	for _, ch := range changepoint.Detect(pts, changepoint.Options{MinDelta: minDelta, Seed: seed, Cache: cache}) {
		out = append(out, document.ChangePoint{Commit: ch.Label, Delta: ch.Delta,
			Before: ch.Before, After: ch.After, Confidence: ch.Confidence})
	}
	return out
}

// UpdateResult says what Update did.
type UpdateResult struct {
	Series   int  // series whose change points were computed
	Runs     int  // runs taken in
	Reorder  bool // the commit order changed other than by new commits: every series was computed
	Tests    int  // permutation tests run (not answered by the series' caches)
	Duration time.Duration
}

// Update brings the history record keeps in st up to date for module,
// after a run was saved: the commit order (ancestry as chooseOrder takes
// it) and the change points of every series the runs not yet taken in
// have samples of — or of every series, when the order changed other than
// by new commits (a commit recorded late and put between two others
// changes only the series it has samples of). Each series is computed
// with its cache of permutation tests (changepoint.Cache), so only the
// windows the new samples reach are tested again; the result is the same
// as computing the series from scratch.
//
// Updates of one module run one at a time, in any number of processes
// (store.UpdateHistory); an update that fails or is interrupted leaves the
// runs for the next, and readers compute what is not current.
func Update(ctx context.Context, st *store.Store, module string, ancestry []string) (*UpdateResult, error) {
	start := time.Now()
	res := &UpdateResult{}
	err := st.UpdateHistory(ctx, module, func(tx *store.HistoryTx) error {
		*res = UpdateResult{}
		runs, err := tx.Runs(ctx)
		if err != nil {
			return err
		}
		stored, err := tx.Order(ctx)
		if err != nil {
			return err
		}
		order := chooseOrder(ancestry, stored, runs)
		fresh, err := tx.Unapplied(ctx)
		if err != nil {
			return err
		}
		all, _, err := tx.Series(ctx, store.SeriesFilter{})
		if err != nil {
			return err
		}
		want := map[int64]bool{}
		res.Reorder = !keepsOrder(stored, order)
		if res.Reorder {
			for _, s := range all {
				want[s.ID] = true
			}
		} else {
			// The series of the runs not taken in, and of the runs of
			// commits the order did not hold before (a branch's commit
			// recorded earlier, merged since).
			inStored := map[string]bool{}
			for _, c := range stored {
				inStored[c] = true
			}
			inOrder := map[string]bool{}
			for _, c := range order {
				inOrder[c] = true
			}
			touched := slices.Clone(fresh)
			for _, r := range runs {
				if inOrder[r.Commit] && !inStored[r.Commit] && r.Applied {
					touched = append(touched, r.ID)
				}
			}
			ids, err := tx.SeriesOf(ctx, touched)
			if err != nil {
				return err
			}
			for _, id := range ids {
				want[id] = true
			}
			for _, s := range all {
				if s.State == nil {
					want[s.ID] = true
				}
			}
		}
		byFP := map[string][]int64{}
		for _, s := range all {
			if want[s.ID] {
				byFP[s.Fingerprint] = append(byFP[s.Fingerprint], s.ID)
			}
		}
		runByID := map[int64]store.RunInfo{}
		for _, r := range runs {
			runByID[r.ID] = r
		}
		commitTime := map[string]time.Time{}
		for _, r := range runs {
			commitTime[r.Commit] = r.CommitTime
		}
		fps := make([]string, 0, len(byFP))
		for fp := range byFP {
			fps = append(fps, fp)
		}
		slices.Sort(fps)
		for _, fp := range fps {
			ids := byFP[fp]
			f := store.SeriesFilter{Fingerprint: fp, Cache: true}
			if len(ids) <= 500 {
				f.IDs = ids
			}
			list, _, err := tx.Series(ctx, f)
			if err != nil {
				return err
			}
			list = slices.DeleteFunc(list, func(s store.Series) bool { return !want[s.ID] })
			data := make(map[int64]*seriesPoints, len(list))
			for _, s := range list {
				data[s.ID] = &seriesPoints{}
			}
			var sampleIDs []int64
			if len(ids) <= 500 {
				sampleIDs = ids
			}
			err = tx.Samples(ctx, fp, sampleIDs, func(sm store.Sample) error {
				if sp := data[sm.Series]; sp != nil {
					if r, ok := runByID[sm.Run]; ok {
						sp.add(r, sm.Values)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			err = tx.Steps(ctx, fp, sampleIDs, func(rs store.RunStep) error {
				if sp := data[rs.Series]; sp != nil {
					if r, ok := runByID[rs.Run]; ok {
						sp.addStep(r.Commit, rs)
					}
				}
				return nil
			})
			if err != nil {
				return err
			}
			states := make([]*store.SeriesState, len(list))
			tests := make([]int, len(list))
			parallel(len(list), func(i int) {
				states[i], tests[i] = computeState(list[i], data[list[i].ID], order, commitTime)
			})
			for i, s := range list {
				if err := tx.SetState(ctx, s.ID, states[i]); err != nil {
					return err
				}
				res.Tests += tests[i]
			}
			res.Series += len(list)
		}
		if !slices.Equal(stored, order) {
			if err := tx.SetOrder(ctx, order); err != nil {
				return err
			}
		}
		res.Runs = len(fresh)
		return tx.MarkApplied(ctx, fresh)
	})
	if err != nil {
		return nil, err
	}
	res.Duration = time.Since(start)
	return res, nil
}

// computeState computes a series' state from its samples, with the cache
// the series kept; it returns the permutation tests it ran.
func computeState(s store.Series, sp *seriesPoints, order []string, commitTime map[string]time.Time) (*store.SeriesState, int) {
	cache := changepoint.NewCache()
	if s.State != nil && len(s.State.Cache) > 0 {
		if err := cache.UnmarshalBinary(s.State.Cache); err != nil {
			cache = changepoint.NewCache() // damaged: computed afresh
		}
	}
	hp, pts := sp.points(order)
	changes := withSteps(detect(pts, defaultMinDelta, 0, cache), hp, sp.steps, defaultMinDelta)
	_, misses := cache.Stats()
	st := &store.SeriesState{Points: len(hp), Medians: make([]float64, len(hp))}
	for i, p := range hp {
		st.Medians[i] = p.Value
	}
	if n := len(hp); n > 0 {
		st.Last = hp[n-1].Value
	}
	if n := len(changes); n > 0 {
		c := changes[n-1]
		st.ChangeCommit, st.ChangeDelta, st.ChangeTime = c.Commit, c.Delta, commitTime[c.Commit]
	}
	at := make([]int, len(changes))
	for i, c := range changes {
		at[i] = slices.IndexFunc(hp, func(p document.HistoryPoint) bool { return p.Commit == c.Commit })
	}
	st.Changes, _ = json.Marshal(storedChanges{ChangePoints: changes, At: at})
	st.Cache, _ = cache.MarshalBinary()
	return st, misses
}

// storedChanges is how a series' change points are kept in its state
// (SeriesState.Changes).
type storedChanges struct {
	ChangePoints []document.ChangePoint `json:"change_points"`
	// At is the index of each change point's commit among the series'
	// points (and its Medians).
	At []int `json:"at"`
}

// StoredChanges returns the change points a series' state holds, and the
// index of each among the series' points (its Medians).
func StoredChanges(st *store.SeriesState) ([]document.ChangePoint, []int, error) {
	if st == nil || len(st.Changes) == 0 {
		return []document.ChangePoint{}, nil, nil
	}
	var sc storedChanges
	if err := json.Unmarshal(st.Changes, &sc); err != nil {
		return nil, nil, fmt.Errorf("stored change points: %w", err)
	}
	if sc.ChangePoints == nil {
		sc.ChangePoints = []document.ChangePoint{}
	}
	return sc.ChangePoints, sc.At, nil
}

// parallel calls f(i) for i in [0, n) on GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

// loadStored is Load on a store that keeps series: the change points record
// computed when they are current (the order is the one record computed
// them in, no run of the machine shown is left to take in, and the
// options are the defaults), else computed here, with the series' caches.
func loadStored(ctx context.Context, st *store.Store, module string, runs []store.RunInfo, opts Options) (*document.History, error) {
	h := &document.History{Schema: document.HistorySchema, Module: module, Commits: []document.HistoryCommit{}, Benchmarks: []document.HistoryBenchmark{}}
	stored, err := st.Order(ctx, module)
	if err != nil {
		return nil, err
	}
	order := chooseOrder(opts.Order, stored, runs)
	runs = ordered(runs, order)
	h.Fingerprint = opts.Fingerprint
	if h.Fingerprint == "" {
		byNewest := slices.Clone(runs)
		slices.SortStableFunc(byNewest, func(a, b store.RunInfo) int {
			return cmp.Or(b.Started.Compare(a.Started), cmp.Compare(b.ID, a.ID))
		})
		for _, r := range byNewest {
			if r.Series > 0 {
				h.Fingerprint = r.FingerprintKey
				break
			}
		}
		if h.Fingerprint == "" {
			_, err := since(h, opts.Since, opts.Order)
			return h, err
		}
	}
	current := slices.Equal(order, stored) && (opts.MinDelta == 0 || opts.MinDelta == defaultMinDelta) && opts.Seed == 0
	runByID := map[int64]store.RunInfo{}
	commitIndex := map[string]int{}
	for _, r := range runs {
		if r.Series == 0 {
			continue
		}
		if r.FingerprintKey != h.Fingerprint {
			h.Others++
			continue
		}
		runByID[r.ID] = r
		i, ok := commitIndex[r.Commit]
		if !ok {
			i = len(h.Commits)
			commitIndex[r.Commit] = i
			h.Commits = append(h.Commits, document.HistoryCommit{Commit: r.Commit, Subject: r.Subject})
		}
		h.Commits[i].Runs = append(h.Commits[i].Runs, r.ID)
	}
	if current {
		fresh, err := st.Unapplied(ctx, module)
		if err != nil {
			return nil, err
		}
		for _, id := range fresh {
			if _, ok := runByID[id]; ok {
				current = false
			}
		}
	}
	list, _, err := st.Series(ctx, store.SeriesFilter{Module: module, Fingerprint: h.Fingerprint, Cache: !current})
	if err != nil {
		return nil, err
	}
	if opts.Match != nil {
		list = slices.DeleteFunc(list, func(s store.Series) bool { return !opts.Match(s.Key.Name) })
	}
	slices.SortFunc(list, func(a, b store.Series) int { return a.Key.Compare(b.Key) })
	minDelta := opts.MinDelta
	if minDelta == 0 {
		minDelta = defaultMinDelta
	}
	bench := make([]document.HistoryBenchmark, len(list))
	for i, s := range list {
		bench[i] = document.HistoryBenchmark{Package: s.Key.Package, Name: s.Key.Name, Procs: s.Key.Procs, Unit: s.Key.Unit,
			ChangePoints: []document.ChangePoint{}}
		if current && s.State != nil {
			cps, _, err := StoredChanges(s.State)
			if err != nil {
				return nil, fmt.Errorf("series %s %s: %w", s.Key.Name, s.Key.Unit, err)
			}
			bench[i].ChangePoints = cps
		}
	}
	keep, err := since(h, opts.Since, opts.Order)
	if err != nil {
		return nil, err
	}
	e := emitter{h: h, each: opts.Each, keep: keep}
	// The series are read a chunk at a time when they are streamed, all
	// at once otherwise.
	size := len(list)
	if opts.Each != nil {
		size = streamChunk
	}
	for lo := 0; lo < len(list); lo += size {
		hi := min(lo+size, len(list))
		if err := pointsOf(ctx, st, module, h.Fingerprint, list[lo:hi], bench[lo:hi], lo == 0 && hi == len(list), runByID, order, current, minDelta, opts); err != nil {
			return nil, err
		}
		for i := lo; i < hi; i++ {
			// A series with no point in this order (its runs are of
			// commits outside it) is no series here.
			b := &bench[i]
			if b.Points != nil && len(b.Points) == 0 || b.Points == nil && list[i].State != nil && list[i].State.Points == 0 {
				continue
			}
			if err := e.emit(b); err != nil {
				return nil, err
			}
			if opts.Each != nil {
				*b = document.HistoryBenchmark{} // streamed: let it go
			}
		}
	}
	return h, nil
}

// streamChunk is how many series a streamed history reads at a time.
const streamChunk = 256

// pointsOf reads the samples (and, when the change points are computed
// here, the paired steps) of the series in list that need them, and
// fills their points and change points in bench; whole says list is
// every series of the fingerprint.
func pointsOf(ctx context.Context, st *store.Store, module, fp string, list []store.Series, bench []document.HistoryBenchmark, whole bool,
	runByID map[int64]store.RunInfo, order []string, current bool, minDelta float64, opts Options) error {
	// The series that need their points: all of them when the change
	// points are computed here.
	need := map[int64]int{}
	for i, s := range list {
		if !current || s.State == nil || opts.Points == nil || opts.Points(&bench[i]) {
			need[s.ID] = i
		}
	}
	if len(need) == 0 {
		return nil
	}
	data := make(map[int64]*seriesPoints, len(need))
	var ids []int64
	for id := range need {
		data[id] = &seriesPoints{}
		ids = append(ids, id)
	}
	if whole && len(ids) == len(list) {
		ids = nil
	}
	err := st.Samples(ctx, module, fp, ids, func(sm store.Sample) error {
		if sp := data[sm.Series]; sp != nil {
			if r, ok := runByID[sm.Run]; ok {
				sp.add(r, sm.Values)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if !current {
		err = st.Steps(ctx, module, fp, ids, func(rs store.RunStep) error {
			if sp := data[rs.Series]; sp != nil {
				if r, ok := runByID[rs.Run]; ok {
					sp.addStep(r.Commit, rs)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	idx := make([]int64, 0, len(need))
	for id := range need {
		idx = append(idx, id)
	}
	parallel(len(idx), func(k int) {
		id := idx[k]
		i := need[id]
		hp, pts := data[id].points(order)
		bench[i].Points = hp
		if current && list[i].State != nil {
			return
		}
		cache := changepoint.NewCache()
		if st := list[i].State; st != nil && len(st.Cache) > 0 && cache.UnmarshalBinary(st.Cache) != nil {
			cache = changepoint.NewCache()
		}
		bench[i].ChangePoints = withSteps(detect(pts, minDelta, opts.Seed, cache), hp, data[id].steps, minDelta)
	})
	return nil
}
