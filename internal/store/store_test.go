package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/document"
)

// backend is a store to test: a DSN that each Open call opens afresh.
type backend struct {
	name string // "sqlite" or "postgres"
	dsn  string
}

// open opens b's store, closed at the end of the test.
func (b backend) open(t testing.TB) *Store {
	t.Helper()
	s, err := Open(context.Background(), b.dsn)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// stores returns the backends to test, each with a fresh, empty database: a
// SQLite file in t.TempDir(), and PostgreSQL when PERFLOOP_TEST_POSTGRES holds
// a postgres:// DSN (a schema of its own, dropped when the test ends). Under
// CI=true PostgreSQL is required.
func stores(t *testing.T) []backend {
	t.Helper()
	bs := []backend{{"sqlite", filepath.Join(t.TempDir(), "history.db")}}
	dsn := os.Getenv("PERFLOOP_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true but PERFLOOP_TEST_POSTGRES is empty: CI must test the PostgreSQL backend")
		}
		t.Log("PERFLOOP_TEST_POSTGRES not set: PostgreSQL backend not tested")
		return bs
	}
	return append(bs, backend{"postgres", postgresSchema(t, dsn)})
}

// postgresSchema creates a schema named after the test and returns dsn with
// search_path set to it; the schema is dropped when the test ends.
func postgresSchema(t *testing.T, dsn string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		t.Fatalf("PERFLOOP_TEST_POSTGRES=%s: want a postgres:// URL", redact(dsn))
	}
	var b strings.Builder
	for _, c := range strings.ToLower(t.Name()) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if len(name) > 40 {
		name = name[:40]
	}
	// The pid keeps concurrent `go test` processes apart.
	schema := fmt.Sprintf("t_%s_%d", name, os.Getpid())
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
		t.Fatalf("PERFLOOP_TEST_POSTGRES=%s: %v", redact(dsn), err)
	}
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatalf("PERFLOOP_TEST_POSTGRES=%s: %v", redact(dsn), err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", dsn)
		if err != nil {
			t.Error(err)
			return
		}
		defer admin.Close()
		if _, err := admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// forEach runs f as a subtest for each backend.
func forEach(t *testing.T, f func(t *testing.T, b backend)) {
	for _, b := range stores(t) {
		t.Run(b.name, func(t *testing.T) { f(t, b) })
	}
}

var testFP = Fingerprint{
	CPU:        "AMD EPYC 7B13",
	GOMAXPROCS: 2,
	GoVersion:  "go1.26.8",
	GOOS:       "linux",
	GOARCH:     "amd64",
	Kernel:     "6.1.0-18-amd64",
}

// oneResult is results text with a single benchmark result.
var oneResult = []byte("BenchmarkX 1 1 ns/op\n")

// sampleRun returns a run whose every blob names n, so a mix-up shows.
func sampleRun(module string, n int, commitTime time.Time) *Run {
	started := commitTime.Add(time.Hour)
	if commitTime.IsZero() {
		started = time.Time{}
	}
	return &Run{
		Module:      module,
		Commit:      fmt.Sprintf("%040x", n),
		CommitTime:  commitTime,
		Subject:     fmt.Sprintf("commit %d", n),
		Fingerprint: testFP,
		Started:     started,
		Shard:       "1/2",
		Results:     []byte(fmt.Sprintf("goos: linux\nBenchmarkRun%d-2 \t 100\t %d ns/op\n", n, n)),
		Report:      []byte(fmt.Sprintf(`{"run":%d}`, n)),
		Profiles: map[string][]byte{
			"example.com/m BenchmarkA.cpu.pprof": []byte(fmt.Sprintf("cpu %d", n)),
			"example.com/m BenchmarkA.mem.pprof": []byte(fmt.Sprintf("mem %d", n)),
		},
		Durations: map[document.BenchKey]time.Duration{
			{Package: "example.com/m", Name: "BenchmarkA"}: time.Duration(n) * time.Second,
		},
	}
}

// checkWhole fails unless run id is stored whole and equal to want.
func checkWhole(t *testing.T, s *Store, id int64, want *Run) {
	t.Helper()
	ctx := context.Background()
	ri, err := s.Run(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if ri.Commit != want.Commit || ri.Module != want.Module || ri.Subject != want.Subject ||
		ri.Fingerprint != want.Fingerprint || ri.FingerprintKey != want.Fingerprint.Key() ||
		ri.Shard != want.Shard || ri.HasReport != (len(want.Report) > 0) ||
		!ri.CommitTime.Equal(want.CommitTime) || !ri.Started.Equal(want.Started) {
		t.Errorf("Run(%d) = %+v, want fields of %+v", id, ri, want)
	}
	res, err := s.Results(ctx, id)
	if err != nil || !bytes.Equal(res, want.Results) {
		t.Errorf("Results(%d) = %q, %v; want %q", id, res, err, want.Results)
	}
	rep, err := s.Report(ctx, id)
	if err != nil || !bytes.Equal(rep, want.Report) {
		t.Errorf("Report(%d) = %q, %v; want %q", id, rep, err, want.Report)
	}
	names, err := s.ProfileNames(ctx, id)
	if err != nil || len(names) != len(want.Profiles) {
		t.Errorf("ProfileNames(%d) = %q, %v; want %d names", id, names, err, len(want.Profiles))
	}
	for _, name := range names {
		data, err := s.Profile(ctx, id, name)
		if err != nil || !bytes.Equal(data, want.Profiles[name]) {
			t.Errorf("Profile(%d, %q) = %q, %v; want %q", id, name, data, err, want.Profiles[name])
		}
	}
}

func TestRoundTrip(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		if s.Backend() != b.name {
			t.Errorf("Backend() = %q, want %q", s.Backend(), b.name)
		}
		// A commit time in another zone and with nanoseconds: it must
		// come back equal, in UTC.
		ct := time.Date(2025, 3, 4, 5, 6, 7, 123456789, time.FixedZone("CET", 3600))
		r := sampleRun("example.com/m", 7, ct)
		r.Profiles["z last"] = []byte{0, 1, 2, 255}
		r.Profiles["A first"] = []byte{}
		r.Durations[document.BenchKey{Package: "example.com/m/sub", Name: "BenchmarkB/size=10"}] = 1500 * time.Millisecond
		id, err := s.Save(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		if id == 0 || r.ID != id {
			t.Fatalf("Save returned %d and set r.ID = %d", id, r.ID)
		}
		checkWhole(t, s, id, r)

		ri, err := s.Run(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if ri.CommitTime != ct.UTC() || ri.CommitTime.Location() != time.UTC {
			t.Errorf("CommitTime = %v, want exactly %v", ri.CommitTime, ct.UTC())
		}
		want := RunInfo{
			ID: id, Module: "example.com/m", Commit: r.Commit, CommitTime: ct.UTC(),
			Started: ct.Add(time.Hour).UTC(), Subject: "commit 7", Fingerprint: testFP,
			FingerprintKey: testFP.Key(), Shard: "1/2", HasReport: true, Series: 1,
		}
		if !reflect.DeepEqual(*ri, want) {
			t.Errorf("Run = %+v\nwant  %+v", *ri, want)
		}
		names, err := s.ProfileNames(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		wantNames := []string{"A first", "example.com/m BenchmarkA.cpu.pprof", "example.com/m BenchmarkA.mem.pprof", "z last"}
		if !reflect.DeepEqual(names, wantNames) {
			t.Errorf("ProfileNames = %q, want %q", names, wantNames)
		}
		d, err := s.Durations(ctx, "example.com/m", testFP.Key())
		if err != nil {
			t.Fatal(err)
		}
		wantD := map[document.BenchKey]time.Duration{
			{Package: "example.com/m", Name: "BenchmarkA"}:             7 * time.Second,
			{Package: "example.com/m/sub", Name: "BenchmarkB/size=10"}: 1500 * time.Millisecond,
		}
		if !reflect.DeepEqual(d, wantD) {
			t.Errorf("Durations = %v, want %v", d, wantD)
		}

		// A run with no report, profiles, durations or times.
		bare := &Run{Module: "example.com/m", Commit: "abc", Results: []byte("BenchmarkX 1 1 ns/op\n")}
		if _, err := s.Save(ctx, bare); err != nil {
			t.Fatal(err)
		}
		rep, err := s.Report(ctx, bare.ID)
		if rep != nil || err != nil {
			t.Errorf("Report of a run without one = %q, %v; want nil, nil", rep, err)
		}
		names, err = s.ProfileNames(ctx, bare.ID)
		if len(names) != 0 || err != nil {
			t.Errorf("ProfileNames of a run without profiles = %q, %v", names, err)
		}
		ri, err = s.Run(ctx, bare.ID)
		if err != nil {
			t.Fatal(err)
		}
		if ri.HasReport || !ri.CommitTime.IsZero() || !ri.Started.IsZero() {
			t.Errorf("bare run = %+v, want no report and zero times", ri)
		}
	})
}

func TestNotFound(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		r := sampleRun("example.com/m", 1, time.Unix(1e9, 0))
		if _, err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
		missing := r.ID + 1000
		checks := map[string]error{}
		_, checks["Run"] = s.Run(ctx, missing)
		_, checks["Results"] = s.Results(ctx, missing)
		_, checks["Report"] = s.Report(ctx, missing)
		_, checks["ProfileNames"] = s.ProfileNames(ctx, missing)
		_, checks["Profile of a missing run"] = s.Profile(ctx, missing, "example.com/m BenchmarkA.cpu.pprof")
		_, checks["missing Profile"] = s.Profile(ctx, r.ID, "nope.pprof")
		for what, err := range checks {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: err = %v, want ErrNotFound", what, err)
			} else if !strings.Contains(err.Error(), strconv.FormatInt(r.ID, 10)) && !strings.Contains(err.Error(), strconv.FormatInt(missing, 10)) {
				t.Errorf("%s: error %q names no run id", what, err)
			}
		}
	})
}

