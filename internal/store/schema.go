package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// A migration moves the schema from version-1 to version. Its statements run
// in one transaction together with the row recording it in
// schema_migrations. Statements may use {{id}} (an auto-assigned 64-bit
// primary key), {{blob}} (a byte string) and {{clustered}} after a
// table's definition (its rows kept in primary key order, where the
// backend can: SQLite's WITHOUT ROWID, so that a series' samples are read
// in one stretch), which each backend spells its own way; everything else
// must be SQL that SQLite and PostgreSQL both accept.
type migration struct {
	version    int
	statements []string
	// backfill, if not nil, runs after the statements in the same
	// transaction: what SQL alone cannot derive from the rows already
	// stored.
	backfill func(ctx context.Context, s *Store, tx *sql.Tx) error
}

// migrations lists every migration in order; migrations[i] has version i+1.
// Append only: a released migration is never edited, since stores out there
// have already applied it.
var migrations = []migration{
	{1, []string{
		`CREATE TABLE runs (
			id {{id}},
			module TEXT NOT NULL,
			commit_hash TEXT NOT NULL,
			commit_time BIGINT,
			subject TEXT NOT NULL,
			fp_key TEXT NOT NULL,
			fp_cpu TEXT NOT NULL,
			fp_gomaxprocs BIGINT NOT NULL,
			fp_go TEXT NOT NULL,
			fp_goos TEXT NOT NULL,
			fp_goarch TEXT NOT NULL,
			fp_kernel TEXT NOT NULL,
			started BIGINT,
			shard TEXT NOT NULL,
			results {{blob}} NOT NULL,
			report {{blob}}
		)`,
		`CREATE INDEX runs_module_commit_time ON runs (module, commit_time)`,
		`CREATE INDEX runs_module_fp_started ON runs (module, fp_key, started)`,
		`CREATE TABLE profiles (
			run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
			name TEXT NOT NULL,
			data {{blob}} NOT NULL,
			PRIMARY KEY (run_id, name)
		)`,
		`CREATE TABLE durations (
			run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
			benchmark TEXT NOT NULL,
			nanos BIGINT NOT NULL,
			PRIMARY KEY (run_id, benchmark)
		)`,
	}, nil},
	// The build settings that change the code (Fingerprint.Build); runs
	// of plain builds, and all runs before, have none.
	{2, []string{
		`ALTER TABLE runs ADD COLUMN fp_build TEXT NOT NULL DEFAULT ''`,
	}, nil},
	// Each run's results by series (samples), its paired measurements
	// against the commit recorded before (steps), and what record
	// computed for each series (its change points, for history and serve
	// to read rather than compute): see series.go. The durations the
	// shards of a commit balance on (ShardDurations). The runs already stored get
	// their samples here; their change points are computed by the next
	// record (applied = 0).
	{3, []string{
		`ALTER TABLE runs ADD COLUMN series_count BIGINT NOT NULL DEFAULT 0`,
		`ALTER TABLE runs ADD COLUMN applied BIGINT NOT NULL DEFAULT 0`,
		`CREATE INDEX runs_module_applied ON runs (module, applied)`,
		`CREATE TABLE series (
			id {{id}},
			module TEXT NOT NULL,
			fp_key TEXT NOT NULL,
			pkg TEXT NOT NULL,
			name TEXT NOT NULL,
			procs BIGINT NOT NULL,
			unit TEXT NOT NULL,
			computed BIGINT NOT NULL DEFAULT 0,
			points BIGINT NOT NULL DEFAULT 0,
			last_value DOUBLE PRECISION,
			change_commit TEXT,
			change_delta DOUBLE PRECISION,
			change_time BIGINT,
			changes {{blob}},
			medians {{blob}},
			cache {{blob}}
		)`,
		`CREATE UNIQUE INDEX series_key ON series (module, fp_key, pkg, name, procs, unit)`,
		`CREATE INDEX series_recent ON series (module, fp_key, change_time)`,
		`CREATE TABLE samples (
			series_id BIGINT NOT NULL REFERENCES series (id) ON DELETE CASCADE,
			run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
			vals {{blob}} NOT NULL,
			PRIMARY KEY (series_id, run_id)
		) {{clustered}}`,
		`CREATE INDEX samples_run ON samples (run_id)`,
		`CREATE TABLE steps (
			series_id BIGINT NOT NULL REFERENCES series (id) ON DELETE CASCADE,
			run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
			base_commit TEXT NOT NULL,
			delta DOUBLE PRECISION NOT NULL,
			low DOUBLE PRECISION NOT NULL,
			high DOUBLE PRECISION NOT NULL,
			p DOUBLE PRECISION NOT NULL,
			significant BIGINT NOT NULL,
			before_value DOUBLE PRECISION NOT NULL,
			after_value DOUBLE PRECISION NOT NULL,
			PRIMARY KEY (series_id, run_id)
		) {{clustered}}`,
		`CREATE TABLE shard_durations (
			module TEXT NOT NULL,
			commit_hash TEXT NOT NULL,
			durations {{blob}} NOT NULL,
			PRIMARY KEY (module, commit_hash)
		)`,
		`CREATE TABLE commit_order (
			module TEXT NOT NULL,
			pos BIGINT NOT NULL,
			commit_hash TEXT NOT NULL,
			PRIMARY KEY (module, pos)
		)`,
	}, backfillSamples},
}

