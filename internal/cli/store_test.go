package cli

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/perfloop/perfloop/internal/store"
)

// dirState describes every file under dir: its size, modification time
// and a hash of its contents, by path relative to dir.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	state := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			state[rel] = "dir"
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		state[rel] = fmt.Sprintf("%d bytes, modified %d, sha256 %x", info.Size(), info.ModTime().UnixNano(), sha256.Sum256(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// sqliteExec runs statements on the SQLite file at path, creating it.
func sqliteExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// recordedStore makes a perfloop store at path holding one run.
func recordedStore(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, err = st.Save(ctx, &store.Run{Module: "example.com/m", Commit: strings.Repeat("1", 40), Started: time.Now(),
		Results: []byte("pkg: example.com/m\nBenchmarkWork-2 100 1000 ns/op\n")})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReadCommandsBadStore: history and serve, given a store that is
// missing, not a database or not perfloop's, exit 2 with one line naming
// it, and leave its directory as it was: nothing created, nothing
// migrated, no journal files.
func TestReadCommandsBadStore(t *testing.T) {
	t.Chdir(t.TempDir()) // outside any module
	tests := []struct {
		name string
		file string // the store, under the test's directory
		make func(t *testing.T, path string)
		want string
	}{
		{"missing", "history.db", nil, "no perfloop store"},
		{"missing directory", "typo/history.db", nil, "no perfloop store"},
		{"empty file", "history.db", func(t *testing.T, path string) {
			os.WriteFile(path, nil, 0o644)
		}, "not a perfloop store"},
		{"not a database", "history.db", func(t *testing.T, path string) {
			os.WriteFile(path, []byte(strings.Repeat("not a database\n", 100)), 0o644)
		}, "not a perfloop store"},
		{"another program's database", "history.db", func(t *testing.T, path string) {
			sqliteExec(t, path, `CREATE TABLE notes (body TEXT)`, `INSERT INTO notes VALUES ('mine')`)
		}, "not a perfloop store"},
		{"a perfloop schema version but no tables", "history.db", func(t *testing.T, path string) {
			sqliteExec(t, path, `CREATE TABLE schema_migrations (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)`,
				fmt.Sprintf(`INSERT INTO schema_migrations VALUES (%d, 0)`, store.SchemaVersion))
		}, "not a perfloop store"},
		{"newer schema", "history.db", func(t *testing.T, path string) {
			recordedStore(t, path)
			sqliteExec(t, path, `INSERT INTO schema_migrations VALUES (1000, 0)`)
		}, "newer"},
	}
	for _, tt := range tests {
		for _, cmd := range [][]string{{"history"}, {"serve", "-addr", "127.0.0.1:0"}} {
			t.Run(tt.name+"/"+cmd[0], func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, tt.file)
				if tt.make != nil {
					tt.make(t, path)
				}
				before := dirState(t, dir)
				// A serve that opened the store would serve until
				// cancelled: the deadline keeps the test from hanging.
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				var out, errOut strings.Builder
				args := append(append([]string{}, cmd...), "-store", path)
				code := Run(ctx, args, Streams{Out: &out, Err: &errOut})
				lines := strings.Split(strings.TrimSpace(errOut.String()), "\n")
				if code != ExitUsage || len(lines) != 1 || !strings.Contains(lines[0], path) || !strings.Contains(lines[0], tt.want) {
					t.Errorf("perfloop %s: exit %d, stderr %q; want exit %d and one line naming %s and saying %q",
						strings.Join(args, " "), code, errOut.String(), ExitUsage, path, tt.want)
				}
				if after := dirState(t, dir); !reflect.DeepEqual(after, before) {
					t.Errorf("perfloop %s changed the store's directory:\nbefore %v\nafter  %v", strings.Join(args, " "), before, after)
				}
			})
		}
	}
}
