package render

import (
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
