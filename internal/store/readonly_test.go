package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// files describes every file under dir (size, modification time, a hash
// of the contents), by name relative to dir.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		state[rel] = fmt.Sprintf("%d bytes, modified %d, sha256 %x", info.Size(), info.ModTime().UnixNano(), sha256.Sum256(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// tables lists the tables of b's database (for PostgreSQL, of the test's
// schema).
func tables(t *testing.T, b backend) []string {
	t.Helper()
	driver, dsn := "pgx", b.dsn
	q := `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`
	if b.name == "sqlite" {
		if _, err := os.Stat(b.dsn); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		driver, dsn = "sqlite", "file://"+b.dsn+"?mode=ro"
		q = `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names = append(names, n)
	}
	return names
}

// saveAndClose stores r with a store of its own, closed before returning.
func saveAndClose(t *testing.T, dsn string, r *Run) {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Save(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

func TestOpenReadOnly(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		// Nothing there yet: an error, and nothing is created.
		if s, err := OpenReadOnly(ctx, b.dsn); !errors.Is(err, ErrNoStore) {
			if err == nil {
				s.Close()
			}
			t.Fatalf("OpenReadOnly of no store: err = %v, want ErrNoStore", err)
		}
		if b.name == "sqlite" {
			if _, err := os.Stat(filepath.Dir(b.dsn)); err != nil {
				t.Fatal(err)
			}
			if entries, _ := os.ReadDir(filepath.Dir(b.dsn)); len(entries) > 0 {
				t.Errorf("OpenReadOnly of no store left %v", entries)
			}
		}
		if got := tables(t, b); len(got) > 0 {
			t.Errorf("OpenReadOnly of no store created tables %v", got)
		}

		r := sampleRun("m", 1, time.Unix(1e9, 0))
		saveAndClose(t, b.dsn, r)
		var before map[string]string
		if b.name == "sqlite" {
			before = files(t, filepath.Dir(b.dsn))
		}
		s, err := OpenReadOnly(ctx, b.dsn)
		if err != nil {
			t.Fatal(err)
		}
		checkWhole(t, s, r.ID, r)
		if _, err := s.Durations(ctx, "m", testFP.Key()); err != nil {
			t.Error(err)
		}
		if _, err := s.Save(ctx, sampleRun("m", 2, time.Unix(2e9, 0))); err == nil {
			t.Error("Save on a read-only store succeeded")
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		if runs := readRuns(t, b.dsn); len(runs) != 1 {
			t.Errorf("after a Save on a read-only store, %d runs, want 1", len(runs))
		}
		if b.name == "sqlite" {
			if after := files(t, filepath.Dir(b.dsn)); !reflect.DeepEqual(after, before) {
				t.Errorf("reading changed the store's directory:\nbefore %v\nafter  %v", before, after)
			}
		}
	})
}

// readRuns returns module m's runs, read with a read-only store.
func readRuns(t *testing.T, dsn string) []RunInfo {
	t.Helper()
	s, err := OpenReadOnly(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	runs, err := s.Runs(context.Background(), "m")
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

// TestOpenReadOnlyNotWritable reads a SQLite store as a user who may not
// write it (root may write anything, so the permission check is replaced):
// with no writer, as immutable and leaving no file behind; beside a
// writer, seeing what it saves after the reader opened.
func TestOpenReadOnlyNotWritable(t *testing.T) {
	defer func(w func(string) bool) { writable = w }(writable)
	writable = func(string) bool { return false }
	ctx := context.Background()
	dir := t.TempDir()
	dsn := filepath.Join(dir, "history.db")
	r1 := sampleRun("m", 1, time.Unix(1e9, 0))
	saveAndClose(t, dsn, r1)

	before := files(t, dir)
	s, err := OpenReadOnly(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	checkWhole(t, s, r1.ID, r1)
	s.Close()
	if after := files(t, dir); !reflect.DeepEqual(after, before) {
		t.Errorf("reading changed the store's directory:\nbefore %v\nafter  %v", before, after)
	}

	w, err := Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	s, err = OpenReadOnly(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	r2 := sampleRun("m", 2, time.Unix(2e9, 0))
	if _, err := w.Save(ctx, r2); err != nil {
		t.Fatal(err)
	}
	checkWhole(t, s, r2.ID, r2)
}

// TestOpenReadOnlyPermissions reads a SQLite store whose file, and then
// also its directory, the process may not write. Root may write whatever
// the permission bits say, so the test needs another user.
func TestOpenReadOnlyPermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root, which may write whatever the permission bits say: run as another user to test a store it may not write")
	}
	dir := filepath.Join(t.TempDir(), "store")
	dsn := filepath.Join(dir, "history.db")
	r := sampleRun("m", 1, time.Unix(1e9, 0))
	saveAndClose(t, dsn, r)
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for _, step := range []struct {
		path string
		mode fs.FileMode
	}{{dsn, 0o444}, {dir, 0o555}} {
		if err := os.Chmod(step.path, step.mode); err != nil {
			t.Fatal(err)
		}
		before := files(t, dir)
		s, err := OpenReadOnly(context.Background(), dsn)
		if err != nil {
			t.Fatalf("%s mode %v: %v", step.path, step.mode, err)
		}
		checkWhole(t, s, r.ID, r)
		s.Close()
		if after := files(t, dir); !reflect.DeepEqual(after, before) {
			t.Errorf("%s mode %v: reading changed the store's directory:\nbefore %v\nafter  %v", step.path, step.mode, before, after)
		}
	}
}

// TestOpenReadOnlyRefuses: a read-only open of what is not a store this
// perfloop reads fails with an error that says why, and changes nothing.
func TestOpenReadOnlyRefuses(t *testing.T) {
	ctx := context.Background()
	exec := func(t *testing.T, dsn string, stmts ...string) {
		t.Helper()
		s, err := Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for _, stmt := range stmts {
			if _, err := s.db.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
	}
	raw := func(t *testing.T, dsn string, stmts ...string) {
		t.Helper()
		db, err := sql.Open("sqlite", dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, stmt := range stmts {
			if _, err := db.ExecContext(ctx, stmt); err != nil {
				t.Fatal(err)
			}
		}
	}
	tests := []struct {
		name string
		make func(t *testing.T, dsn string)
		want []string
	}{
		{"a directory", func(t *testing.T, dsn string) { os.Mkdir(dsn, 0o755) }, []string{errNotStore}},
		{"an empty file", func(t *testing.T, dsn string) { os.WriteFile(dsn, nil, 0o644) }, []string{errNotStore}},
		{"not a database", func(t *testing.T, dsn string) {
			os.WriteFile(dsn, []byte(strings.Repeat("text\n", 1000)), 0o644)
		}, []string{errNotStore, "not a database"}},
		{"another program's database", func(t *testing.T, dsn string) {
			raw(t, dsn, `CREATE TABLE notes (body TEXT)`)
		}, []string{errNotStore}},
		{"no runs table", func(t *testing.T, dsn string) {
			exec(t, dsn, `DROP TABLE durations`, `DROP TABLE profiles`, `DROP TABLE runs`)
		}, []string{errNotStore, "runs"}},
		{"a newer schema", func(t *testing.T, dsn string) {
			exec(t, dsn, `INSERT INTO schema_migrations (version, applied_at) VALUES (1000, 0)`)
		}, []string{"1000", "newer"}},
		{"an older schema", func(t *testing.T, dsn string) {
			exec(t, dsn, fmt.Sprintf(`DELETE FROM schema_migrations WHERE version >= %d`, oldestReadable))
		}, []string{"older", "perfloop record"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			dsn := filepath.Join(dir, "history.db")
			tt.make(t, dsn)
			before := files(t, dir)
			s, err := OpenReadOnly(ctx, dsn)
			if err == nil {
				s.Close()
				t.Fatal("OpenReadOnly succeeded")
			}
			for _, w := range append(tt.want, dsn) {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q is more than one line", err)
			}
			if after := files(t, dir); !reflect.DeepEqual(after, before) {
				t.Errorf("OpenReadOnly changed the store's directory:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
}

// v1Store makes b's database a store at schema version 1, as perfloop
// made it before the build settings were kept, holding run r.
func v1Store(t *testing.T, b backend, r *Run) {
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
	for _, stmt := range migrations[0].statements {
		stmts = append(stmts, s.dialect(stmt))
	}
	stmts = append(stmts, `INSERT INTO schema_migrations (version, applied_at) VALUES (1, 0)`)
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	fp := r.Fingerprint
	err = db.QueryRow(`INSERT INTO runs (module, commit_hash, commit_time, subject,
			fp_key, fp_cpu, fp_gomaxprocs, fp_go, fp_goos, fp_goarch, fp_kernel,
			started, shard, results, report)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
		r.Module, r.Commit, r.CommitTime.UnixNano(), r.Subject,
		fp.Key(), fp.CPU, fp.GOMAXPROCS, fp.GoVersion, fp.GOOS, fp.GOARCH, fp.Kernel,
		r.Started.UnixNano(), r.Shard, r.Results, r.Report).Scan(&r.ID)
	if err != nil {
		t.Fatal(err)
	}
}