// SchemaVersion is the schema version this code reads and writes: the
// version of the last migration in migrations. Open migrates an older store
// up to it and refuses a store whose schema is newer.
const SchemaVersion = 3

// oldestReadable is the oldest schema version OpenReadOnly reads as it is,
// without migrating it: version 1 lacks only runs.fp_build, read as "".
const oldestReadable = 1

// advisoryLockKey is the PostgreSQL advisory lock that serializes migrations
// ("perfloop" in ASCII).
const advisoryLockKey int64 = 0x706572666c6f6f70

const createSchemaMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version BIGINT PRIMARY KEY,
	applied_at BIGINT NOT NULL
)`

// dialect rewrites a migration statement for the store's backend.
func (s *Store) dialect(stmt string) string {
	var r *strings.Replacer
	switch s.backend {
	case backendPostgres:
		r = strings.NewReplacer("{{id}}", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", "{{blob}}", "BYTEA", " {{clustered}}", "")
	default:
		// AUTOINCREMENT: ids of deleted runs are never reused, so an id
		// seen once (in a URL, a log) names one run forever.
		r = strings.NewReplacer("{{id}}", "INTEGER PRIMARY KEY AUTOINCREMENT", "{{blob}}", "BLOB", "{{clustered}}", "WITHOUT ROWID")
	}
	return r.Replace(stmt)
}

// migrate applies pending migrations, one transaction each. Each
// transaction first takes the store's migration lock (BEGIN IMMEDIATE on
// SQLite, pg_advisory_xact_lock on PostgreSQL) and then rereads the version,
// so processes opening a fresh store at once apply each migration once.
func (s *Store) migrate(ctx context.Context) error {
	// Fast path without any lock: a store already at SchemaVersion.
	var v sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err == nil {
		if err := s.checkVersion(v.Int64); err != nil {
			return err
		}
		if int(v.Int64) == SchemaVersion {
			return nil
		}
	}
	for {
		done, err := s.migrateOne(ctx)
		if err != nil {
			return err
		}
		if done {
			return nil
		}
	}
}

func (s *Store) checkVersion(v int64) error {
	if v > int64(SchemaVersion) {
		return fmt.Errorf("store %s: schema version %d is newer than version %d, the newest this perfloop knows; use a newer perfloop", s.name, v, SchemaVersion)
	}
	return nil
}

// checkSchema checks, without writing, that the store has perfloop's
// tables at a version this code reads.
func (s *Store) checkSchema(ctx context.Context) error {
	exists := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`
	if s.backend == backendPostgres {
		// The table search_path finds, as the queries will.
		exists = `SELECT COUNT(*) FROM (SELECT to_regclass('schema_migrations') AS t) AS r WHERE t IS NOT NULL`
	}
	var n int
	if err := s.db.QueryRowContext(ctx, exists).Scan(&n); err != nil {
		if notDatabase(err) {
			return fmt.Errorf("store %s: %s: %w", s.name, errNotStore, err)
		}
		return fmt.Errorf("store %s: read schema: %w", s.name, err)
	}
	if n == 0 {
		if s.backend == backendPostgres {
			return fmt.Errorf("store %s: %w", s.name, ErrNoStore)
		}
		return fmt.Errorf("store %s: %s (no schema_migrations table)", s.name, errNotStore)
	}
	var v sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		return fmt.Errorf("store %s: read schema version: %w", s.name, err)
	}
	if err := s.checkVersion(v.Int64); err != nil {
		return err
	}
	if v.Int64 < oldestReadable {
		return fmt.Errorf("store %s: schema version %d is older than version %d, the oldest this perfloop reads; run perfloop record (it migrates the store) or read it with the perfloop that wrote it", s.name, v.Int64, oldestReadable)
	}
	s.version = int(v.Int64)
	return s.checkTables(ctx)
}

