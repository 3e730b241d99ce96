// Package store keeps perfloop's benchmark history: one row per run, with the
// run's raw outputs beside it.
//
// Its opinions:
//
//   - A run is the unit. Save stores a run whole, in one transaction, or not
//     at all; nothing ever sees half a run. Runs are only added: history is
//     not edited.
//   - The store keeps what the benchmarks said, not what perfloop made of
//     it: results as benchfmt text, report.json and pprof profiles as the
//     bytes they were. Judging happens elsewhere, so a better analysis
//     later can be run over the old history. Two things are derived and
//     kept beside, for speed: each run's results by series (Samples: a
//     history reads them without parsing a thing), and what history
//     computed for each series when a run was recorded (SeriesState,
//     written in a HistoryTx). Both can be rebuilt from the runs, and
//     the state says which runs it has taken in (Unapplied), so a reader
//     knows when it is current.
//   - Numbers are compared only within one Fingerprint (CPU, GOMAXPROCS, Go
//     version, OS, arch, kernel, the build settings that change the code).
//     The store records it with every run and hands it back; it never
//     mixes runs across fingerprints itself.
//   - Two backends, one behaviour: SQLite (a file, the default, for one
//     machine or one CI cache) and PostgreSQL (shared by many machines). The
//     same SQL runs on both, times are stored the same way on both, and the
//     tests run against both.
//   - Opening a store brings its schema up to date, safely even when several
//     processes open a fresh store at once, and refuses a store written by a
//     newer perfloop rather than guess at it.
//   - Reading is not writing: OpenReadOnly creates nothing, migrates
//     nothing and writes nothing, so a store on read-only storage, or one
//     the reader may not write, can still be read; a missing store is an
//     error, not a new empty store.
//
// Times are stored as integer nanoseconds since the Unix epoch (UTC), so
// they round-trip exactly to the nanosecond on both backends and come back
// in UTC; the zero time.Time is stored as NULL and comes back as the zero
// time. Times outside the years 1678–2262 cannot be stored.
package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
	"golang.org/x/perf/benchfmt"
	"modernc.org/sqlite" // database/sql driver "sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/perfloop/perfloop/internal/document"
)

// ErrNotFound is matched (with errors.Is) by the error for a run or
// profile that the store does not have.
var ErrNotFound = errors.New("not found")

// ErrNoStore is matched (with errors.Is) by OpenReadOnly's error for a
// store that does not exist: no such SQLite file, or a PostgreSQL database
// without perfloop's tables.
var ErrNoStore = errors.New("no perfloop store there (perfloop record creates one)")

// errNotStore is the start of the error for a database that is not a
// perfloop store (not a database at all, or one without perfloop's tables).
const errNotStore = "not a perfloop store"

// Run is one benchmark run, as Save stores it.
type Run struct {
	ID          int64     // set by Save
	Module      string    // module path
	Commit      string    // full commit hash (required)
	CommitTime  time.Time // commit's committer time
	Subject     string    // commit subject line
	Fingerprint Fingerprint
	Started     time.Time                           // when the run began
	Shard       string                              // "" or "i/n"
	Results     []byte                              // benchfmt text (go test -bench output format), required
	Report      []byte                              // report.json, may be nil (empty counts as none)
	Profiles    map[string][]byte                   // name → pprof bytes, e.g. "example.com/m BenchmarkX.cpu.pprof"; may be nil
	Durations   map[document.BenchKey]time.Duration // wall time each benchmark's runs took, kept as "pkg BenchmarkName"; for sharding
	// Steps are the run's paired measurements against an earlier commit
	// (see Step); each goes with the run's series of its benchmark and
	// unit, whatever their GOMAXPROCS, and one whose benchmark the
	// results do not hold is not kept.
	Steps []Step
}

// Step is a paired measurement of a run's commit against an earlier
// commit, both measured in the same job, interleaved (perfloop record
// measures its commit against the one recorded before it): what happens
// to the machine meanwhile happens to both sides alike, so a loaded
// machine, which moves the level of every run, does not move it.
type Step struct {
	Key         SeriesKey // the benchmark and unit (Procs is not matched)
	Base        string    // the earlier commit, a full hash
	Delta       float64   // the median per-round change, this commit/Base − 1
	Low, High   float64   // its 95% interval
	P           float64   // the paired test's p-value
	Significant bool      // decided changed, at the run's level across its rows
	// Before and After are each side's median in the paired run.
	Before, After float64
}