// TestOlderSchema: a store at schema version 1 (before the build settings
// were kept) is read as it is by a read-only open, its runs with no build
// settings and their keys unchanged; Open migrates it, and its runs read
// the same after.
func TestOlderSchema(t *testing.T) {
	forEach(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		old := sampleRun("m", 1, time.Unix(1e9, 0))
		old.Profiles, old.Durations = nil, nil
		v1Store(t, b, old)
		var before map[string]string
		if b.name == "sqlite" {
			before = files(t, filepath.Dir(b.dsn))
		}

		ro, err := OpenReadOnly(ctx, b.dsn)
		if err != nil {
			t.Fatal(err)
		}
		checkWhole(t, ro, old.ID, old)
		runs, err := ro.Runs(ctx, "m")
		if err != nil || len(runs) != 1 || runs[0].FingerprintKey != goldenKey || runs[0].Fingerprint.Build != "" {
			t.Errorf("Runs of a version 1 store = %+v, %v; want the run, key %s", runs, err, goldenKey)
		}
		ro.Close()
		if b.name == "sqlite" {
			if after := files(t, filepath.Dir(b.dsn)); !reflect.DeepEqual(after, before) {
				t.Errorf("reading a version 1 store changed it:\nbefore %v\nafter  %v", before, after)
			}
		}

		s := b.open(t)
		checkWhole(t, s, old.ID, old)
		race := sampleRun("m", 2, time.Unix(2e9, 0))
		race.Fingerprint.Build = "-race=true"
		if _, err := s.Save(ctx, race); err != nil {
			t.Fatal(err)
		}
		checkWhole(t, s, race.ID, race)
		if ri, err := s.Run(ctx, race.ID); err != nil || ri.FingerprintKey == goldenKey || ri.FingerprintKey != race.Fingerprint.Key() {
			t.Errorf("run built with -race: key %q, %v; want %q, not the plain build's", ri.FingerprintKey, err, race.Fingerprint.Key())
		}
	})
}
