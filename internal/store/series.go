package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/stats"
)

// SeriesKey names one benchmark and unit of a run's results; with a
// fingerprint it names a series.
type SeriesKey struct {
	Package string // the results' pkg
	Name    string // the full name with the Benchmark prefix, without -GOMAXPROCS: "BenchmarkEncode/size=1k"
	Procs   int    // the -GOMAXPROCS suffix (0 without one)
	Unit    string // as benchfmt reads it: sec/op for ns/op
}

// Compare orders keys by package, name, GOMAXPROCS, then unit (sec/op,
// allocs/op and B/op first).
func (k SeriesKey) Compare(o SeriesKey) int {
	return cmp.Or(cmp.Compare(k.Package, o.Package), cmp.Compare(k.Name, o.Name), cmp.Compare(k.Procs, o.Procs),
		cmp.Compare(UnitRank(k.Unit), UnitRank(o.Unit)), cmp.Compare(k.Unit, o.Unit))
}

// UnitRank ranks units for listing: time first, then allocations, bytes,
// the rest.
func UnitRank(unit string) int {
	switch unit {
	case "sec/op":
		return 0
	case "allocs/op":
		return 1
	case "B/op":
		return 2
	}
	return 3
}

// unitRankSQL is UnitRank in SQL.
const unitRankSQL = `CASE unit WHEN 'sec/op' THEN 0 WHEN 'allocs/op' THEN 1 WHEN 'B/op' THEN 2 ELSE 3 END`

// ParseSamples reads benchfmt text into each series' values, in the order
// of the text, and returns the keys in the order they first appear.
// Lines that are not results (configuration, syntax errors) are skipped.
func ParseSamples(results []byte) ([]SeriesKey, map[SeriesKey][]float64) {
	vals := map[SeriesKey][]float64{}
	var keys []SeriesKey
	r := benchfmt.NewReader(bytes.NewReader(results), "")
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		base, procs := stats.SplitProcs(res.Name)
		pkg := res.GetConfig("pkg")
		for _, v := range res.Values {
			k := SeriesKey{Package: pkg, Name: "Benchmark" + base, Procs: procs, Unit: v.Unit}
			if _, ok := vals[k]; !ok {
				keys = append(keys, k)
			}
			vals[k] = append(vals[k], v.Value)
		}
	}
	return keys, vals
}