// RunInfo is a run without its blobs.
type RunInfo struct {
	ID             int64
	Module         string
	Commit         string
	CommitTime     time.Time // UTC, or zero
	Started        time.Time // UTC, or zero
	Subject        string
	Fingerprint    Fingerprint
	FingerprintKey string // Fingerprint.Key() as stored with the run
	Shard          string
	HasReport      bool
	// Series is how many series the run's results hold (0: none, or a
	// store at a schema before 3, read as it is: see HasSeries).
	Series int
	// Applied says a history update has taken the run in (see
	// HistoryTx).
	Applied bool
}

// Backend names.
const (
	backendSQLite   = "sqlite"
	backendPostgres = "postgres"
)

// Store is an open benchmark-history store. It is safe for concurrent use by
// multiple goroutines, and several Stores (in one process or many) may use
// the same database at once.
type Store struct {
	db       *sql.DB
	backend  string
	name     string // the DSN with any password redacted, for errors
	readOnly bool
	version  int // the schema version read and written
}

// sqliteBusyTimeout is how long a SQLite writer waits for another writer's
// lock before failing. Saves are short; this is generous so that many
// concurrent writers on a slow machine queue instead of failing.
const sqliteBusyTimeout = 60 * time.Second

// Open opens the store that dsn names and applies any pending schema
// migrations.
//
// A dsn of the form "postgres://…" or "postgresql://…" is a PostgreSQL
// connection URL (as pgx accepts it, e.g.
// "postgres://user:pass@host:5432/db?sslmode=disable"; its query may set
// runtime parameters such as search_path). Anything else is a SQLite
// database file: "sqlite:PATH", "file:PATH" or a plain PATH. A SQLite
// file's parent directories are created; the database runs in WAL mode,
// with foreign keys on and a busy timeout so that concurrent writers wait
// for each other instead of failing.
func Open(ctx context.Context, dsn string) (*Store, error) {
	return open(ctx, dsn, false)
}

// OpenReadOnly opens the store that dsn names (as Open takes it) for
// reading. It creates nothing, applies no migration and writes nothing: a
// missing store is an error matching ErrNoStore; a database that is not a
// perfloop store, or whose schema is newer or older than this perfloop
// reads, is an error saying so. Save on the store fails.
//
// A SQLite file that the process may write is opened as usual but refuses
// writes (SQLite's query_only), so it takes part in the locking of
// concurrent writers; the -wal and -shm files SQLite keeps beside it while
// it is open are removed when it closes. A file or directory the process
// may not write is opened read-only, and as immutable when no writer has it
// open (no -wal file), since SQLite cannot create the -shm file it would
// otherwise need. A PostgreSQL store's sessions are read-only
// (default_transaction_read_only).
func OpenReadOnly(ctx context.Context, dsn string) (*Store, error) {
	return open(ctx, dsn, true)
}

func open(ctx context.Context, dsn string, readOnly bool) (*Store, error) {
	backend, target, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	s := &Store{backend: backend, name: redact(dsn), readOnly: readOnly}
	switch backend {
	case backendPostgres:
		if readOnly {
			target, err = readOnlyURL(target)
			if err != nil {
				return nil, fmt.Errorf("store %s: %w", s.name, err)
			}
		}
		s.db, err = sql.Open("pgx", target)
		if err != nil {
			return nil, fmt.Errorf("store %s: open: %w", s.name, err)
		}
	case backendSQLite:
		name, err := s.sqliteName(target)
		if err != nil {
			return nil, err
		}
		s.db, err = sql.Open("sqlite", name)
		if err != nil {
			return nil, fmt.Errorf("store %s: open: %w", s.name, err)
		}
	}
	if err := s.setup(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// sqliteName returns the name to open the SQLite file at path with: the
// path and the driver's parameters, or a file: URI for SQLite's own
// read-only modes. For writing it creates path's parent directories; for
// reading it checks that path exists.
func (s *Store) sqliteName(path string) (string, error) {
	q := url.Values{}
	// Per connection. WAL mode is a property of the file, set once in
	// setup.
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", sqliteBusyTimeout.Milliseconds()))
	if !s.readOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return "", fmt.Errorf("store %s: %w", s.name, err)
		}
		q.Add("_pragma", "foreign_keys(1)")
		// Every transaction takes the write lock at BEGIN: a
		// transaction that reads and then writes could otherwise fail
		// with SQLITE_BUSY, which no busy timeout helps with.
		q.Set("_txlock", "immediate")
		return path + "?" + q.Encode(), nil
	}
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("store %s: %w", s.name, ErrNoStore)
	case err != nil:
		return "", fmt.Errorf("store %s: %w", s.name, err)
	case !info.Mode().IsRegular():
		return "", fmt.Errorf("store %s: %s: not a file", s.name, errNotStore)
	}
	q.Add("_pragma", "query_only(1)")
	if writable(path) && writable(filepath.Dir(path)) {
		return path + "?" + q.Encode(), nil
	}
	q.Set("mode", "ro")
	if _, err := os.Lstat(path + "-wal"); errors.Is(err, fs.ErrNotExist) {
		// No connection has the database open in WAL mode, and
		// without write permission none can: nothing will change it
		// while it is read.
		q.Set("immutable", "1")
	}
	// A URI, so that SQLite sees mode and immutable (the driver passes
	// the query of a file: name on, and reads its own parameters from it).
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter
	}
	return "file://" + (&url.URL{Path: p}).EscapedPath() + "?" + q.Encode(), nil
}

