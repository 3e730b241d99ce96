package stats

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchproc"
)

// Table compares one unit across result files, for one configuration
// (goos, goarch, pkg, cpu): a row per benchmark, a column per file.
// It is the table benchstat prints with its default projections
// (-table .config -row .fullname -col .file).
type Table struct {
	// Config lists the table's configuration as "key: value" pairs in
	// input order (goos, goarch, pkg, cpu, …).
	Config []string
	Unit   string
	// Better is +1 when higher values are better, -1 when lower are, 0
	// when unknown.
	Better  int
	Columns []string // file labels; the first is the baseline
	Rows    []*Row
	// Method, if set, replaces the default note on how significance was
	// decided.
	Method string
	// Geomean holds, per column, the geometric mean of the row centers
	// and of the ratios to the baseline, benchstat's summary row.
	Geomean []Geomean
}

// Row is one benchmark in a Table.
type Row struct {
	// Benchmark is the name without the "Benchmark" prefix and without
	// the -GOMAXPROCS suffix: "Encode/size=10".
	Benchmark string
	Procs     int // GOMAXPROCS from the name's suffix, 0 when absent
	// FullName is the name as benchstat shows it: "Encode/size=10-8".
	FullName string
	// Cells holds one cell per column, nil where a file lacks the row.
	Cells []*Cell
}

// Cell is one benchmark in one file, compared with the baseline column.
type Cell struct {
	Summary Summary
	// Compared reports whether this cell was compared with a baseline
	// (it is not in the first column and the baseline has the row).
	Compared bool
	// Delta is new/old - 1 of the centers; NaN when the baseline's
	// center is zero and this one's is not.
	Delta float64
	// P is the test's p-value, benchstat's own: Mann-Whitney U, or exact
	// comparison for assume=exact units.
	P float64
	// Q is P adjusted with Benjamini–Hochberg over the compared rows of
	// this table's column.
	Q float64
	// Significant reports Q <= Alpha.
	Significant bool
	// Verdict is "faster", "slower", "better", "worse", "higher",
	// "lower" or NoChange.
	Verdict string
	// MDE, when not NaN, is the smallest relative change the comparison
	// could have detected (set by paired comparisons); +Inf when it could
	// detect none.
	MDE float64
	// Low and High, when not NaN, bound the change with the paired
	// comparison's 95% interval (set for inconclusive rows).
	Low, High float64
	// Warnings explains a missing interval or a comparison that could
	// not be significant (too few samples).
	Warnings []error
}

// Geomean summarizes one column of a Table.
type Geomean struct {
	Value float64 // geomean of the row centers; NaN if any is <= 0
	// Delta is the geomean of the ratios to the baseline minus one; NaN in
	// the baseline column or when a ratio is undefined.
	Delta float64
}

// Options tunes Compare.
type Options struct {
	// Alpha is the false discovery rate; 0 means the package's Alpha.
	Alpha float64
}

// Compare groups results into tables as benchstat does and compares every
// column with the first. Results carry their file label in the ".file"
// configuration key, as results.Read sets it.
func Compare(rs []*benchfmt.Result, units benchfmt.UnitMetadataMap, opts Options) ([]*Table, error) {
	alpha := opts.Alpha
	if alpha == 0 {
		alpha = Alpha
	}
	filter, err := benchproc.NewFilter("*")
	if err != nil {
		return nil, err
	}
	var parser benchproc.ProjectionParser
	tableBy, unitField, err := parser.ParseWithUnit(".config", filter)
	if err != nil {
		return nil, err
	}
	rowBy, err := parser.Parse(".fullname", filter)
	if err != nil {
		return nil, err
	}
	colBy, err := parser.Parse(".file", filter)
	if err != nil {
		return nil, err
	}

	type cellKey struct{ row, col benchproc.Key }
	type building struct {
		key   benchproc.Key
		rows  map[benchproc.Key]*benchfmt.Result // a representative result per row
		cols  map[benchproc.Key]bool
		cells map[cellKey][]float64
	}
	tables := map[benchproc.Key]*building{}
	for _, r := range rs {
		tableKeys := tableBy.ProjectValues(r)
		row, col := rowBy.Project(r), colBy.Project(r)
		for i, tk := range tableKeys {
			t := tables[tk]
			if t == nil {
				t = &building{key: tk, rows: map[benchproc.Key]*benchfmt.Result{}, cols: map[benchproc.Key]bool{}, cells: map[cellKey][]float64{}}
				tables[tk] = t
			}
			if t.rows[row] == nil {
				t.rows[row] = r
			}
			t.cols[col] = true
			ck := cellKey{row, col}
			t.cells[ck] = append(t.cells[ck], r.Values[i].Value)
		}
	}

	keys := make([]benchproc.Key, 0, len(tables))
	for k := range tables {
		keys = append(keys, k)
	}
	benchproc.SortKeys(keys)

	var out []*Table
	for _, k := range keys {
		b := tables[k]
		unit := k.Get(unitField)
		assume := units.GetAssumption(unit)
		t := &Table{Unit: unit, Better: Better(unit, units)}
		for _, f := range k.Projection().FlattenedFields() {
			if f == unitField {
				continue
			}
			if v := k.Get(f); v != "" {
				t.Config = append(t.Config, f.Name+": "+v)
			}
		}
		rowKeys, colKeys := sortedKeys(b.rows), sortedKeys(b.cols)
		for _, c := range colKeys {
			t.Columns = append(t.Columns, c.StringValues())
		}
		for _, rk := range rowKeys {
			row := newRow(b.rows[rk])
			baseVals, haveBase := b.cells[cellKey{rk, colKeys[0]}]
			baseSample := benchmath.NewSample(baseVals, &benchmath.DefaultThresholds)
			for ci, ck := range colKeys {
				vals, ok := b.cells[cellKey{rk, ck}]
				if !ok {
					row.Cells = append(row.Cells, nil)
					continue
				}
				sample := benchmath.NewSample(vals, &benchmath.DefaultThresholds)
				sum := assume.Summary(sample, Confidence)
				cell := &Cell{
					Summary: Summary{Median: sum.Center, Low: sum.Lo, High: sum.Hi, N: len(vals)},
					Verdict: NoChange,
					MDE:     math.NaN(),
					Low:     math.NaN(),
					High:    math.NaN(),
				}
				cell.Warnings = append(cell.Warnings, sample.Warnings...)
				cell.Warnings = append(cell.Warnings, sum.Warnings...)
				if ci > 0 && haveBase {
					cmp := assume.Compare(baseSample, sample)
					base := assume.Summary(baseSample, Confidence).Center
					cell.Compared = true
					cell.P = cmp.P
					cell.Delta = delta(base, sum.Center)
					cell.Warnings = append(cell.Warnings, cmp.Warnings...)
				}
				row.Cells = append(row.Cells, cell)
			}
			t.Rows = append(t.Rows, row)
		}
		t.adjust(alpha)
		t.geomeans()
		out = append(out, t)
	}
	return out, nil
}