func TestRunsOrder(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		// Saved out of commit order; two share a commit time (ID breaks
		// the tie), one has none (first), one is another module's.
		var ids []int64
		for _, c := range []struct {
			n      int
			module string
			ct     time.Time
		}{
			{1, "m", base.Add(3 * time.Hour)},
			{2, "m", base.Add(1 * time.Hour)},
			{3, "other", base},
			{4, "m", base.Add(2 * time.Hour)},
			{5, "m", base.Add(1 * time.Hour)},
			{6, "m", time.Time{}},
			{7, "m", base.Add(-time.Nanosecond)},
		} {
			r := sampleRun(c.module, c.n, c.ct)
			if _, err := s.Save(ctx, r); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, r.ID)
		}
		runs, err := s.Runs(ctx, "m")
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range runs {
			got = append(got, r.Subject)
		}
		want := []string{"commit 6", "commit 7", "commit 2", "commit 5", "commit 4", "commit 1"}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Runs order = %q, want %q", got, want)
		}
		if runs, err := s.Runs(ctx, "nobody"); err != nil || len(runs) != 0 {
			t.Errorf("Runs of an unknown module = %v, %v; want none", runs, err)
		}
	})
}

func TestDurations(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
		other := testFP
		other.GOMAXPROCS = 8
		kA, kB, kC := document.BenchKey{Package: "m", Name: "BenchmarkA"}, document.BenchKey{Package: "m", Name: "BenchmarkB"}, document.BenchKey{Package: "m", Name: "BenchmarkC"}
		save := func(fp Fingerprint, started time.Time, d map[document.BenchKey]time.Duration) {
			t.Helper()
			r := &Run{Module: "m", Commit: "c", Results: oneResult, Fingerprint: fp, Started: started, Durations: d}
			if _, err := s.Save(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
		if d, err := s.Durations(ctx, "m", testFP.Key()); err != nil || d == nil || len(d) != 0 {
			t.Fatalf("Durations of an empty store = %v, %v; want an empty map", d, err)
		}
		// Saved out of start order: the oldest measurement of A (100s)
		// falls out of the newest three.
		save(testFP, base.Add(4*time.Hour), map[document.BenchKey]time.Duration{kA: 4 * time.Second})
		save(testFP, base.Add(1*time.Hour), map[document.BenchKey]time.Duration{kA: 100 * time.Second, kB: 2 * time.Second})
		save(testFP, base.Add(3*time.Hour), map[document.BenchKey]time.Duration{kA: 9 * time.Second})
		save(testFP, base.Add(2*time.Hour), map[document.BenchKey]time.Duration{kA: 5 * time.Second, kB: 4 * time.Second})
		save(other, base.Add(5*time.Hour), map[document.BenchKey]time.Duration{kA: time.Hour, kC: time.Hour})
		d, err := s.Durations(ctx, "m", testFP.Key())
		if err != nil {
			t.Fatal(err)
		}
		want := map[document.BenchKey]time.Duration{kA: 5 * time.Second, kB: 3 * time.Second}
		if !reflect.DeepEqual(d, want) {
			t.Errorf("Durations = %v, want %v", d, want)
		}
		if d, err := s.Durations(ctx, "other module", testFP.Key()); err != nil || len(d) != 0 {
			t.Errorf("Durations of another module = %v, %v; want none", d, err)
		}
		// Of any machine: the newest three of A are 1h, 4s and 9s.
		d, err = s.Durations(ctx, "m", "")
		if want := map[document.BenchKey]time.Duration{kA: 9 * time.Second, kB: 3 * time.Second, kC: time.Hour}; err != nil || !reflect.DeepEqual(d, want) {
			t.Errorf("Durations of any machine = %v, %v; want %v", d, err, want)
		}
	})
}