// encodeValues and decodeValues are a sample row's values: little-endian
// float64s.
func encodeValues(vs []float64) []byte {
	b := make([]byte, 0, 8*len(vs))
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

func decodeValues(b []byte) ([]float64, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("samples of %d bytes, not a whole number of values", len(b))
	}
	vs := make([]float64, len(b)/8)
	for i := range vs {
		vs[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return vs, nil
}

// querier is what the store's queries run on: the database, or a
// transaction.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// insertBatch is how many rows one multi-row INSERT writes.
const insertBatch = 200

// saveSamples stores run id's samples, creating the series it is the
// first to have, and returns how many series it has. Series are created
// in key order, so that concurrent runs wait for each other's new series
// in one order and never deadlock.
func saveSamples(ctx context.Context, q querier, backend string, id int64, module, fpKey string, results []byte) (int, error) {
	keys, vals := ParseSamples(results)
	if len(keys) == 0 {
		return 0, nil
	}
	slices.SortFunc(keys, SeriesKey.Compare)
	ids, err := seriesIDs(ctx, q, module, fpKey)
	if err != nil {
		return 0, err
	}
	for _, k := range keys {
		if _, ok := ids[k]; ok {
			continue
		}
		if _, err := q.ExecContext(ctx, `INSERT INTO series (module, fp_key, pkg, name, procs, unit)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
			module, fpKey, k.Package, k.Name, int64(k.Procs), k.Unit); err != nil {
			return 0, fmt.Errorf("insert series %s %s: %w", k.Name, k.Unit, err)
		}
		var sid int64
		if err := q.QueryRowContext(ctx, `SELECT id FROM series
			WHERE module = $1 AND fp_key = $2 AND pkg = $3 AND name = $4 AND procs = $5 AND unit = $6`,
			module, fpKey, k.Package, k.Name, int64(k.Procs), k.Unit).Scan(&sid); err != nil {
			return 0, fmt.Errorf("series %s %s: %w", k.Name, k.Unit, err)
		}
		ids[k] = sid
	}
	if err := insertSamples(ctx, q, backend, id, keys, ids, vals); err != nil {
		return 0, err
	}
	if _, err := q.ExecContext(ctx, `UPDATE runs SET series_count = $1 WHERE id = $2`, int64(len(keys)), id); err != nil {
		return 0, fmt.Errorf("count series: %w", err)
	}
	return len(keys), nil
}

// insertSamples inserts run id's sample rows: on PostgreSQL in INSERTs of
// insertBatch rows (one round trip each), on SQLite one prepared INSERT
// per row (its driver binds a statement's parameters in time quadratic in
// their number).
func insertSamples(ctx context.Context, q querier, backend string, id int64, keys []SeriesKey, ids map[SeriesKey]int64, vals map[SeriesKey][]float64) error {
	if p, ok := q.(interface {
		PrepareContext(context.Context, string) (*sql.Stmt, error)
	}); ok && backend == backendSQLite {
		stmt, err := p.PrepareContext(ctx, `INSERT INTO samples (series_id, run_id, vals) VALUES ($1, $2, $3)`)
		if err != nil {
			return fmt.Errorf("insert samples: %w", err)
		}
		defer stmt.Close()
		for _, k := range keys {
			if _, err := stmt.ExecContext(ctx, ids[k], id, encodeValues(vals[k])); err != nil {
				return fmt.Errorf("insert samples: %w", err)
			}
		}
		return nil
	}
	for start := 0; start < len(keys); start += insertBatch {
		batch := keys[start:min(start+insertBatch, len(keys))]
		var sb strings.Builder
		sb.WriteString(`INSERT INTO samples (series_id, run_id, vals) VALUES `)
		args := make([]any, 0, 3*len(batch))
		for i, k := range batch {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "($%d, $%d, $%d)", 3*i+1, 3*i+2, 3*i+3)
			args = append(args, ids[k], id, encodeValues(vals[k]))
		}
		if _, err := q.ExecContext(ctx, sb.String(), args...); err != nil {
			return fmt.Errorf("insert samples: %w", err)
		}
	}
	return nil
}

// saveSteps stores run id's steps with the run's series of their
// benchmark and unit.
func saveSteps(ctx context.Context, q querier, id int64, module, fpKey string, steps []Step) error {
	if len(steps) == 0 {
		return nil
	}
	ids, err := seriesIDs(ctx, q, module, fpKey)
	if err != nil {
		return err
	}
	type bench struct{ pkg, name, unit string }
	of := map[bench][]SeriesKey{}
	rows, err := q.QueryContext(ctx, `SELECT series_id FROM samples WHERE run_id = $1`, id)
	if err != nil {
		return fmt.Errorf("steps: %w", err)
	}
	mine := map[int64]bool{}
	for rows.Next() {
		var sid int64
		if err := rows.Scan(&sid); err != nil {
			rows.Close()
			return fmt.Errorf("steps: %w", err)
		}
		mine[sid] = true
	}
	rows.Close()
	for k, sid := range ids {
		if mine[sid] {
			b := bench{k.Package, k.Name, k.Unit}
			of[b] = append(of[b], k)
		}
	}
	// A step goes with the run's series of its benchmark, unit and
	// GOMAXPROCS when there is one (steps measured with -cpu), else with
	// every series of its benchmark and unit (a step measured pinned to
	// one CPU); each series takes one step, the first.
	taken := map[int64]bool{}
	for _, st := range steps {
		if st.Base == "" {
			return errors.New("a step without its base commit")
		}
		sig := 0
		if st.Significant {
			sig = 1
		}
		keys := of[bench{st.Key.Package, st.Key.Name, st.Key.Unit}]
		if slices.Contains(keys, st.Key) {
			keys = []SeriesKey{st.Key}
		}
		for _, k := range keys {
			sid := ids[k]
			if taken[sid] {
				continue
			}
			taken[sid] = true
			if _, err := q.ExecContext(ctx, `INSERT INTO steps (series_id, run_id, base_commit, delta, low, high, p, significant, before_value, after_value)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
				sid, id, st.Base, st.Delta, st.Low, st.High, st.P, sig, st.Before, st.After); err != nil {
				return fmt.Errorf("insert step of %s %s: %w", st.Key.Name, st.Key.Unit, err)
			}
		}
	}
	return nil
}

// RunStep is a step as stored: the series and run it belongs to.
type RunStep struct {
	Series, Run int64
	Step
}

// Steps calls fn with the steps of module's series on fingerprint fp (of
// the series ids names, when it is not nil), in no particular order.
func (s *Store) Steps(ctx context.Context, module, fp string, ids []int64, fn func(RunStep) error) error {
	if err := s.needVersion(3); err != nil {
		return err
	}
	if err := readSteps(ctx, s.db, module, fp, ids, fn); err != nil {
		return fmt.Errorf("store %s: %w", s.name, err)
	}
	return nil
}

func readSteps(ctx context.Context, q querier, module, fp string, ids []int64, fn func(RunStep) error) error {
	query := `SELECT t.series_id, t.run_id, x.pkg, x.name, x.procs, x.unit, t.base_commit, t.delta, t.low, t.high, t.p,
			t.significant, t.before_value, t.after_value
		FROM steps t JOIN series x ON x.id = t.series_id
		WHERE x.module = $1 AND x.fp_key = $2`
	if ids != nil && len(ids) == 0 {
		return nil
	}
	query, args, keep := inSeries(query, "t.series_id", []any{module, fp}, ids)
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("steps: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			rs         RunStep
			procs, sig int64
		)
		if err := rows.Scan(&rs.Series, &rs.Run, &rs.Key.Package, &rs.Key.Name, &procs, &rs.Key.Unit, &rs.Base,
			&rs.Delta, &rs.Low, &rs.High, &rs.P, &sig, &rs.Before, &rs.After); err != nil {
			return fmt.Errorf("steps: %w", err)
		}
		if keep != nil && !keep[rs.Series] {
			continue
		}
		rs.Key.Procs, rs.Significant = int(procs), sig != 0
		if err := fn(rs); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Steps calls fn with steps as Store.Steps does.
func (t *HistoryTx) Steps(ctx context.Context, fp string, ids []int64, fn func(RunStep) error) error {
	return readSteps(ctx, t.tx, t.module, fp, ids, fn)
}

// seriesIDs returns the ids of module's series on fingerprint fpKey.
func seriesIDs(ctx context.Context, q querier, module, fpKey string) (map[SeriesKey]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, pkg, name, procs, unit FROM series WHERE module = $1 AND fp_key = $2`, module, fpKey)
	if err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	defer rows.Close()
	ids := map[SeriesKey]int64{}
	for rows.Next() {
		var (
			id    int64
			k     SeriesKey
			procs int64
		)
		if err := rows.Scan(&id, &k.Package, &k.Name, &procs, &k.Unit); err != nil {
			return nil, fmt.Errorf("series: %w", err)
		}
		k.Procs = int(procs)
		ids[k] = id
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("series: %w", err)
	}
	return ids, nil
}

// backfillSamples is migration 3's: the samples of the runs stored before
// it.
func backfillSamples(ctx context.Context, s *Store, tx *sql.Tx) error {
	type run struct {
		id          int64
		module, key string
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, module, fp_key FROM runs ORDER BY id`)
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	var runs []run
	for rows.Next() {
		var r run
		if err := rows.Scan(&r.id, &r.module, &r.key); err != nil {
			rows.Close()
			return fmt.Errorf("runs: %w", err)
		}
		runs = append(runs, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	for _, r := range runs {
		var results []byte
		if err := tx.QueryRowContext(ctx, `SELECT results FROM runs WHERE id = $1`, r.id).Scan(&results); err != nil {
			return fmt.Errorf("run %d: %w", r.id, err)
		}
		if _, err := saveSamples(ctx, tx, s.backend, r.id, r.module, r.key, results); err != nil {
			return fmt.Errorf("run %d: %w", r.id, err)
		}
	}
	return nil
}

// SeriesState is what history computed for a series when a run was
// recorded, kept so that history and serve read it rather than compute
// it. The store keeps it as it is given; Changes and Cache are history's
// own encodings.
type SeriesState struct {
	Points       int       // commits with samples
	Last         float64   // the newest point's median
	ChangeCommit string    // the newest change point's commit ("" for none)
	ChangeDelta  float64   // its shift
	ChangeTime   time.Time // its commit time: the dashboard lists the series that shifted most recently first
	Changes      []byte    // every change point
	Medians      []float64 // each point's median, oldest first (sparklines)
	Cache        []byte    // the change-point detector's cache of tests
}

// Series is a series and the state record computed for it.
type Series struct {
	ID          int64
	Key         SeriesKey
	Fingerprint string       // the fingerprint key
	State       *SeriesState // nil before a record computed it
}

// SeriesFilter selects series of a module and fingerprint.
type SeriesFilter struct {
	Module string
	// Fingerprint is the key of the machine; "" selects every machine's.
	Fingerprint string
	// IDs, if not nil, keeps only these series.
	IDs []int64
	// Search keeps the series whose package, name or unit contains each
	// of its words (case-insensitive).
	Search string
	// Offset and Limit (0: no limit) select a page of the series in the
	// dashboard's order: the newest change point's commit time, newest
	// first, then the series without one; each by package, name,
	// GOMAXPROCS and unit.
	Offset, Limit int
	// Cache reads the state's Cache too (it is large, and only record
	// needs it).
	Cache bool
}

// Series returns the series f selects, with their state, and how many
// match f without its Offset and Limit.
func (s *Store) Series(ctx context.Context, f SeriesFilter) ([]Series, int, error) {
	if err := s.needVersion(3); err != nil {
		return nil, 0, err
	}
	out, n, err := listSeries(ctx, s.db, f)
	if err != nil {
		return nil, 0, fmt.Errorf("store %s: %w", s.name, err)
	}
	return out, n, nil
}

// ErrOldSchema is matched by the error of a method that needs a store
// migrated by a newer perfloop than the one that wrote it (OpenReadOnly
// reads such a store as it is); HasSeries reports it first.
var ErrOldSchema = errors.New("store schema too old for this (perfloop record migrates it)")

// HasSeries reports whether the store keeps runs by series (schema 3 and
// later): Series, Samples, Order and the history's state. A store at an
// older schema, read as it is, has only the runs' results.
func (s *Store) HasSeries() bool { return s.version >= 3 }

func (s *Store) needVersion(v int) error {
	if s.version < v {
		return fmt.Errorf("store %s: schema version %d: %w", s.name, s.version, ErrOldSchema)
	}
	return nil
}

// likeEscape escapes LIKE's wildcards in a search word.
var likeEscape = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

func listSeries(ctx context.Context, q querier, f SeriesFilter) ([]Series, int, error) {
	where := []string{"module = $1"}
	args := []any{f.Module}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.Fingerprint != "" {
		where = append(where, "fp_key = "+arg(f.Fingerprint))
	}
	if f.IDs != nil {
		if len(f.IDs) == 0 {
			return []Series{}, 0, nil
		}
		var in []string
		for _, id := range f.IDs {
			in = append(in, arg(id))
		}
		where = append(where, "id IN ("+strings.Join(in, ", ")+")")
	}
	for _, w := range strings.Fields(strings.ToLower(f.Search)) {
		p := arg("%" + likeEscape.Replace(w) + "%")
		where = append(where, fmt.Sprintf(`(LOWER(name) LIKE %[1]s ESCAPE '\' OR LOWER(pkg) LIKE %[1]s ESCAPE '\' OR LOWER(unit) LIKE %[1]s ESCAPE '\')`, p))
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM series WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count series: %w", err)
	}
	cache := "NULL"
	if f.Cache {
		cache = "cache"
	}
	const order = `ORDER BY change_time IS NULL, change_time DESC, pkg, name, procs, ` + unitRankSQL + `, unit, id`
	var page []int64
	if f.Limit > 0 {
		// The page's ids first, sorting narrow rows; then their rows,
		// blobs and all.
		ids, err := q.QueryContext(ctx, `SELECT id FROM series WHERE `+cond+` `+order+
			` LIMIT `+arg(int64(f.Limit))+` OFFSET `+arg(int64(max(f.Offset, 0))), args...)
		if err != nil {
			return nil, 0, fmt.Errorf("series: %w", err)
		}
		for ids.Next() {
			var id int64
			if err := ids.Scan(&id); err != nil {
				ids.Close()
				return nil, 0, fmt.Errorf("series: %w", err)
			}
			page = append(page, id)
		}
		ids.Close()
		if err := ids.Err(); err != nil {
			return nil, 0, fmt.Errorf("series: %w", err)
		}
		if len(page) == 0 {
			return []Series{}, total, nil
		}
		args = args[:0]
		var in []string
		for _, id := range page {
			in = append(in, arg(id))
		}
		cond = "id IN (" + strings.Join(in, ", ") + ")"
	}
	query := `SELECT id, fp_key, pkg, name, procs, unit, computed, points, last_value,
			change_commit, change_delta, change_time, changes, medians, ` + cache + `
		FROM series WHERE ` + cond + ` ` + order
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("series: %w", err)
	}
	defer rows.Close()
	out := []Series{}
	for rows.Next() {
		var (
			sr               Series
			procs, computed  int64
			points           int64
			last, delta      sql.NullFloat64
			commit           sql.NullString
			changeTime       sql.NullInt64
			changes, medians []byte
			cacheData        []byte
		)
		if err := rows.Scan(&sr.ID, &sr.Fingerprint, &sr.Key.Package, &sr.Key.Name, &procs, &sr.Key.Unit, &computed, &points,
			&last, &commit, &delta, &changeTime, &changes, &medians, &cacheData); err != nil {
			return nil, 0, fmt.Errorf("series: %w", err)
		}
		sr.Key.Procs = int(procs)
		if computed != 0 {
			ms, err := decodeValues(medians)
			if err != nil {
				return nil, 0, fmt.Errorf("series %d: medians: %w", sr.ID, err)
			}
			sr.State = &SeriesState{Points: int(points), Last: last.Float64, ChangeCommit: commit.String,
				ChangeDelta: delta.Float64, ChangeTime: timeFrom(changeTime), Changes: changes, Medians: ms, Cache: cacheData}
		}
		out = append(out, sr)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("series: %w", err)
	}
	return out, total, nil
}

// Sample is one run's values of one series.
type Sample struct {
	Series, Run int64
	Values      []float64
}

// Samples calls fn with every run's values of module's series on
// fingerprint fp (of the series ids names, when it is not nil), in no
// particular order (sorting them would cost more than reading them); the
// Values slice is fn's to keep.
func (s *Store) Samples(ctx context.Context, module, fp string, ids []int64, fn func(Sample) error) error {
	if err := s.needVersion(3); err != nil {
		return err
	}
	if err := samples(ctx, s.db, module, fp, ids, fn); err != nil {
		return fmt.Errorf("store %s: %w", s.name, err)
	}
	return nil
}

// samplesInLimit is the largest id list Samples puts in its query; with
// more it reads every series and keeps the ones asked for.
const samplesInLimit = 500

// inSeries restricts query to the series ids (all of them when ids is
// nil) through column: an IN list of parameters after args up to
// samplesInLimit ids; beyond that the query reads every series and keep
// says which rows to keep.
func inSeries(query, column string, args []any, ids []int64) (string, []any, map[int64]bool) {
	switch {
	case ids == nil:
		return query, args, nil
	case len(ids) <= samplesInLimit:
		var in []string
		for _, id := range ids {
			args = append(args, id)
			in = append(in, fmt.Sprintf("$%d", len(args)))
		}
		return query + " AND " + column + " IN (" + strings.Join(in, ", ") + ")", args, nil
	}
	keep := make(map[int64]bool, len(ids))
	for _, id := range ids {
		keep[id] = true
	}
	return query, args, keep
}

func samples(ctx context.Context, q querier, module, fp string, ids []int64, fn func(Sample) error) error {
	query := `SELECT s.series_id, s.run_id, s.vals FROM samples s JOIN series x ON x.id = s.series_id
		WHERE x.module = $1 AND x.fp_key = $2`
	if ids != nil && len(ids) == 0 {
		return nil
	}
	query, args, keep := inSeries(query, "s.series_id", []any{module, fp}, ids)
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("samples: %w", err)
	}
	defer rows.Close()
	var raw []byte
	for rows.Next() {
		var sm Sample
		if err := rows.Scan(&sm.Series, &sm.Run, &raw); err != nil {
			return fmt.Errorf("samples: %w", err)
		}
		if keep != nil && !keep[sm.Series] {
			continue
		}
		if sm.Values, err = decodeValues(raw); err != nil {
			return fmt.Errorf("samples of series %d in run %d: %w", sm.Series, sm.Run, err)
		}
		if err := fn(sm); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("samples: %w", err)
	}
	return nil
}

// Order returns the commits of module in the order record last computed
// its history in (git order, oldest first), or none.
func (s *Store) Order(ctx context.Context, module string) ([]string, error) {
	if err := s.needVersion(3); err != nil {
		return nil, err
	}
	order, err := readOrder(ctx, s.db, module)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.name, err)
	}
	return order, nil
}

