package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"golang.org/x/perf/benchunit"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// CompareText writes tables in the style of benchstat: each row's median
// ± confidence interval per file, and for every file after the first the
// delta, the p-value and a plain verdict. Under each table it says how
// significance was decided.
func CompareText(w io.Writer, tables []*stats.Table, alpha float64) error {
	var lastConfig string
	for i, t := range tables {
		if cfg := strings.Join(t.Config, "\n"); cfg != lastConfig {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if cfg != "" {
				fmt.Fprintln(w, cfg)
			}
			lastConfig = cfg
		}
		fmt.Fprintln(w)
		if err := compareTable(w, t, alpha); err != nil {
			return err
		}
	}
	return nil
}

func compareTable(w io.Writer, t *stats.Table, alpha float64) error {
	class := benchunit.ClassOf(t.Unit)

	tw := NewTable(w)
	// Header: unit, then a value column per file and, for each file after
	// the first, delta, p and verdict columns.
	hdr := []string{t.Unit}
	for ci, col := range t.Columns {
		hdr = append(hdr, col)
		if ci > 0 {
			hdr = append(hdr, "vs base", "p", "")
		}
	}
	fmt.Fprintln(tw, strings.Join(hdr, "\t"))

	notes := newFootnotes()
	for _, r := range t.Rows {
		line := []string{r.FullName}
		// One scale per row, as benchstat does, so a row's cells read
		// alike and rows of different magnitudes each read well.
		var vals []float64
		for _, c := range r.Cells {
			if c != nil {
				vals = append(vals, c.Summary.Median)
			}
		}
		scaler := benchunit.CommonScale(vals, class)
		for ci, c := range r.Cells {
			if c == nil {
				line = append(line, "-")
				if ci > 0 {
					line = append(line, "", "", "")
				}
				continue
			}
			v := scaler.Format(c.Summary.Median) + " ± " + c.Summary.RangePercent() + notes.mark(c.Warnings)
			line = append(line, v)
			if ci == 0 {
				continue
			}
			if !c.Compared {
				line = append(line, "", "", "")
				continue
			}
			d := "~"
			if c.Significant {
				d = formatDelta(c.Delta)
			}
			verdict := c.Verdict + mdeNote(c)
			line = append(line, d, fmt.Sprintf("p=%.3f n=%s", c.P, nPair(r.Cells[0], c)), verdict)
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	if len(t.Rows) > 1 {
		line := []string{"geomean"}
		for ci, g := range t.Geomean {
			if math.IsNaN(g.Value) {
				line = append(line, "-")
			} else {
				line = append(line, benchunit.Scale(g.Value, class))
			}
			if ci > 0 {
				d := ""
				if !math.IsNaN(g.Delta) {
					d = formatDelta(g.Delta)
				}
				line = append(line, d, "", "")
			}
		}
		fmt.Fprintln(tw, strings.Join(line, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(t.Columns) > 1 {
		fmt.Fprintf(w, "%s\n", significanceNote(t, alpha))
	}
	notes.write(w)
	return nil
}

// Table is a tabwriter that trims the padding tabwriter leaves at the end
// of lines whose last cells are empty.
type Table struct {
	*tabwriter.Writer
	buf bytes.Buffer
	out io.Writer
}

// NewTable returns a Table writing to w: cells separated by tabs, columns
// two spaces apart.
func NewTable(w io.Writer) *Table {
	t := &Table{out: w}
	t.Writer = tabwriter.NewWriter(&t.buf, 0, 0, 2, ' ', 0)
	return t
}

// Flush aligns the table and writes it without trailing spaces.
func (t *Table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	for _, line := range strings.SplitAfter(t.buf.String(), "\n") {
		if line == "" {
			continue
		}
		trimmed := strings.TrimRight(line, " \n")
		if _, err := io.WriteString(t.out, trimmed+"\n"); err != nil {
			return err
		}
	}
	t.buf.Reset()
	return nil
}

// significanceNote says how the verdicts were decided, under each table.
func significanceNote(t *stats.Table, alpha float64) string {
	if t.Method != "" {
		return t.Method
	}
	n := 0
	for _, r := range t.Rows {
		for _, c := range r.Cells[1:] {
			if c != nil && c.Compared {
				n++
			}
		}
	}
	dir := "lower is better"
	switch t.Better {
	case 1:
		dir = "higher is better"
	case 0:
		dir = "direction unknown"
	}
	return fmt.Sprintf("significant: Benjamini–Hochberg adjusted p ≤ %.2g across %d %s comparisons (p shown is benchstat's Mann-Whitney U); %s",
		alpha, n, t.Unit, dir)
}

func nPair(base, c *stats.Cell) string {
	if base == nil || base.Summary.N == c.Summary.N {
		return fmt.Sprint(c.Summary.N)
	}
	return fmt.Sprintf("%d+%d", base.Summary.N, c.Summary.N)
}

func formatDelta(d float64) string {
	switch {
	case math.IsNaN(d):
		return "?"
	case d == 0:
		return "0.00%"
	}
	return fmt.Sprintf("%+.2f%%", 100*d)
}

// footnotes numbers distinct warnings and prints them under a table, as
// benchstat does with ¹ ².
type footnotes struct {
	order []string
	index map[string]int
}

func newFootnotes() *footnotes { return &footnotes{index: map[string]int{}} }

var superscripts = []string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func (f *footnotes) mark(warnings []error) string {
	var marks []string
	seen := map[int]bool{}
	for _, w := range warnings {
		msg := w.Error()
		i, ok := f.index[msg]
		if !ok {
			f.order = append(f.order, msg)
			i = len(f.order)
			f.index[msg] = i
		}
		if !seen[i] {
			seen[i] = true
			marks = append(marks, superscript(i))
		}
	}
	if len(marks) == 0 {
		return ""
	}
	return " " + strings.Join(marks, " ")
}

func superscript(n int) string {
	var s string
	for _, d := range fmt.Sprint(n) {
		s += superscripts[d-'0']
	}
	return s
}

func (f *footnotes) write(w io.Writer) {
	for i, msg := range f.order {
		fmt.Fprintf(w, "%s %s\n", superscript(i+1), msg)
	}
}

func finite(f float64) *float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// NewCompareJSON converts comparison tables to the compare/v1 document.
func NewCompareJSON(tables []*stats.Table) *document.Compare {
	doc := &document.Compare{Schema: document.CompareSchema, Rows: []document.CompareRow{}, Geomean: []document.CompareGeomean{}}
	for _, t := range tables {
		pkg := configValue(t.Config, "pkg")
		for ci := 1; ci < len(t.Columns); ci++ {
			for _, r := range t.Rows {
				old, c := r.Cells[0], r.Cells[ci]
				if c == nil || old == nil || !c.Compared {
					continue
				}
				doc.Rows = append(doc.Rows, document.CompareRow{
					Benchmark:   r.Benchmark,
					Procs:       r.Procs,
					Package:     pkg,
					Unit:        t.Unit,
					Old:         document.NewMetric(old.Summary),
					New:         document.NewMetric(c.Summary),
					Delta:       finite(c.Delta),
					P:           c.P,
					Q:           c.Q,
					Significant: c.Significant,
					Verdict:     c.Verdict,
					MDE:         finite(c.MDE),
					DeltaLow:    finite(c.Low),
					DeltaHigh:   finite(c.High),
					OldFile:     t.Columns[0],
					NewFile:     t.Columns[ci],
				})
			}
			doc.Geomean = append(doc.Geomean, document.CompareGeomean{
				Unit: t.Unit, Package: pkg, Delta: finite(t.Geomean[ci].Delta), NewFile: t.Columns[ci],
			})
		}
	}
	return doc
}

func configValue(config []string, key string) string {
	for _, kv := range config {
		if v, ok := strings.CutPrefix(kv, key+": "); ok {
			return v
		}
	}
	return ""
}

// WriteJSON writes v as indented JSON and a newline.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// mdeNote says, for a row that is not significant, what the run could have
// seen and, when it is inconclusive, what it could not rule out.
func mdeNote(c *stats.Cell) string {
	if c.Significant || math.IsNaN(c.MDE) {
		return ""
	}
	detect := fmt.Sprintf("could detect ±%.1f%%", 100*c.MDE)
	if math.IsInf(c.MDE, 1) {
		detect = "too few rounds to detect any change"
	}
	if c.Verdict == stats.Inconclusive && !math.IsNaN(c.Low) && !math.IsNaN(c.High) {
		return fmt.Sprintf(" (the change is between %+.1f%% and %+.1f%%; %s)", 100*c.Low, 100*c.High, detect)
	}
	return " (" + detect + ")"
}
