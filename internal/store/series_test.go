package store

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// benchRun returns a run of module at commit n with results of the given
// benchmarks, each with -count values near base.
func benchRun(module string, n int, names []string, count int, base float64) *Run {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/m\n")
	for k := 0; k < count; k++ {
		for i, name := range names {
			fmt.Fprintf(&b, "%s-2 \t 1000\t %g ns/op\t %d B/op\t 1 allocs/op\n", name, base*float64(i+1)+float64(k), 16*(i+1))
		}
	}
	r := sampleRun(module, n, time.Unix(int64(1e9+n), 0))
	r.Results = []byte(b.String())
	return r
}

// near reports whether got and want hold the same values, but for
// rounding (benchfmt reads ns/op as seconds).
func near(got, want []float64) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if math.Abs(got[i]-want[i]) > 1e-9*math.Abs(want[i]) {
			return false
		}
	}
	return true
}

func TestParseSamples(t *testing.T) {
	text := []byte(`goos: linux
pkg: example.com/a
BenchmarkX-8 100 10 ns/op 4 B/op
BenchmarkX-8 100 12 ns/op 4 B/op
BenchmarkY/<b>bold</b> 100 5 ns/op
not a result
pkg: example.com/b
BenchmarkX-8 100 30 ns/op 3 custom/s
BenchmarkX-8 100 zz ns/op
`)
	keys, vals := ParseSamples(text)
	want := []SeriesKey{
		{"example.com/a", "BenchmarkX", 8, "sec/op"},
		{"example.com/a", "BenchmarkX", 8, "B/op"},
		{"example.com/a", "BenchmarkY/<b>bold</b>", 0, "sec/op"},
		{"example.com/b", "BenchmarkX", 8, "sec/op"},
		{"example.com/b", "BenchmarkX", 8, "custom/s"},
	}
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("keys %+v\nwant %+v", keys, want)
	}
	if v := vals[want[0]]; !near(v, []float64{10e-9, 12e-9}) {
		t.Errorf("%v: %v, want 10ns and 12ns as seconds", want[0], v)
	}
	if v := vals[want[4]]; !reflect.DeepEqual(v, []float64{3}) {
		t.Errorf("%v: %v", want[4], v)
	}
	slices.SortFunc(keys, SeriesKey.Compare)
	if keys[0].Unit != "sec/op" || keys[1].Unit != "B/op" {
		t.Errorf("sorted keys %+v: want sec/op before B/op", keys)
	}
}

// TestSamples: Save keeps each run's values by series (the shards of one
// commit as two runs), a series per benchmark, unit and fingerprint, and
// Samples reads them back, all or some.
func TestSamples(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		r1 := benchRun("m", 1, []string{"BenchmarkA", "BenchmarkB"}, 3, 100)
		r2 := benchRun("m", 1, []string{"BenchmarkC"}, 2, 100) // the other shard
		other := benchRun("m", 1, []string{"BenchmarkA"}, 2, 50)
		other.Fingerprint.CPU = "Other CPU"
		for _, r := range []*Run{r1, r2, other} {
			if _, err := s.Save(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		runs, err := s.Runs(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		for i, want := range []int{6, 3, 3} {
			if runs[i].Series != want {
				t.Errorf("run %d: Series = %d, want %d", runs[i].ID, runs[i].Series, want)
			}
		}
		series, total, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: testFP.Key()})
		if err != nil {
			t.Fatal(err)
		}
		if total != 9 || len(series) != 9 {
			t.Fatalf("%d series (total %d), want 9: A, B, C × sec/op, B/op, allocs/op", len(series), total)
		}
		var keys []string
		byID := map[int64]SeriesKey{}
		for _, sr := range series {
			keys = append(keys, sr.Key.Name+" "+sr.Key.Unit)
			byID[sr.ID] = sr.Key
			if sr.State != nil || sr.Fingerprint != testFP.Key() || sr.Key.Procs != 2 || sr.Key.Package != "example.com/m" {
				t.Errorf("series %+v", sr)
			}
		}
		wantKeys := []string{"BenchmarkA sec/op", "BenchmarkA allocs/op", "BenchmarkA B/op", "BenchmarkB sec/op", "BenchmarkB allocs/op",
			"BenchmarkB B/op", "BenchmarkC sec/op", "BenchmarkC allocs/op", "BenchmarkC B/op"}
		if !reflect.DeepEqual(keys, wantKeys) {
			t.Errorf("series %q\nwant %q", keys, wantKeys)
		}
		got := map[string][]float64{}
		err = s.Samples(ctx, "m", testFP.Key(), nil, func(sm Sample) error {
			k := byID[sm.Series]
			got[fmt.Sprintf("%s %s run %d", k.Name, k.Unit, sm.Run)] = sm.Values
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 9 {
			t.Errorf("%d sample rows, want 9: %v", len(got), got)
		}
		if v := got[fmt.Sprintf("BenchmarkB sec/op run %d", r1.ID)]; !near(v, []float64{200e-9, 201e-9, 202e-9}) {
			t.Errorf("B's sec/op: %v", v)
		}
		if v := got[fmt.Sprintf("BenchmarkC B/op run %d", r2.ID)]; !reflect.DeepEqual(v, []float64{16, 16}) {
			t.Errorf("C's B/op: %v", v)
		}
		// Some series only.
		n := 0
		if err := s.Samples(ctx, "m", testFP.Key(), []int64{series[0].ID}, func(sm Sample) error {
			n++
			if sm.Series != series[0].ID {
				t.Errorf("asked for series %d, got %d", series[0].ID, sm.Series)
			}
			return nil
		}); err != nil || n != 1 {
			t.Errorf("samples of one series: %d rows, %v; want 1", n, err)
		}
		// The other machine's series are its own.
		os, _, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: other.Fingerprint.Key()})
		if err != nil || len(os) != 3 {
			t.Errorf("other machine: %d series, %v; want 3", len(os), err)
		}
	})
}