// TestShardDurations: the shards of a commit, however many and however
// late, get the durations the first of them got; another commit's get
// the store's as they are then.
func TestShardDurations(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		kA := document.BenchKey{Package: "m", Name: "BenchmarkA"}
		ctx := context.Background()
		s := b.open(t)
		save := func(d map[document.BenchKey]time.Duration) {
			t.Helper()
			if _, err := s.Save(ctx, &Run{Module: "m", Commit: "c", Results: oneResult, Fingerprint: testFP, Started: time.Now(), Durations: d}); err != nil {
				t.Fatal(err)
			}
		}
		save(map[document.BenchKey]time.Duration{kA: time.Second})
		var wg sync.WaitGroup
		got := make([]map[document.BenchKey]time.Duration, 6)
		errs := make([]error, 6)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				got[i], errs[i] = b.open(t).ShardDurations(ctx, "m", "c2")
			}()
		}
		wg.Wait()
		for i := range got {
			if errs[i] != nil || !reflect.DeepEqual(got[i], map[document.BenchKey]time.Duration{kA: time.Second}) {
				t.Errorf("shard %d: %v, %v", i, got[i], errs[i])
			}
		}
		save(map[document.BenchKey]time.Duration{kA: 3 * time.Second})
		if d, err := s.ShardDurations(ctx, "m", "c2"); err != nil || d[kA] != time.Second {
			t.Errorf("a late shard of c2: %v, %v; want what the first got", d, err)
		}
		if d, err := s.ShardDurations(ctx, "m", "c3"); err != nil || d[kA] != 2*time.Second {
			t.Errorf("c3's shards: %v, %v; want the median of 1s and 3s", d, err)
		}
	})
}