// checkTables checks that the store's tables have the columns this code
// reads and writes, so that a damaged or foreign store is refused when it
// is opened rather than failing a query later.
func (s *Store) checkTables(ctx context.Context) error {
	queries := []string{
		`SELECT ` + s.runInfoColumns() + `, results FROM runs WHERE 1 = 0`,
		`SELECT run_id, name, data FROM profiles WHERE 1 = 0`,
		`SELECT run_id, benchmark, nanos FROM durations WHERE 1 = 0`,
	}
	if s.version >= 3 {
		queries = append(queries,
			`SELECT applied FROM runs WHERE 1 = 0`,
			`SELECT id, module, fp_key, pkg, name, procs, unit, computed, points, last_value,
				change_commit, change_delta, change_time, changes, medians, cache FROM series WHERE 1 = 0`,
			`SELECT series_id, run_id, vals FROM samples WHERE 1 = 0`,
			`SELECT series_id, run_id, base_commit, delta, low, high, p, significant, before_value, after_value FROM steps WHERE 1 = 0`,
			`SELECT module, pos, commit_hash FROM commit_order WHERE 1 = 0`,
			`SELECT module, commit_hash, durations FROM shard_durations WHERE 1 = 0`)
	}
	for _, q := range queries {
		rows, err := s.db.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("store %s: %s: %w", s.name, errNotStore, err)
		}
		rows.Close()
	}
	return nil
}

// migrateOne applies the next pending migration, if any, in one
// transaction. It reports done when the schema is up to date.
func (s *Store) migrateOne(ctx context.Context) (done bool, err error) {
	// On SQLite every transaction begins IMMEDIATE (see Open): the write
	// lock is taken here, before the version is read.
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store %s: migrate: begin: %w", s.name, err)
	}
	defer tx.Rollback()
	if s.backend == backendPostgres {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, advisoryLockKey); err != nil {
			return false, fmt.Errorf("store %s: migrate: lock: %w", s.name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, createSchemaMigrations); err != nil {
		return false, fmt.Errorf("store %s: migrate: create schema_migrations: %w", s.name, err)
	}
	var v sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&v); err != nil {
		return false, fmt.Errorf("store %s: migrate: read version: %w", s.name, err)
	}
	if err := s.checkVersion(v.Int64); err != nil {
		return false, err
	}
	if int(v.Int64) == SchemaVersion {
		if err := tx.Commit(); err != nil {
			return false, fmt.Errorf("store %s: migrate: commit: %w", s.name, err)
		}
		return true, nil
	}
	m := migrations[v.Int64]
	for _, stmt := range m.statements {
		if _, err := tx.ExecContext(ctx, s.dialect(stmt)); err != nil {
			return false, fmt.Errorf("store %s: migration %d: %w", s.name, m.version, err)
		}
	}
	if m.backfill != nil {
		if err := m.backfill(ctx, s, tx); err != nil {
			return false, fmt.Errorf("store %s: migration %d: %w", s.name, m.version, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)`,
		m.version, time.Now().UnixNano()); err != nil {
		return false, fmt.Errorf("store %s: migration %d: record version: %w", s.name, m.version, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store %s: migration %d: commit: %w", s.name, m.version, err)
	}
	return false, nil
}