func sortedKeys[V any](m map[benchproc.Key]V) []benchproc.Key {
	keys := make([]benchproc.Key, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	benchproc.SortKeys(keys)
	return keys
}

func newRow(r *benchfmt.Result) *Row {
	row := &Row{FullName: string(r.Name.Full())}
	row.Benchmark, row.Procs = SplitProcs(r.Name)
	return row
}

// SplitProcs splits a benchmark name into the name without its
// -GOMAXPROCS suffix and that GOMAXPROCS (0 when absent):
// "X/size=10-8" → "X/size=10", 8.
func SplitProcs(n benchfmt.Name) (string, int) {
	base, parts := n.Parts()
	var name strings.Builder
	name.Write(base)
	procs := 0
	for _, p := range parts {
		if len(p) > 0 && p[0] == '-' {
			procs, _ = strconv.Atoi(string(p[1:]))
			continue
		}
		name.Write(p)
	}
	return name.String(), procs
}

func delta(old, new float64) float64 {
	switch {
	case old == new:
		return 0
	case old == 0:
		return math.NaN()
	}
	return new/old - 1
}

// adjust applies the Benjamini–Hochberg correction to each column's
// compared rows and sets significance and verdicts.
func (t *Table) adjust(alpha float64) {
	for ci := 1; ci < len(t.Columns); ci++ {
		var cells []*Cell
		var ps []float64
		for _, r := range t.Rows {
			if c := r.Cells[ci]; c != nil && c.Compared {
				cells = append(cells, c)
				ps = append(ps, c.P)
			}
		}
		qs := BenjaminiHochberg(ps)
		for i, c := range cells {
			c.Q = qs[i]
			c.Decide(t, c.Q <= alpha && c.Delta != 0)
		}
	}
}

// Decide sets c's significance and verdict.
func (c *Cell) Decide(t *Table, significant bool) {
	c.Significant = significant
	c.Verdict = NoChange
	switch {
	case !significant:
	case !math.IsNaN(c.Delta):
		c.Verdict = verdict(t.Unit, t.Better, c.Delta)
	case c.Summary.Median > 0:
		// From a baseline of zero (0 B/op → 4 B/op): no ratio, but a
		// direction.
		c.Verdict = verdict(t.Unit, t.Better, math.Inf(1))
	case c.Summary.Median < 0:
		c.Verdict = verdict(t.Unit, t.Better, math.Inf(-1))
	}
}

// BenjaminiHochberg returns the Benjamini–Hochberg adjusted p-values (q-values)
// of ps, in the same order: q_(i) = min over j >= i of p_(j)·m/j, capped at 1.
// Rejecting every hypothesis with q <= α controls the false discovery rate at
// α for independent or positively dependent tests.
func BenjaminiHochberg(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	qs := make([]float64, m)
	prev := 1.0
	for r := m - 1; r >= 0; r-- {
		i := idx[r]
		q := ps[i] * float64(m) / float64(r+1)
		if q < prev {
			prev = q
		}
		qs[i] = math.Min(prev, 1)
	}
	return qs
}

// geomeans computes benchstat's summary row: per column, the geometric mean
// of the centers and of the ratios to the baseline.
func (t *Table) geomeans() {
	t.Geomean = make([]Geomean, len(t.Columns))
	for ci := range t.Columns {
		var logSum, logRatio float64
		n, nr := 0, 0
		valueOK, ratioOK := true, ci > 0
		for _, r := range t.Rows {
			c := r.Cells[ci]
			if c == nil {
				continue
			}
			if c.Summary.Median <= 0 {
				valueOK = false
			} else {
				logSum += math.Log(c.Summary.Median)
			}
			n++
			if ci > 0 && c.Compared {
				base := r.Cells[0].Summary.Median
				switch {
				case base == c.Summary.Median:
					// 0/0 counts as no change, as in benchstat.
				case base == 0 || c.Summary.Median == 0:
					ratioOK = false
				default:
					logRatio += math.Log(c.Summary.Median / base)
				}
				nr++
			}
		}
		g := Geomean{Value: math.NaN(), Delta: math.NaN()}
		if valueOK && n > 0 {
			g.Value = math.Exp(logSum / float64(n))
		}
		if ratioOK && nr > 0 {
			g.Delta = math.Exp(logRatio/float64(nr)) - 1
		}
		t.Geomean[ci] = g
	}
}

// String returns the table's configuration and unit, for messages.
func (t *Table) String() string {
	return fmt.Sprintf("%s [%s]", t.Unit, strings.Join(t.Config, ", "))
}