// TestSeriesSearchAndPages: the dashboard's search matches package, name
// and unit, case-insensitively, every word, with LIKE's wildcards taken
// literally; pages follow the newest change first, then the steady series
// by name, and count what matches.
func TestSeriesSearchAndPages(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		names := []string{"BenchmarkEncode", "BenchmarkDecode", "BenchmarkEncode/size=1k", "BenchmarkParse_100%", "BenchmarkParse"}
		if _, err := s.Save(ctx, benchRun("m", 1, names, 1, 10)); err != nil {
			t.Fatal(err)
		}
		fp := testFP.Key()
		all, total, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: fp})
		if err != nil || total != 15 {
			t.Fatalf("%d series, %v; want 15", total, err)
		}
		id := map[string]int64{}
		for _, sr := range all {
			id[sr.Key.Name+" "+sr.Key.Unit] = sr.ID
		}
		// Give two series a change point: Decode's the newest.
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		err = s.UpdateHistory(ctx, "m", func(tx *HistoryTx) error {
			if err := tx.SetState(ctx, id["BenchmarkParse B/op"], &SeriesState{Points: 3, Last: 1, ChangeCommit: "c2", ChangeDelta: 0.5, ChangeTime: t0}); err != nil {
				return err
			}
			return tx.SetState(ctx, id["BenchmarkDecode sec/op"], &SeriesState{Points: 3, Last: 2, ChangeCommit: "c3", ChangeDelta: -0.2, ChangeTime: t0.Add(time.Hour)})
		})
		if err != nil {
			t.Fatal(err)
		}
		page := func(f SeriesFilter) []string {
			t.Helper()
			f.Module, f.Fingerprint = "m", fp
			got, _, err := s.Series(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, sr := range got {
				out = append(out, strings.TrimPrefix(sr.Key.Name, "Benchmark")+" "+sr.Key.Unit)
			}
			return out
		}
		if got := page(SeriesFilter{Limit: 4}); !reflect.DeepEqual(got, []string{"Decode sec/op", "Parse B/op", "Decode allocs/op", "Decode B/op"}) {
			t.Errorf("first page %q: want the newest change first, then the steady series by name", got)
		}
		if got := page(SeriesFilter{Limit: 4, Offset: 12}); !reflect.DeepEqual(got, []string{"Parse_100% sec/op", "Parse_100% allocs/op", "Parse_100% B/op"}) {
			t.Errorf("last page %q", got)
		}
		for search, want := range map[string]int{
			"encode":         6,
			"ENCODE size=1K": 3,
			"parse b/op":     2,
			"_100%":          3,
			"100%":           3,
			"%":              3,
			"_":              3,
			"example.com/m":  15,
			"allocs decode":  1,
			"nothing":        0,
		} {
			got, total, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: fp, Search: search, Limit: 2})
			if err != nil || total != want || len(got) != min(2, want) {
				t.Errorf("search %q: %d on the page, %d in all, %v; want %d in all", search, len(got), total, err, want)
			}
		}
		if got := page(SeriesFilter{IDs: []int64{id["BenchmarkParse B/op"], id["BenchmarkEncode sec/op"]}}); !reflect.DeepEqual(got, []string{"Parse B/op", "Encode sec/op"}) {
			t.Errorf("by id: %q", got)
		}
	})
}

