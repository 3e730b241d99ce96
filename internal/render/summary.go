package render

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/perfloop/perfloop/internal/document"
)

// summaryWidth is how wide a line of Summary may be before its message is
// cut (the full text is in report.md).
const summaryWidth = 160

// Summary writes the report's first screen for a terminal: the ranked root
// causes, one line each (where, what it costs, what it is), then the
// benchmarks to fix first, those to leave alone and the costs of the API.
func Summary(w io.Writer, doc *document.Report) error {
	sec := sectionsOf(doc)
	if len(sec.Root) > 0 {
		fmt.Fprintln(w, "\nwhat to do first:")
		tw := NewTable(w)
		for i, f := range sec.Root {
			if f.NoChange && (i == 0 || !sec.Root[i-1].NoChange) {
				fmt.Fprintf(tw, "\t(no change named: where the rest goes)\t\t\n")
			}
			cost := ""
			if len(f.Costs) > 0 {
				c := f.Costs[0]
				cost = fmt.Sprintf("%s of %s", percent0(c.CPUShare), strings.TrimPrefix(c.Benchmark, "Benchmark"))
			}
			fmt.Fprintf(tw, "%d.\t%s\t%s\t%s\n", i+1, fileLine(f.File, f.Line), cost, cut(f.Message, summaryWidth-60))
			for _, t := range f.Tried {
				fmt.Fprintf(tw, "\t\t\ttried: %s\n", oneLine(triedLine(t)))
			}
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(sec.Bench) > 0 {
		fmt.Fprintln(w, "\nfix the benchmarks first:")
		for _, f := range sec.Bench {
			fmt.Fprintf(w, "  %s\n", cut(f.Message, summaryWidth-2))
		}
	}
	if n := len(sec.Notes); n > 0 {
		fmt.Fprintf(w, "\nnotes on the benchmarks: %d measured too small to distort their numbers (report.md, Appendix)\n", n)
	}
	if len(sec.Alone) > 0 {
		fmt.Fprintln(w, "\nleave alone:")
		for _, f := range sec.Alone {
			fmt.Fprintf(w, "  %s\n", cut(f.Message, summaryWidth-2))
		}
	}
	if len(sec.API) > 0 {
		fmt.Fprintln(w, "\ncosts of the API:")
		for _, f := range sec.API {
			fmt.Fprintf(w, "  %s  %s\n", fileLine(f.File, f.Line), cut(f.Message, summaryWidth-20))
		}
	}
	return nil
}

func percent0(f float64) string {
	if f > 0 && f < 0.01 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", 100*f)
}

// cut shortens s to n runes at a word, with an ellipsis.
func cut(s string, n int) string {
	s = oneLine(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)[:n-1]
	if i := strings.LastIndexByte(string(r), ' '); i > n/2 {
		return string(r)[:i] + " …"
	}
	return string(r) + "…"
}

// triedLine says in one line what fix tried: "presize, −16.4% [−19.0,
// −13.2] sec/op in BenchmarkParse — fixes/01-presize.patch", or
// "strconv, no significant change (could detect ±3.0%)".
func triedLine(t document.Tried) string {
	var b strings.Builder
	b.WriteString(t.Rewrite)
	if t.Review {
		b.WriteString(" (review)")
	}
	switch {
	case !t.Kept:
		b.WriteString(", " + t.Reason)
		return b.String()
	case t.Gain != nil:
		g := t.Gain
		fmt.Fprintf(&b, ", %s [%s, %s] %s in %s", minusPercent(g.Delta), minusSigned(g.CI[0]), minusSigned(g.CI[1]), g.Unit, g.Name)
	default:
		b.WriteString(", kept")
	}
	if t.Patch != "" {
		b.WriteString(" — " + t.Patch)
	}
	return b.String()
}

// minusPercent is a change in percent with its sign, a minus sign for a
// decrease: "−16.4%", "+2.0%".
func minusPercent(d float64) string { return minusSigned(d) + "%" }

// minusSigned is minusPercent without the percent sign.
func minusSigned(d float64) string {
	s := fmt.Sprintf("%+.1f", d*100)
	return strings.Replace(s, "-", "−", 1)
}