func TestFingerprintKey(t *testing.T) {
	// Keys are stored with runs: this one must never change. A plain
	// build (Build "") keeps the key it had before builds were told
	// apart, so a team's history goes on.
	if got := testFP.Key(); got != goldenKey {
		t.Errorf("Key() = %q, want the golden %q", got, goldenKey)
	}
	race := testFP
	race.Build = "-race=true"
	if got := race.Key(); got != goldenRaceKey {
		t.Errorf("Key() with Build %q = %q, want the golden %q", race.Build, got, goldenRaceKey)
	}
	seen := map[string]Fingerprint{}
	variants := []Fingerprint{testFP, {}}
	for i := 0; i < 8; i++ {
		f := testFP
		switch i {
		case 6:
			f.Build = "-race=true"
		case 7:
			f.Build = "-gcflags=all=-N"
		case 0:
			f.CPU += " "
		case 1:
			f.GOMAXPROCS++
		case 2:
			f.GoVersion = "go1.26.9"
		case 3:
			f.GOOS = "darwin"
		case 4:
			f.GOARCH = "arm64"
		case 5:
			f.Kernel = ""
		}
		variants = append(variants, f)
	}
	// Fields that would run together if joined naively.
	variants = append(variants, Fingerprint{CPU: "a\n\"b\""}, Fingerprint{CPU: "a", GoVersion: "\n\"b\""})
	for _, f := range variants {
		k := f.Key()
		if prev, ok := seen[k]; ok {
			t.Errorf("%+v and %+v share key %q", prev, f, k)
		}
		seen[k] = f
	}
	if k := (Fingerprint{GOOS: "linux/x", GOARCH: "", GoVersion: "devel go1.27 +abc"}).Key(); strings.ContainsAny(k, " /+") || !strings.HasPrefix(k, "linux_x-unknown-devel_go1.27__abc-p0-") {
		t.Errorf("Key() = %q: want slugged fields", k)
	}
}