// TestHistoryTx: a HistoryTx keeps the commit order, each series' state
// (read back as written) and which runs are taken in; a failed one writes
// nothing; a read-only store refuses one.
func TestHistoryTx(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		r1 := benchRun("m", 1, []string{"BenchmarkA"}, 2, 10)
		r2 := benchRun("m", 2, []string{"BenchmarkA", "BenchmarkB"}, 2, 10)
		for _, r := range []*Run{r1, r2} {
			if _, err := s.Save(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if ids, err := s.Unapplied(ctx, "m"); err != nil || !reflect.DeepEqual(ids, []int64{r1.ID, r2.ID}) {
			t.Fatalf("Unapplied = %v, %v; want both runs", ids, err)
		}
		all, _, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: testFP.Key()})
		if err != nil {
			t.Fatal(err)
		}
		state := &SeriesState{Points: 2, Last: 1.5e-8, ChangeCommit: r2.Commit, ChangeDelta: 0.25,
			ChangeTime: time.Date(2026, 2, 3, 4, 5, 6, 7, time.UTC), Changes: []byte(`[{"commit":"x"}]`),
			Medians: []float64{1e-8, 1.5e-8, math.Inf(1)}, Cache: []byte{1, 2, 3}}
		boom := fmt.Errorf("boom")
		err = s.UpdateHistory(ctx, "m", func(tx *HistoryTx) error {
			if err := tx.SetOrder(ctx, []string{"c9"}); err != nil {
				return err
			}
			return boom
		})
		if err == nil || !strings.Contains(err.Error(), "boom") {
			t.Errorf("a failing update: %v", err)
		}
		if order, err := s.Order(ctx, "m"); err != nil || len(order) != 0 {
			t.Errorf("after a failed update the order is %q, %v; want none", order, err)
		}
		err = s.UpdateHistory(ctx, "m", func(tx *HistoryTx) error {
			ids, err := tx.SeriesOf(ctx, []int64{r2.ID})
			if err != nil {
				return err
			}
			if len(ids) != 6 {
				t.Errorf("SeriesOf(r2) = %v, want 6 series", ids)
			}
			order := make([]string, 450) // more than one INSERT
			for i := range order {
				order[i] = fmt.Sprintf("c%03d", i)
			}
			if err := tx.SetOrder(ctx, order); err != nil {
				return err
			}
			if err := tx.SetState(ctx, all[0].ID, state); err != nil {
				return err
			}
			if err := tx.SetState(ctx, all[1].ID, &SeriesState{Points: 0}); err != nil {
				return err
			}
			return tx.MarkApplied(ctx, []int64{r1.ID})
		})
		if err != nil {
			t.Fatal(err)
		}
		if order, err := s.Order(ctx, "m"); err != nil || len(order) != 450 || order[0] != "c000" || order[449] != "c449" {
			t.Errorf("Order = %d commits, %v", len(order), err)
		}
		if ids, err := s.Unapplied(ctx, "m"); err != nil || !reflect.DeepEqual(ids, []int64{r2.ID}) {
			t.Errorf("Unapplied = %v, %v; want run 2", ids, err)
		}
		got, _, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: testFP.Key(), IDs: []int64{all[0].ID, all[1].ID}, Cache: true})
		if err != nil || len(got) != 2 {
			t.Fatalf("Series = %+v, %v", got, err)
		}
		if !reflect.DeepEqual(got[0].State, state) {
			t.Errorf("state read back %+v\nwant %+v", got[0].State, state)
		}
		if st := got[1].State; st == nil || st.Points != 0 || st.ChangeCommit != "" || len(st.Medians) != 0 {
			t.Errorf("an empty state read back as %+v", st)
		}
		noCache, _, _ := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: testFP.Key(), IDs: []int64{all[0].ID}})
		if noCache[0].State.Cache != nil {
			t.Errorf("Series without Cache read the cache")
		}

		ro, err := OpenReadOnly(ctx, b.dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer ro.Close()
		if err := ro.UpdateHistory(ctx, "m", func(*HistoryTx) error { return nil }); err == nil {
			t.Error("UpdateHistory on a read-only store succeeded")
		}
	})
}

// TestHistoryTxOneAtATime: updates of one module from many writers (two
// Stores, as two processes would have) run one at a time, each seeing
// what the one before committed.
func TestHistoryTxOneAtATime(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		stores := []*Store{b.open(t), b.open(t)}
		var wg sync.WaitGroup
		errs := make(chan error, 16)
		for i := 0; i < 16; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- stores[i%2].UpdateHistory(ctx, "m", func(tx *HistoryTx) error {
					order, err := tx.Order(ctx)
					if err != nil {
						return err
					}
					time.Sleep(5 * time.Millisecond)
					return tx.SetOrder(ctx, append(order, fmt.Sprintf("u%02d", i)))
				})
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		order, err := stores[0].Order(ctx, "m")
		if err != nil || len(order) != 16 {
			t.Errorf("after 16 updates that each append one commit: %q, %v", order, err)
		}
	})
}