func readOrder(ctx context.Context, q querier, module string) ([]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT commit_hash FROM commit_order WHERE module = $1 ORDER BY pos`, module)
	if err != nil {
		return nil, fmt.Errorf("commit order: %w", err)
	}
	defer rows.Close()
	order := []string{}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("commit order: %w", err)
		}
		order = append(order, c)
	}
	return order, rows.Err()
}

// Unapplied returns the ids of module's runs whose samples no history
// update has taken in yet (see HistoryTx), oldest first.
func (s *Store) Unapplied(ctx context.Context, module string) ([]int64, error) {
	if err := s.needVersion(3); err != nil {
		return nil, err
	}
	ids, err := unapplied(ctx, s.db, module)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.name, err)
	}
	return ids, nil
}

func unapplied(ctx context.Context, q querier, module string) ([]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT id FROM runs WHERE module = $1 AND applied = 0 ORDER BY id`, module)
	if err != nil {
		return nil, fmt.Errorf("unapplied runs: %w", err)
	}
	defer rows.Close()
	ids := []int64{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("unapplied runs: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// HistoryTx is a transaction on a module's history as record keeps it: the
// commit order, the state of each series, which runs it has taken in. Only
// one runs at a time per module, in any process (UpdateHistory takes the
// module's lock first), and it reads one snapshot of the store: a run saved
// meanwhile is left to the next.
type HistoryTx struct {
	s      *Store
	tx     *sql.Tx
	module string
}

// UpdateHistory runs fn in a HistoryTx on module's history and commits
// what it wrote when fn returns nil. On PostgreSQL it holds an advisory
// lock named after the module while it runs, and the transaction is
// REPEATABLE READ; on SQLite the transaction holds the database's write
// lock.
func (s *Store) UpdateHistory(ctx context.Context, module string, fn func(*HistoryTx) error) error {
	if s.readOnly {
		return fmt.Errorf("store %s: opened read-only", s.name)
	}
	if err := s.needVersion(3); err != nil {
		return err
	}
	if err := s.updateHistory(ctx, module, fn); err != nil {
		return fmt.Errorf("store %s: history of %s: %w", s.name, module, err)
	}
	return nil
}

func (s *Store) updateHistory(ctx context.Context, module string, fn func(*HistoryTx) error) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	var opts *sql.TxOptions
	if s.backend == backendPostgres {
		key := historyLockKey(module)
		if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, key); err != nil {
			return fmt.Errorf("lock: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, key); err != nil {
				// A session lock outlives the transaction: a
				// connection that may still hold it is closed, not
				// pooled.
				conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
		// The snapshot is taken by the first statement, after the
		// lock: it sees everything the previous holder committed.
		opts = &sql.TxOptions{Isolation: sql.LevelRepeatableRead}
	}
	tx, err := conn.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(&HistoryTx{s: s, tx: tx, module: module}); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// historyLockKey is the PostgreSQL advisory lock of module's history.
func historyLockKey(module string) int64 {
	h := fnv.New64a()
	h.Write([]byte("perfloop history\x00" + module))
	return int64(h.Sum64())
}

// Runs returns the module's runs, as Store.Runs.
func (t *HistoryTx) Runs(ctx context.Context) ([]RunInfo, error) {
	return runs(ctx, t.tx, t.s.runInfoColumns(), t.module)
}

// Order returns the stored commit order, as Store.Order.
func (t *HistoryTx) Order(ctx context.Context) ([]string, error) {
	return readOrder(ctx, t.tx, t.module)
}

// SetOrder replaces the stored commit order.
func (t *HistoryTx) SetOrder(ctx context.Context, order []string) error {
	if _, err := t.tx.ExecContext(ctx, `DELETE FROM commit_order WHERE module = $1`, t.module); err != nil {
		return fmt.Errorf("commit order: %w", err)
	}
	for start := 0; start < len(order); start += insertBatch {
		batch := order[start:min(start+insertBatch, len(order))]
		var sb strings.Builder
		sb.WriteString(`INSERT INTO commit_order (module, pos, commit_hash) VALUES `)
		args := []any{t.module}
		for i, c := range batch {
			if i > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, "($1, $%d, $%d)", len(args)+1, len(args)+2)
			args = append(args, int64(start+i), c)
		}
		if _, err := t.tx.ExecContext(ctx, sb.String(), args...); err != nil {
			return fmt.Errorf("commit order: %w", err)
		}
	}
	return nil
}

// Unapplied returns the runs no update has taken in yet, as
// Store.Unapplied.
func (t *HistoryTx) Unapplied(ctx context.Context) ([]int64, error) {
	return unapplied(ctx, t.tx, t.module)
}

// SeriesOf returns the ids of the series that runs have samples of.
func (t *HistoryTx) SeriesOf(ctx context.Context, runs []int64) ([]int64, error) {
	var out []int64
	for start := 0; start < len(runs); start += samplesInLimit {
		batch := runs[start:min(start+samplesInLimit, len(runs))]
		var in []string
		args := make([]any, len(batch))
		for i, id := range batch {
			args[i] = id
			in = append(in, fmt.Sprintf("$%d", i+1))
		}
		rows, err := t.tx.QueryContext(ctx, `SELECT DISTINCT series_id FROM samples WHERE run_id IN (`+strings.Join(in, ", ")+`)`, args...)
		if err != nil {
			return nil, fmt.Errorf("series of runs: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("series of runs: %w", err)
			}
			out = append(out, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("series of runs: %w", err)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Series returns series as Store.Series does (f.Module is the
// transaction's).
func (t *HistoryTx) Series(ctx context.Context, f SeriesFilter) ([]Series, int, error) {
	f.Module = t.module
	return listSeries(ctx, t.tx, f)
}

// Samples calls fn with samples as Store.Samples does.
func (t *HistoryTx) Samples(ctx context.Context, fp string, ids []int64, fn func(Sample) error) error {
	return samples(ctx, t.tx, t.module, fp, ids, fn)
}

// SetState stores the state of series id.
func (t *HistoryTx) SetState(ctx context.Context, id int64, st *SeriesState) error {
	var commit, delta, changeTime any
	if st.ChangeCommit != "" {
		commit, delta = st.ChangeCommit, st.ChangeDelta
		var err error
		if changeTime, err = timeValue(st.ChangeTime); err != nil {
			return fmt.Errorf("series %d: %w", id, err)
		}
	}
	var last any
	if st.Points > 0 {
		last = st.Last
	}
	res, err := t.tx.ExecContext(ctx, `UPDATE series SET computed = 1, points = $1, last_value = $2,
			change_commit = $3, change_delta = $4, change_time = $5, changes = $6, medians = $7, cache = $8
		WHERE id = $9 AND module = $10`,
		int64(st.Points), last, commit, delta, changeTime, nonNil(st.Changes), encodeValues(st.Medians), nonNil(st.Cache), id, t.module)
	if err != nil {
		return fmt.Errorf("series %d: %w", id, err)
	}
	if n, err := res.RowsAffected(); err == nil && n != 1 {
		return fmt.Errorf("series %d: %w", id, ErrNotFound)
	}
	return nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// MarkApplied records that runs' samples are taken in.
func (t *HistoryTx) MarkApplied(ctx context.Context, runs []int64) error {
	for start := 0; start < len(runs); start += samplesInLimit {
		batch := runs[start:min(start+samplesInLimit, len(runs))]
		var in []string
		args := []any{t.module}
		for _, id := range batch {
			args = append(args, id)
			in = append(in, fmt.Sprintf("$%d", len(args)))
		}
		if _, err := t.tx.ExecContext(ctx, `UPDATE runs SET applied = 1 WHERE module = $1 AND id IN (`+strings.Join(in, ", ")+`)`, args...); err != nil {
			return fmt.Errorf("mark runs applied: %w", err)
		}
	}
	return nil
}