// goldenKey is testFP.Key() as computed when the key format was fixed;
// goldenRaceKey is its key with Build "-race=true".
const (
	goldenKey     = "linux-amd64-go1.26.8-p2-7e00b36c5ebc"
	goldenRaceKey = "linux-amd64-go1.26.8-p2-9fb8cdb15807"
)

func TestMigrations(t *testing.T) {
	for i, m := range migrations {
		if m.version != i+1 {
			t.Errorf("migrations[%d].version = %d, want %d", i, m.version, i+1)
		}
	}
	if SchemaVersion != len(migrations) {
		t.Errorf("SchemaVersion = %d, but there are %d migrations", SchemaVersion, len(migrations))
	}
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		r := sampleRun("m", 1, time.Unix(1e9, 0))
		if _, err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
		versions := func(s *Store) []int64 {
			t.Helper()
			rows, err := s.db.QueryContext(ctx, `SELECT version FROM schema_migrations ORDER BY version`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var vs []int64
			for rows.Next() {
				var v int64
				if err := rows.Scan(&v); err != nil {
					t.Fatal(err)
				}
				vs = append(vs, v)
			}
			return vs
		}
		want := versions(s)
		if len(want) != SchemaVersion || want[len(want)-1] != SchemaVersion {
			t.Fatalf("schema_migrations = %v, want 1..%d", want, SchemaVersion)
		}
		// Opening again (also through the locked path) changes nothing.
		s2 := b.open(t)
		if done, err := s2.migrateOne(ctx); err != nil || !done {
			t.Fatalf("migrateOne on an up-to-date store = %v, %v", done, err)
		}
		if got := versions(s2); !reflect.DeepEqual(got, want) {
			t.Errorf("after reopening, schema_migrations = %v, want %v", got, want)
		}
		checkWhole(t, s2, r.ID, r)

		// A store from a newer perfloop is refused, naming both versions.
		newer := SchemaVersion + 41
		if _, err := s.db.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 0)`, newer); err != nil {
			t.Fatal(err)
		}
		s3, err := Open(ctx, b.dsn)
		if err == nil {
			s3.Close()
			t.Fatal("Open of a store at a newer schema version succeeded")
		}
		for _, v := range []int{newer, SchemaVersion} {
			if !strings.Contains(err.Error(), strconv.Itoa(v)) {
				t.Errorf("error %q does not name version %d", err, v)
			}
		}
		t.Logf("newer schema: %v", err)
	})
}

func TestOpenDSN(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for _, dsn := range []string{
		"sqlite:" + filepath.Join(dir, "a", "b", "sqlite.db"),
		"file:" + filepath.Join(dir, "c", "file.db"),
		filepath.Join(dir, "d", "e", "plain.db"),
	} {
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Errorf("Open(%q): %v", dsn, err)
			continue
		}
		if s.Backend() != "sqlite" {
			t.Errorf("Open(%q).Backend() = %q", dsn, s.Backend())
		}
		var mode string
		if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
			t.Errorf("Open(%q): journal_mode = %q, %v; want wal", dsn, mode, err)
		}
		var fk int
		if err := s.db.QueryRowContext(ctx, `PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
			t.Errorf("Open(%q): foreign_keys = %d, %v; want 1", dsn, fk, err)
		}
		s.Close()
	}
	for _, p := range []string{"a/b/sqlite.db", "c/file.db", "d/e/plain.db"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Error(err)
		}
	}

	for _, dsn := range []string{
		"",
		"mysql://user@host/db",
		"sqlite:",
		"file:",
		":memory:",
		"sqlite::memory:",
		filepath.Join(dir, "x.db?mode=ro"),
	} {
		s, err := Open(ctx, dsn)
		if err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", dsn)
			continue
		}
		if !strings.Contains(err.Error(), fmt.Sprintf("%q", dsn)) || !strings.Contains(err.Error(), "postgres://") || !strings.Contains(err.Error(), "sqlite:PATH") {
			t.Errorf("Open(%q) error %q: want the DSN and the accepted forms", dsn, err)
		}
	}

	// A password never shows in an error.
	_, err := Open(ctx, "postgres://u:s3cret@127.0.0.1:1/db?sslmode=disable&connect_timeout=5")
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	if strings.Contains(err.Error(), "s3cret") || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("error %q: want the DSN without its password", err)
	}
}