// TestSaveNewSeriesConcurrently: writers that save runs of the same new
// benchmarks, in different orders, all succeed (none deadlocks on the
// other's new series) and each series exists once.
func TestSaveNewSeriesConcurrently(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		var names []string
		for i := 0; i < 40; i++ {
			names = append(names, fmt.Sprintf("BenchmarkN%02d", i))
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for w := 0; w < 8; w++ {
			s := b.open(t)
			wg.Add(1)
			go func() {
				defer wg.Done()
				mine := slices.Clone(names)
				rand.New(rand.NewPCG(uint64(w), 1)).Shuffle(len(mine), func(i, j int) { mine[i], mine[j] = mine[j], mine[i] })
				_, err := s.Save(ctx, benchRun("m", w, mine, 1, 10))
				errs <- err
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		s := b.open(t)
		_, total, err := s.Series(ctx, SeriesFilter{Module: "m", Fingerprint: testFP.Key()})
		if err != nil || total != 120 {
			t.Errorf("%d series, %v; want 120", total, err)
		}
		rows := 0
		if err := s.Samples(ctx, "m", testFP.Key(), nil, func(Sample) error { rows++; return nil }); err != nil || rows != 8*120 {
			t.Errorf("%d sample rows, %v; want %d", rows, err, 8*120)
		}
	})
}

// v2Store makes b's database a store at schema version 2, as perfloop
// made it before runs were kept by series, holding runs.
func v2Store(t *testing.T, b backend, runs ...*Run) {
	t.Helper()
	s := &Store{backend: b.name}
	driver := "sqlite"
	if b.name == "postgres" {
		driver = "pgx"
	}
	db, err := sql.Open(driver, b.dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	stmts := []string{createSchemaMigrations}
	for _, m := range migrations[:2] {
		for _, stmt := range m.statements {
			stmts = append(stmts, s.dialect(stmt))
		}
	}
	stmts = append(stmts, `INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0), (2, 0)`)
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	for _, r := range runs {
		fp := r.Fingerprint
		err = db.QueryRow(`INSERT INTO runs (module, commit_hash, commit_time, subject,
			fp_key, fp_cpu, fp_gomaxprocs, fp_go, fp_goos, fp_goarch, fp_kernel, fp_build,
			started, shard, results, report)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
			r.Module, r.Commit, r.CommitTime.UnixNano(), r.Subject,
			fp.Key(), fp.CPU, fp.GOMAXPROCS, fp.GoVersion, fp.GOOS, fp.GOARCH, fp.Kernel, fp.Build,
			r.Started.UnixNano(), r.Shard, r.Results, r.Report).Scan(&r.ID)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestMigrationKeepsSeries: a store of schema version 2 is read as it is
// by a read-only open (no series: HasSeries is false); Open migrates it,
// and the runs stored before then have their samples, and are left for
// the next history update.
func TestMigrationKeepsSeries(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		r1 := benchRun("m", 1, []string{"BenchmarkA", "BenchmarkB"}, 3, 10)
		r2 := benchRun("m", 2, []string{"BenchmarkA"}, 3, 10)
		empty := sampleRun("m", 3, time.Unix(3e9, 0))
		empty.Results = []byte("goos: linux\n")
		v2Store(t, b, r1, r2, empty)

		ro, err := OpenReadOnly(ctx, b.dsn)
		if err != nil {
			t.Fatal(err)
		}
		if ro.HasSeries() {
			t.Error("a version 2 store read as it is has series")
		}
		if _, _, err := ro.Series(ctx, SeriesFilter{Module: "m"}); err == nil || !strings.Contains(err.Error(), "perfloop record migrates it") {
			t.Errorf("Series on a version 2 store: %v", err)
		}
		ro.Close()

		s := b.open(t)
		if !s.HasSeries() {
			t.Fatal("a migrated store has no series")
		}
		runs, err := s.Runs(ctx, "m")
		if err != nil || len(runs) != 3 {
			t.Fatalf("Runs = %+v, %v", runs, err)
		}
		if runs[0].Series != 6 || runs[1].Series != 3 || runs[2].Series != 0 {
			t.Errorf("series counts %d %d %d, want 6 3 0", runs[0].Series, runs[1].Series, runs[2].Series)
		}
		if ids, err := s.Unapplied(ctx, "m"); err != nil || len(ids) != 3 {
			t.Errorf("Unapplied = %v, %v; want the three runs", ids, err)
		}
		rows := 0
		if err := s.Samples(ctx, "m", testFP.Key(), nil, func(sm Sample) error {
			rows++
			if len(sm.Values) != 3 {
				t.Errorf("sample %+v: want 3 values", sm)
			}
			return nil
		}); err != nil || rows != 9 {
			t.Errorf("%d sample rows, %v; want 9", rows, err)
		}
	})
}

// TestSteps: a run's steps are kept with its series of their benchmark
// and unit (a -cpu 1,2 run has two), one of a benchmark the run does not
// hold is dropped, and a step without a base commit fails the run whole.
func TestSteps(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		r := benchRun("m", 2, []string{"BenchmarkA", "BenchmarkB"}, 2, 10)
		r.Results = append(r.Results, []byte("BenchmarkA-1 \t 1000\t 11 ns/op\n")...)
		base := fmt.Sprintf("%040x", 1)
		r.Steps = []Step{
			// Measured pinned to one CPU: no -GOMAXPROCS suffix.
			{Key: SeriesKey{"example.com/m", "BenchmarkA", 0, "sec/op"}, Base: base, Delta: 1.02, Low: 0.9, High: 1.1, P: 0.001, Significant: true, Before: 10e-9, After: 20.2e-9},
			{Key: SeriesKey{"example.com/m", "BenchmarkB", 0, "allocs/op"}, Base: base, Delta: 0, Low: 0, High: 0, P: 1},
			{Key: SeriesKey{"example.com/m", "BenchmarkGone", 0, "sec/op"}, Base: base, Delta: 5},
		}
		if _, err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
		got := map[string]RunStep{}
		if err := s.Steps(ctx, "m", testFP.Key(), nil, func(rs RunStep) error {
			got[fmt.Sprintf("%s-%d %s", rs.Key.Name, rs.Key.Procs, rs.Key.Unit)] = rs
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 {
			t.Errorf("steps %v, want A sec/op at GOMAXPROCS 1 and 2, and B allocs/op", got)
		}
		a := got["BenchmarkA-2 sec/op"]
		if a.Run != r.ID || a.Base != base || a.Delta != 1.02 || a.Low != 0.9 || a.High != 1.1 || a.P != 0.001 || !a.Significant || a.After != 20.2e-9 {
			t.Errorf("A's step read back as %+v", a)
		}
		if _, ok := got["BenchmarkA-1 sec/op"]; !ok {
			t.Error("the GOMAXPROCS 1 series of A has no step")
		}
		if bs := got["BenchmarkB-2 allocs/op"]; bs.Significant || bs.P != 1 {
			t.Errorf("B's step %+v", bs)
		}
		// Measured with -cpu 1,2: a step per GOMAXPROCS, each with its
		// series.
		cpu := benchRun("m", 4, []string{"BenchmarkA"}, 1, 10)
		cpu.Results = append(cpu.Results, []byte("BenchmarkA-1 \t 1000\t 11 ns/op\n")...)
		cpu.Steps = []Step{
			{Key: SeriesKey{"example.com/m", "BenchmarkA", 1, "sec/op"}, Base: base, Delta: 0.1},
			{Key: SeriesKey{"example.com/m", "BenchmarkA", 2, "sec/op"}, Base: base, Delta: 0.2},
			{Key: SeriesKey{"example.com/m", "BenchmarkA", 2, "sec/op"}, Base: base, Delta: 0.3},
		}
		if _, err := s.Save(ctx, cpu); err != nil {
			t.Fatal(err)
		}
		perProcs := map[int]float64{}
		if err := s.Steps(ctx, "m", testFP.Key(), nil, func(rs RunStep) error {
			if rs.Run == cpu.ID {
				perProcs[rs.Key.Procs] = rs.Delta
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(perProcs, map[int]float64{1: 0.1, 2: 0.2}) {
			t.Errorf("steps by GOMAXPROCS %v, want each series its own (the first of two)", perProcs)
		}

		bad := benchRun("m", 3, []string{"BenchmarkA"}, 1, 10)
		bad.Steps = []Step{{Key: SeriesKey{"example.com/m", "BenchmarkA", 2, "sec/op"}}}
		if _, err := s.Save(ctx, bad); err == nil {
			t.Error("a run with a step without a base commit was saved")
		}
		if runs, _ := s.Runs(ctx, "m"); len(runs) != 2 {
			t.Errorf("%d runs after the failed save, want 2", len(runs))
		}
	})
}
