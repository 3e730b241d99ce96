package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/perfloop/perfloop/internal/document"
)

// HistoryText writes a history for a terminal: the series that shifted,
// each change point on a line (commit, shift, medians before and after,
// confidence, subject), and a count of the steady ones; all lists every
// series.
func HistoryText(w io.Writer, h *document.History, all bool) error {
	if len(h.Commits) == 0 {
		_, err := fmt.Fprintln(w, "no runs recorded for this module: perfloop record stores one")
		return err
	}
	subject := map[string]string{}
	for _, c := range h.Commits {
		subject[c.Commit] = c.Subject
	}
	fmt.Fprintf(w, "%d commits, %d series, machine %s", len(h.Commits), len(h.Benchmarks), h.Fingerprint)
	if h.Others > 0 {
		fmt.Fprintf(w, " (%d runs on other machines left out)", h.Others)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	steady := 0
	for _, b := range h.Benchmarks {
		if len(b.ChangePoints) == 0 && !all {
			steady++
			continue
		}
		last := b.Points[len(b.Points)-1]
		fmt.Fprintf(tw, "\n%s %s: %d points, now %s %s\n", b.Name, b.Unit, len(b.Points), scaled(last.Value, b.Unit), b.Unit)
		for _, c := range b.ChangePoints {
			fmt.Fprintf(tw, "  %s\t%+.1f%%\t%s → %s\tconfidence %.1f%%\t%s\n", shortCommit(c.Commit), 100*c.Delta,
				scaled(c.Before, b.Unit), scaled(c.After, b.Unit), 100*c.Confidence, subject[c.Commit])
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if steady > 0 {
		fmt.Fprintf(w, "\n%d series without a change point (-all lists them)\n", steady)
	}
	return nil
}

func shortCommit(c string) string { return c[:min(12, len(c))] }

// FormatValue formats a value of unit as the tables do ("1.234µ" for
// sec/op, "64" for B/op), without the unit.
func FormatValue(v float64, unit string) string { return scaled(v, unit) }

// HistoryJSON writes a perfloop.history/v1 document a series at a time:
// Begin writes everything but the series, Add one series, End closes the
// document. The bytes are those WriteJSON writes for the whole document.
type HistoryJSON struct {
	w io.Writer
	n int
}

// NewHistoryJSON returns a HistoryJSON writing to w.
func NewHistoryJSON(w io.Writer) *HistoryJSON { return &HistoryJSON{w: w} }

// Begin writes h without its series (h.Benchmarks must be empty).
func (j *HistoryJSON) Begin(h *document.History) error {
	head := *h
	head.Benchmarks = []document.HistoryBenchmark{}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, &head); err != nil {
		return err
	}
	text, ok := bytes.CutSuffix(buf.Bytes(), []byte("[]\n}\n"))
	if !ok {
		return fmt.Errorf("history JSON: unexpected end %q", buf.Bytes()[max(0, buf.Len()-16):])
	}
	_, err := j.w.Write(append(text, '['))
	return err
}

// Add writes one series.
func (j *HistoryJSON) Add(b *document.HistoryBenchmark) error {
	var buf bytes.Buffer
	if j.n > 0 {
		buf.WriteByte(',')
	}
	buf.WriteString("\n    ")
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	j.n++
	_, err := j.w.Write(buf.Bytes())
	return err
}

// End closes the document.
func (j *HistoryJSON) End() error {
	end := "\n  ]\n}\n"
	if j.n == 0 {
		end = "]\n}\n"
	}
	_, err := io.WriteString(j.w, end)
	return err
}