// readOnlyURL returns the PostgreSQL URL dsn with every transaction of its
// sessions read-only.
func readOnlyURL(dsn string) (string, error) {
	u, err := url.Parse(dsn)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set("default_transaction_read_only", "on")
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// setup connects, puts a SQLite file in WAL mode and migrates the schema;
// for a read-only store it connects and checks the schema.
//
// On SQLite it retries while the file is busy. The busy timeout does not
// cover everything here: while another process switches a fresh file to WAL
// mode or recovers its WAL, SQLite answers SQLITE_BUSY at once rather than
// risk a deadlock by waiting.
func (s *Store) setup(ctx context.Context) error {
	once := func() error {
		if err := s.db.PingContext(ctx); err != nil {
			if notDatabase(err) {
				return fmt.Errorf("store %s: %s: %w", s.name, errNotStore, err)
			}
			return fmt.Errorf("store %s: connect: %w", s.name, err)
		}
		if s.readOnly {
			return s.checkSchema(ctx)
		}
		if s.backend == backendSQLite {
			var mode string
			if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode = WAL`).Scan(&mode); err != nil {
				return fmt.Errorf("store %s: set WAL mode: %w", s.name, err)
			}
			if !strings.EqualFold(mode, "wal") {
				return fmt.Errorf("store %s: set WAL mode: journal mode is still %q", s.name, mode)
			}
		}
		if err := s.migrate(ctx); err != nil {
			return err
		}
		s.version = SchemaVersion
		return s.checkTables(ctx)
	}
	if s.backend != backendSQLite {
		return once()
	}
	deadline := time.Now().Add(sqliteBusyTimeout)
	wait := time.Millisecond
	for {
		err := once()
		var se *sqlite.Error
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || time.Now().After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (%w)", err, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// writable reports whether the process may write a path; tests replace it
// to play a user who may not.
var writable = canWrite

// notDatabase reports whether err is SQLite's answer for a file that is
// not a SQLite database.
func notDatabase(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_NOTADB
}

// dsnForms is what the DSN errors say is accepted.
const dsnForms = `accepted: "postgres://…" or "postgresql://…" for PostgreSQL; "sqlite:PATH", "file:PATH" or a plain file path for SQLite`

// parseDSN returns the backend that dsn names and what to hand its driver:
// the URL for PostgreSQL, an absolute file path for SQLite.
func parseDSN(dsn string) (backend, target string, err error) {
	bad := func(why string) error {
		return fmt.Errorf("store %q: %s; %s", redact(dsn), why, dsnForms)
	}
	if strings.TrimSpace(dsn) == "" {
		return "", "", bad("empty DSN")
	}
	lower := strings.ToLower(dsn)
	if strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://") {
		if _, err := url.Parse(dsn); err != nil {
			return "", "", bad("not a valid URL")
		}
		return backendPostgres, dsn, nil
	}
	path := dsn
	switch {
	case strings.HasPrefix(lower, "sqlite:"):
		path = dsn[len("sqlite:"):]
	case strings.HasPrefix(lower, "file:"):
		path = dsn[len("file:"):]
	case strings.Contains(dsn, "://"):
		return "", "", bad(fmt.Sprintf("unknown scheme %q", dsn[:strings.Index(dsn, "://")]))
	}
	switch {
	case path == "":
		return "", "", bad("no file path")
	case path == ":memory:" || strings.HasPrefix(path, "file::memory:"):
		return "", "", bad("an in-memory SQLite database keeps no history")
	case strings.ContainsAny(path, "?#"):
		return "", "", bad("a SQLite path may not contain '?' or '#' (no URI parameters)")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", bad(err.Error())
	}
	return backendSQLite, abs, nil
}

// redact returns dsn with any password replaced by "xxxxx".
func redact(dsn string) string {
	lower := strings.ToLower(dsn)
	if !strings.HasPrefix(lower, "postgres://") && !strings.HasPrefix(lower, "postgresql://") {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		// Don't echo what might hold a password.
		if i := strings.Index(dsn, "://"); i >= 0 {
			return dsn[:i] + "://…"
		}
		return "…"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// Close closes the store.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store %s: close: %w", s.name, err)
	}
	return nil
}

// Backend returns "sqlite" or "postgres".
func (s *Store) Backend() string { return s.backend }

// Name returns the DSN the store was opened with, any password redacted: the
// name its errors use.
func (s *Store) Name() string { return s.name }

var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// timeValue encodes t for a BIGINT column: nanoseconds since the epoch, or
// NULL for the zero time.
func timeValue(t time.Time) (any, error) {
	if t.IsZero() {
		return nil, nil
	}
	if t.Before(minTime) || t.After(maxTime) {
		return nil, fmt.Errorf("time %s outside the storable range %s to %s", t, minTime.UTC(), maxTime.UTC())
	}
	return t.UnixNano(), nil
}

// timeFrom decodes a column timeValue wrote.
func timeFrom(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return time.Unix(0, n.Int64).UTC()
}

// Save stores r, with its results, report, profiles and durations, in one
// transaction: the run is stored whole or not at all. It sets r.ID and
// returns it. Commit and Results are required, and Results must hold at
// least one benchmark result: an empty run is never stored.
func (s *Store) Save(ctx context.Context, r *Run) (int64, error) {
	if r == nil {
		return 0, fmt.Errorf("store %s: save run: nil run", s.name)
	}
	id, err := s.save(ctx, r)
	if err != nil {
		if cerr := ctxErr(ctx); cerr != nil && !errors.Is(err, cerr) {
			// Drivers report a cancelled statement in their own
			// words ("bad connection", "interrupted"): say why.
			err = fmt.Errorf("%w (%w)", err, cerr)
		}
		return 0, fmt.Errorf("store %s: save run of %s at %s: %w", s.name, r.Module, r.Commit, err)
	}
	r.ID = id
	return id, nil
}

func (s *Store) save(ctx context.Context, r *Run) (int64, error) {
	if r.Commit == "" {
		return 0, errors.New("no commit")
	}
	if len(r.Results) == 0 {
		return 0, errors.New("no results")
	}
	if !hasResult(r.Results) {
		// A run that measured nothing would still carry a fingerprint
		// (an "unknown" one, with no results to read it from): the
		// newest run, it would hide every series.
		return 0, errors.New("no benchmark results in the results text")
	}
	commitTime, err := timeValue(r.CommitTime)
	if err != nil {
		return 0, fmt.Errorf("commit time: %w", err)
	}
	started, err := timeValue(r.Started)
	if err != nil {
		return 0, fmt.Errorf("start time: %w", err)
	}
	var report any
	if len(r.Report) > 0 {
		report = r.Report
	}
	profileNames := sortedKeys(r.Profiles)
	for _, name := range profileNames {
		if name == "" {
			return 0, errors.New("profile with an empty name")
		}
	}
	benchmarks := slices.SortedFunc(maps.Keys(r.Durations), document.BenchKey.Compare)
	for _, b := range benchmarks {
		if b.Name == "" {
			return 0, errors.New("duration with an empty benchmark name")
		}
		if r.Durations[b] < 0 {
			return 0, fmt.Errorf("negative duration %v for %s", r.Durations[b], b)
		}
	}
	fp := r.Fingerprint

	// The commit must not be cut off by ctx: a commit cancelled in flight
	// may have happened or not, and Save would report a failure for a run
	// that is stored. So ctx may cancel everything up to the commit, is
	// checked just before it, and then no longer counts. SQLite's driver
	// commits without a context anyway; pgx's commits with the context the
	// transaction began with, so that one is ctx without its cancellation
	// (the connection itself is still got with ctx).
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	txCtx := ctx
	if s.backend == backendPostgres {
		txCtx = context.WithoutCancel(ctx)
	}
	tx, err := conn.BeginTx(txCtx, nil)
	if err != nil {
		return 0, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO runs (
			module, commit_hash, commit_time, subject,
			fp_key, fp_cpu, fp_gomaxprocs, fp_go, fp_goos, fp_goarch, fp_kernel, fp_build,
			started, shard, results, report)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
		RETURNING id`,
		r.Module, r.Commit, commitTime, r.Subject,
		fp.Key(), fp.CPU, int64(fp.GOMAXPROCS), fp.GoVersion, fp.GOOS, fp.GOARCH, fp.Kernel, fp.Build,
		started, r.Shard, r.Results, report,
	).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("insert run: %w", err)
	}
	for _, name := range profileNames {
		data := r.Profiles[name]
		if data == nil {
			data = []byte{} // NOT NULL: an empty profile is still a profile
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO profiles (run_id, name, data) VALUES ($1, $2, $3)`,
			id, name, data); err != nil {
			return 0, fmt.Errorf("insert profile %q: %w", name, err)
		}
	}
	for _, b := range benchmarks {
		if _, err := tx.ExecContext(ctx, `INSERT INTO durations (run_id, benchmark, nanos) VALUES ($1, $2, $3)`,
			id, b.String(), int64(r.Durations[b])); err != nil {
			return 0, fmt.Errorf("insert duration of %s: %w", b, err)
		}
	}
	if _, err := saveSamples(ctx, tx, s.backend, id, r.Module, fp.Key(), r.Results); err != nil {
		return 0, err
	}
	if err := saveSteps(ctx, tx, id, r.Module, fp.Key(), r.Steps); err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	if err := tx.Commit(); err != nil {
		return 0, fmt.Errorf("commit: %w", err)
	}
	return id, nil
}

// hasResult reports whether benchfmt text holds a benchmark result.
func hasResult(text []byte) bool {
	r := benchfmt.NewReader(bytes.NewReader(text), "")
	for r.Scan() {
		if _, ok := r.Result().(*benchfmt.Result); ok {
			return true
		}
	}
	return false
}

// ctxErr is ctx.Err(), or context.DeadlineExceeded once ctx's deadline has
// passed even if its timer has not fired yet (a dialer that fails at the
// deadline may get there first).
func ctxErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d, ok := ctx.Deadline(); ok && !time.Now().Before(d) {
		return context.DeadlineExceeded
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// runInfoColumns are the columns scanRunInfo reads. A version 1 store,
// read as it is, has no fp_build: its runs were built plainly as far as it
// knows.
func (s *Store) runInfoColumns() string {
	build := "fp_build"
	if s.version < 2 {
		build = "'' AS fp_build"
	}
	series := "series_count, applied"
	if s.version < 3 {
		series = "0 AS series_count, 0 AS applied"
	}
	return `id, module, commit_hash, commit_time, subject,
	fp_key, fp_cpu, fp_gomaxprocs, fp_go, fp_goos, fp_goarch, fp_kernel, ` + build + `,
	started, shard, report IS NOT NULL, ` + series
}

type scanner interface{ Scan(dest ...any) error }

func scanRunInfo(row scanner) (RunInfo, error) {
	var (
		ri                  RunInfo
		commitTime, started sql.NullInt64
		gomaxprocs, series  int64
		applied             int64
	)
	err := row.Scan(&ri.ID, &ri.Module, &ri.Commit, &commitTime, &ri.Subject,
		&ri.FingerprintKey, &ri.Fingerprint.CPU, &gomaxprocs, &ri.Fingerprint.GoVersion,
		&ri.Fingerprint.GOOS, &ri.Fingerprint.GOARCH, &ri.Fingerprint.Kernel, &ri.Fingerprint.Build,
		&started, &ri.Shard, &ri.HasReport, &series, &applied)
	ri.Fingerprint.GOMAXPROCS = int(gomaxprocs)
	ri.Series = int(series)
	ri.Applied = applied != 0
	ri.CommitTime = timeFrom(commitTime)
	ri.Started = timeFrom(started)
	return ri, err
}

// Runs returns all runs of module, without their blobs, ordered by
// CommitTime (runs without one first), then by ID. It returns an empty,
// non-nil slice when the module has none.
func (s *Store) Runs(ctx context.Context, module string) ([]RunInfo, error) {
	out, err := runs(ctx, s.db, s.runInfoColumns(), module)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.name, err)
	}
	return out, nil
}

func runs(ctx context.Context, q querier, columns, module string) ([]RunInfo, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+columns+` FROM runs
		WHERE module = $1
		ORDER BY commit_time IS NOT NULL, commit_time, id`, module)
	if err != nil {
		return nil, fmt.Errorf("runs of %s: %w", module, err)
	}
	defer rows.Close()
	out := []RunInfo{}
	for rows.Next() {
		ri, err := scanRunInfo(rows)
		if err != nil {
			return nil, fmt.Errorf("runs of %s: %w", module, err)
		}
		out = append(out, ri)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("runs of %s: %w", module, err)
	}
	return out, nil
}

// Run returns the run with the given id, without its blobs. If there is none
// the error matches ErrNotFound.
func (s *Store) Run(ctx context.Context, id int64) (*RunInfo, error) {
	ri, err := scanRunInfo(s.db.QueryRowContext(ctx, `SELECT `+s.runInfoColumns()+` FROM runs WHERE id = $1`, id))
	if err != nil {
		return nil, s.runErr(id, "", err)
	}
	return &ri, nil
}

// runErr wraps err from reading run id (what, if not "", names the part
// read), turning sql.ErrNoRows into ErrNotFound.
func (s *Store) runErr(id int64, what string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	if what != "" {
		return fmt.Errorf("store %s: run %d: %s: %w", s.name, id, what, err)
	}
	return fmt.Errorf("store %s: run %d: %w", s.name, id, err)
}

// Results returns the benchfmt text of run id. If there is no such run the
// error matches ErrNotFound.
func (s *Store) Results(ctx context.Context, id int64) ([]byte, error) {
	var b []byte
	if err := s.db.QueryRowContext(ctx, `SELECT results FROM runs WHERE id = $1`, id).Scan(&b); err != nil {
		return nil, s.runErr(id, "results", err)
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// Report returns the report.json of run id, or nil, nil when the run has
// none. If there is no such run the error matches ErrNotFound.
func (s *Store) Report(ctx context.Context, id int64) ([]byte, error) {
	var b []byte
	if err := s.db.QueryRowContext(ctx, `SELECT report FROM runs WHERE id = $1`, id).Scan(&b); err != nil {
		return nil, s.runErr(id, "report", err)
	}
	if len(b) == 0 {
		return nil, nil
	}
	return b, nil
}

// ProfileNames returns the names of run id's profiles, sorted (by byte
// order, on either backend). If there is no such run the error matches
// ErrNotFound.
func (s *Store) ProfileNames(ctx context.Context, id int64) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name FROM profiles WHERE run_id = $1`, id)
	if err != nil {
		return nil, s.runErr(id, "profile names", err)
	}
	defer rows.Close()
	names := []string{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, s.runErr(id, "profile names", err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, s.runErr(id, "profile names", err)
	}
	if len(names) == 0 {
		if err := s.exists(ctx, id); err != nil {
			return nil, s.runErr(id, "profile names", err)
		}
	}
	sort.Strings(names)
	return names, nil
}

// exists returns nil if run id exists, else sql.ErrNoRows or another error.
func (s *Store) exists(ctx context.Context, id int64) error {
	var one int
	return s.db.QueryRowContext(ctx, `SELECT 1 FROM runs WHERE id = $1`, id).Scan(&one)
}

// Profile returns the profile called name of run id. If the run or the
// profile does not exist the error matches ErrNotFound.
func (s *Store) Profile(ctx context.Context, id int64, name string) ([]byte, error) {
	var b []byte
	err := s.db.QueryRowContext(ctx, `SELECT data FROM profiles WHERE run_id = $1 AND name = $2`, id, name).Scan(&b)
	if err != nil {
		return nil, s.runErr(id, fmt.Sprintf("profile %q", name), err)
	}
	if b == nil {
		b = []byte{}
	}
	return b, nil
}

// durationSamples is how many of the newest measurements of a benchmark
// Durations takes the median of.
const durationSamples = 3

// Durations returns, per benchmark, how long the benchmark's runs
// took in module's runs with the given fingerprint key ("": of any
// machine): the median of the newest three runs that measured it (newest
// by Started, then ID; the mean of the middle two when there are two). It
// returns an empty map when no such run has durations.
func (s *Store) Durations(ctx context.Context, module, fingerprintKey string) (map[document.BenchKey]time.Duration, error) {
	return durations(ctx, s.db, s.name, module, fingerprintKey)
}

func durations(ctx context.Context, q querier, name, module, fingerprintKey string) (map[document.BenchKey]time.Duration, error) {
	rows, err := q.QueryContext(ctx, `SELECT benchmark, nanos FROM (
			SELECT d.benchmark, d.nanos, ROW_NUMBER() OVER (
				PARTITION BY d.benchmark
				ORDER BY r.started IS NULL, r.started DESC, r.id DESC) AS n
			FROM durations d JOIN runs r ON r.id = d.run_id
			WHERE r.module = $1 AND ($2 = '' OR r.fp_key = $2)
		) AS newest
		WHERE n <= $3`, module, fingerprintKey, durationSamples)
	if err != nil {
		return nil, fmt.Errorf("store %s: durations of %s on %s: %w", name, module, fingerprintKey, err)
	}
	defer rows.Close()
	samples := map[string][]int64{}
	for rows.Next() {
		var (
			b string
			n int64
		)
		if err := rows.Scan(&b, &n); err != nil {
			return nil, fmt.Errorf("store %s: durations of %s on %s: %w", name, module, fingerprintKey, err)
		}
		samples[b] = append(samples[b], n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: durations of %s on %s: %w", name, module, fingerprintKey, err)
	}
	out := make(map[document.BenchKey]time.Duration, len(samples))
	for b, ns := range samples {
		out[document.ParseBenchKey(b)] = median(ns)
	}
	return out, nil
}

// ShardDurations returns the durations the shards of module's commit
// balance on: the first call for the commit takes Durations (of every
// machine: a run's fingerprint is known only once it has run) and keeps
// them; later calls for the commit, from its other shards, get the same,
// whatever runs were stored meanwhile (a shard that finished while another
// had not started yet), so that every shard splits the benchmarks alike.
func (s *Store) ShardDurations(ctx context.Context, module, commit string) (map[document.BenchKey]time.Duration, error) {
	if err := s.needVersion(3); err != nil {
		return nil, err
	}
	read := func() (map[document.BenchKey]time.Duration, bool, error) {
		var data []byte
		err := s.db.QueryRowContext(ctx, `SELECT durations FROM shard_durations WHERE module = $1 AND commit_hash = $2`, module, commit).Scan(&data)
		if errors.Is(err, sql.ErrNoRows) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		var nanos map[string]int64
		if err := json.Unmarshal(data, &nanos); err != nil {
			return nil, false, err
		}
		out := make(map[document.BenchKey]time.Duration, len(nanos))
		for b, n := range nanos {
			out[document.ParseBenchKey(b)] = time.Duration(n)
		}
		return out, true, nil
	}
	d, ok, err := read()
	if err != nil {
		return nil, fmt.Errorf("store %s: shard durations of %s: %w", s.name, commit, err)
	}
	if ok {
		return d, nil
	}
	if d, err = s.Durations(ctx, module, ""); err != nil {
		return nil, err
	}
	nanos := make(map[string]int64, len(d))
	for b, v := range d {
		nanos[b.String()] = int64(v)
	}
	data, _ := json.Marshal(nanos)
	if _, err := s.db.ExecContext(ctx, `INSERT INTO shard_durations (module, commit_hash, durations) VALUES ($1, $2, $3)
		ON CONFLICT DO NOTHING`, module, commit, data); err != nil {
		return nil, fmt.Errorf("store %s: shard durations of %s: %w", s.name, commit, err)
	}
	// Another shard's, if it was first.
	if d, _, err = read(); err != nil {
		return nil, fmt.Errorf("store %s: shard durations of %s: %w", s.name, commit, err)
	}
	return d, nil
}

func median(ns []int64) time.Duration {
	sort.Slice(ns, func(i, j int) bool { return ns[i] < ns[j] })
	m := len(ns) / 2
	if len(ns)%2 == 1 {
		return time.Duration(ns[m])
	}
	return time.Duration(ns[m-1]/2 + ns[m]/2 + (ns[m-1]%2+ns[m]%2)/2)
}