func TestSaveInvalid(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		for name, r := range map[string]*Run{
			"no commit":           {Module: "m", Results: oneResult},
			"no results":          {Module: "m", Commit: "c"},
			"no benchmark result": {Module: "m", Commit: "c", Results: []byte("goos: linux\ncpu: x\n\nperfloop-version: (devel)\ndate: 2026-01-01T00:00:00Z\n")},
			"time out of range":   {Module: "m", Commit: "c", Results: oneResult, CommitTime: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)},
			"negative duration":   {Module: "m", Commit: "c", Results: oneResult, Durations: map[document.BenchKey]time.Duration{{Package: "m", Name: "BenchmarkA"}: -1}},
			"no benchmark name":   {Module: "m", Commit: "c", Results: oneResult, Durations: map[document.BenchKey]time.Duration{{Package: "m"}: time.Second}},
			"empty profile name":  {Module: "m", Commit: "c", Results: oneResult, Profiles: map[string][]byte{"": nil}},
		} {
			if _, err := s.Save(ctx, r); err == nil {
				t.Errorf("%s: Save succeeded", name)
			} else if r.ID != 0 {
				t.Errorf("%s: failed Save set ID %d", name, r.ID)
			}
		}
		if _, err := s.Save(ctx, nil); err == nil {
			t.Error("Save(nil) succeeded")
		}
		assertNoRows(t, s)
	})
}

// assertNoRows fails if any table but schema_migrations holds a row.
func assertNoRows(t *testing.T, s *Store) {
	t.Helper()
	for _, table := range []string{"runs", "profiles", "durations"} {
		var n int
		if err := s.db.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("%s holds %d rows after failed saves, want 0", table, n)
		}
	}
}

func TestSaveFailsWhole(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		s := b.open(t)
		// A trigger makes the database refuse one profile, after the run
		// row and the profiles sorted before it are inserted.
		var stmts []string
		switch s.Backend() {
		case "sqlite":
			stmts = []string{`CREATE TRIGGER refuse BEFORE INSERT ON profiles WHEN NEW.name = 'refused' BEGIN SELECT RAISE(ABORT, 'profile refused'); END`}
		case "postgres":
			stmts = []string{
				`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.name = 'refused' THEN RAISE EXCEPTION 'profile refused'; END IF; RETURN NEW; END $$`,
				`CREATE TRIGGER refuse BEFORE INSERT ON profiles FOR EACH ROW EXECUTE FUNCTION refuse()`,
			}
		}
		for _, stmt := range stmts {
			if _, err := s.db.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
		r := sampleRun("m", 1, time.Unix(1e9, 0))
		r.Profiles["refused"] = []byte("p")
		_, err := s.Save(ctx, r)
		if err == nil || !strings.Contains(err.Error(), "profile refused") {
			t.Fatalf("Save with a refused profile: err = %v", err)
		}
		if r.ID != 0 {
			t.Errorf("failed Save set ID %d", r.ID)
		}
		assertNoRows(t, s)

		// A cancelled context: nothing is stored either.
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		r = sampleRun("m", 2, time.Unix(1e9, 0))
		if _, err := s.Save(cctx, r); !errors.Is(err, context.Canceled) {
			t.Errorf("Save with a cancelled context: err = %v, want context.Canceled", err)
		}
		assertNoRows(t, s)

		// The store still works.
		r = sampleRun("m", 3, time.Unix(1e9, 0))
		if _, err := s.Save(ctx, r); err != nil {
			t.Fatal(err)
		}
		checkWhole(t, s, r.ID, r)
	})
}

func TestSaveCancelledMidway(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		s := b.open(t)
		// Contexts that expire ever later: some saves are cut off
		// somewhere inside, some finish. Every stored run must be whole.
		// The deadlines range up to 1.5 times what a save took here.
		big := func(n int) *Run {
			r := sampleRun("m", n, time.Unix(int64(n), 0))
			for p := 0; p < 100; p++ {
				r.Profiles[fmt.Sprintf("p%03d", p)] = bytes.Repeat([]byte{byte(p)}, 1000)
			}
			return r
		}
		start := time.Now()
		if _, err := s.Save(context.Background(), big(1000)); err != nil {
			t.Fatal(err)
		}
		step := time.Since(start) * 3 / 2 / 40
		saved, failed := 1, 0
		for i := 0; i < 40; i++ {
			r := big(i + 1)
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*step)
			_, err := s.Save(ctx, r)
			cancel()
			if err != nil {
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("Save: %v", err)
				}
				failed++
				continue
			}
			saved++
			checkWhole(t, s, r.ID, r)
		}
		runs, err := s.Runs(context.Background(), "m")
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != saved {
			t.Errorf("%d runs stored, %d saves succeeded", len(runs), saved)
		}
		var profiles int
		if err := s.db.QueryRow(`SELECT COUNT(*) FROM profiles`).Scan(&profiles); err != nil {
			t.Fatal(err)
		}
		if want := saved * 102; profiles != want {
			t.Errorf("%d profiles stored, want %d for %d whole runs", profiles, want, saved)
		}
		t.Logf("%s: %d saves cut off, %d finished", b.name, failed, saved)
	})
}

// checkAll checks that module's store holds exactly the runs saveRuns(module,
// writers, perWriter) saves, each whole.
func checkAll(t *testing.T, s *Store, module string, writers, perWriter int) {
	t.Helper()
	runs, err := s.Runs(context.Background(), module)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != writers*perWriter {
		t.Fatalf("%d runs stored, want %d", len(runs), writers*perWriter)
	}
	seen := map[string]bool{}
	for _, ri := range runs {
		if seen[ri.Commit] {
			t.Errorf("commit %s stored twice", ri.Commit)
		}
		seen[ri.Commit] = true
		n, err := strconv.ParseInt(ri.Commit, 16, 64)
		if err != nil {
			t.Fatal(err)
		}
		checkWhole(t, s, ri.ID, sampleRun(module, int(n), time.Unix(n, 0)))
	}
}

// saveRuns saves perWriter runs as writer w through s.
func saveRuns(ctx context.Context, s *Store, module string, w, perWriter int) error {
	for i := 0; i < perWriter; i++ {
		n := w*1000 + i + 1
		if _, err := s.Save(ctx, sampleRun(module, n, time.Unix(int64(n), 0))); err != nil {
			return fmt.Errorf("writer %d, run %d: %w", w, i, err)
		}
	}
	return nil
}

func TestConcurrentWriters(t *testing.T) {
	const writers, perWriter = 8, 10
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		start := time.Now()
		// Each writer opens the fresh store itself, so migrations race
		// too.
		var wg sync.WaitGroup
		errs := make(chan error, writers)
		for w := 0; w < writers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Open(ctx, b.dsn)
				if err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
				defer s.Close()
				errs <- saveRuns(ctx, s, "m", w, perWriter)
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		t.Logf("%s: %d writers × %d runs in %v", b.name, writers, perWriter, time.Since(start).Round(time.Millisecond))
		checkAll(t, b.open(t), "m", writers, perWriter)
	})
}

// childEnv, when set, makes TestCrossProcessWriters a child writer:
// "DSN\tWRITER".
const childEnv = "PERFLOOP_STORE_TEST_CHILD"

func TestCrossProcessWriters(t *testing.T) {
	const writers, perWriter = 4, 10
	if v := os.Getenv(childEnv); v != "" {
		dsn, w, _ := strings.Cut(v, "\t")
		writer, err := strconv.Atoi(w)
		if err != nil {
			t.Fatalf("%s=%q", childEnv, v)
		}
		s, err := Open(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := saveRuns(context.Background(), s, "m", writer, perWriter); err != nil {
			t.Fatal(err)
		}
		return
	}
	dsn := filepath.Join(t.TempDir(), "shared", "history.db")
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrossProcessWriters$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s\t%d", childEnv, dsn, w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("writer process %d: %v\n%s", w, err, out)
			} else if !strings.Contains(string(out), "--- PASS: TestCrossProcessWriters") {
				t.Errorf("writer process %d ran no test:\n%s", w, out)
			}
		}()
	}
	wg.Wait()
	t.Logf("sqlite: %d processes × %d runs in %v", writers, perWriter, time.Since(start).Round(time.Millisecond))
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkAll(t, s, "m", writers, perWriter)
}
