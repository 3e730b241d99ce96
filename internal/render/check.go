package render

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// CheckText writes perfloop check's verdict for a terminal: the verdict,
// each regression with its causes, broken budgets, inconclusive rows and
// improvements.
func CheckText(w io.Writer, c *document.Check) error {
	fmt.Fprintf(w, "%s: %s against %s", strings.ToUpper(c.Verdict), c.Head, c.Base)
	if c.Rounds > 0 {
		fmt.Fprintf(w, " (%d rounds in %.1fs", c.Rounds, c.WallSeconds)
		if c.ExplainSeconds > 0 {
			fmt.Fprintf(w, ", then %.1fs profiling the changes", c.ExplainSeconds)
		}
		fmt.Fprint(w, ")")
	}
	fmt.Fprintln(w)
	if len(c.Unaltered) > 0 {
		fmt.Fprintf(w, "\nnot run: the same machine code on both sides: %s\n", strings.Join(c.Unaltered, ", "))
	}
	for _, g := range groupRegressions(c.Regressions) {
		fmt.Fprintf(w, "\nregression: %s\n", g.benchmark)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, r := range g.shown() {
			th := fmt.Sprintf("(threshold %.0f%%)", 100*r.Threshold)
			if r.Unit == "allocs/op" {
				th = "(threshold ½ allocation)" // counts are exact
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s → %s\t%s\n", r.Unit, changeText(r.Delta, r.Old, ""), scaled(r.Old, r.Unit), scaled(r.New, r.Unit), th)
		}
		tw.Flush()
		width := 0
		for _, k := range g.causes {
			width = max(width, len(fileLine(k.File, k.Line)))
		}
		for _, k := range g.causes {
			fmt.Fprintf(w, "  %-6s %-*s  %s\n", k.Kind, width, fileLine(k.File, k.Line), causeText(k, func(s string) string { return s }))
			if sink := flowSink(k); sink != "" {
				fmt.Fprintf(w, "  %-6s %*s  escapes via %s\n", "", width, "", sink)
			}
		}
		if len(g.causes) == 0 {
			fmt.Fprintf(w, "  %s\n", noCause(c, "-profiletime"))
		}
	}
	if len(c.Layout) > 0 {
		fmt.Fprintln(w, "\nmoved with code layout (these benchmarks execute no changed function: the same code at other addresses; not failing):")
		for _, g := range groupRegressions(c.Layout) {
			fmt.Fprintf(w, "  %s %s\n", g.benchmark, g.units())
			for _, k := range g.causes {
				if k.Kind != "layout" {
					fmt.Fprintf(w, "    %-6s %s  %s\n", k.Kind, fileLine(k.File, k.Line), causeText(k, func(s string) string { return s }))
				}
			}
		}
	}
	for _, b := range c.Budgets {
		if !b.OK {
			if b.Benchmark == "" {
				fmt.Fprintf(w, "\nbudget %q: no benchmark matches it\n", b.Budget)
				continue
			}
			fmt.Fprintf(w, "\nbudget broken: %s: %s is %s, limit %s %s\n", b.Budget, b.Benchmark, valueText(b.Measured, b.Unit), b.Op, valueText(b.Limit, b.Unit))
		}
	}
	for _, f := range c.Failures {
		fmt.Fprintf(w, "\nfailed: %s\n", f)
	}
	if len(c.Inconclusive) > 0 {
		fmt.Fprintln(w, "\ninconclusive (too noisy to rule out a regression beyond the threshold):")
		for _, ch := range withoutThroughput(c.Inconclusive) {
			fmt.Fprintf(w, "  %s %s %s\n", ch.Benchmark, ch.Unit, intervalText(ch))
		}
	}
	if len(c.Improvements) > 0 {
		fmt.Fprintln(w, "\nimprovements:")
		for _, ch := range withoutThroughput(c.Improvements) {
			fmt.Fprintf(w, "  %s %s %+.1f%%%s\n", ch.Benchmark, ch.Unit, 100*ch.Delta, layoutNote(ch))
		}
	}
	if c.Rounds > 0 {
		fmt.Fprintf(w, "\n%d row(s) with no significant change or one within the threshold\n", c.Unchanged)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	return nil
}

// CheckMarkdown writes the verdict as a pull request comment: short and
// scannable — regressions first, each with its causes, then broken
// budgets, inconclusive rows and improvements, and the whole comparison
// collapsed at the end.
func CheckMarkdown(w io.Writer, c *document.Check, tables []*stats.Table, alpha float64) error {
	icon := map[string]string{document.CheckPass: "✅", document.CheckFail: "❌", document.CheckInconclusive: "⚠️", document.CheckInterrupted: "⏹️"}[c.Verdict]
	fmt.Fprintf(w, "<!-- perfloop check -->\n### %s perfloop check: %s\n\n", icon, c.Verdict)
	if c.Rounds > 0 {
		fmt.Fprintf(w, "%s against %s, %d interleaved rounds.\n\n", mdText(c.Head), mdText(c.Base), c.Rounds)
	} else {
		fmt.Fprintf(w, "%s against %s.\n\n", mdText(c.Head), mdText(c.Base))
	}
	if len(c.Unaltered) > 0 {
		fmt.Fprintf(w, "Not run, the same machine code on both sides: %s.\n\n", mdText(strings.Join(c.Unaltered, ", ")))
	}
	if len(c.Regressions) > 0 {
		fmt.Fprintln(w, "#### Regressions")
		fmt.Fprintln(w)
		for _, g := range groupRegressions(c.Regressions) {
			fmt.Fprintf(w, "- **%s** %s\n", mdText(g.benchmark), mdText(g.units()))
			for _, k := range g.causes {
				fmt.Fprintf(w, "  - %s %s %s\n", k.Kind, code(fileLine(k.File, k.Line)), causeMarkdown(k))
				if sink := flowSink(k); sink != "" {
					fmt.Fprintf(w, "    escapes via %s\n", code(sink))
				}
			}
			if len(g.causes) == 0 {
				fmt.Fprintf(w, "  - %s\n", noCause(c, "`-profiletime`"))
			}
		}
		fmt.Fprintln(w)
	}
	var broken []document.BudgetCheck
	for _, b := range c.Budgets {
		if !b.OK {
			broken = append(broken, b)
		}
	}
	if len(broken) > 0 {
		fmt.Fprintln(w, "#### Budgets broken")
		fmt.Fprintln(w)
		for _, b := range broken {
			if b.Benchmark == "" {
				fmt.Fprintf(w, "- %s: no benchmark matches it\n", code(b.Budget))
				continue
			}
			fmt.Fprintf(w, "- %s: **%s** is %s (limit %s)\n", code(b.Budget), mdText(b.Benchmark), mdText(valueText(b.Measured, b.Unit)), mdText(b.Op+" "+valueText(b.Limit, b.Unit)))
		}
		fmt.Fprintln(w)
	}
	if len(c.Failures) > 0 {
		fmt.Fprintln(w, "#### Failures")
		fmt.Fprintln(w)
		for _, f := range c.Failures {
			fmt.Fprintf(w, "- %s\n", mdText(f))
		}
		fmt.Fprintln(w)
	}
	if len(c.Layout) > 0 {
		fmt.Fprintln(w, "#### Moved with code layout (not failing)")
		fmt.Fprintln(w)
		fmt.Fprintln(w, "These benchmarks execute no function the change touched, on either side: the same code runs at other addresses, which the next edit may undo.")
		fmt.Fprintln(w)
		for _, g := range groupRegressions(c.Layout) {
			fmt.Fprintf(w, "- %s %s\n", mdText(g.benchmark), mdText(g.units()))
			for _, k := range g.causes {
				if k.Kind != "layout" {
					fmt.Fprintf(w, "  - %s %s %s\n", k.Kind, code(fileLine(k.File, k.Line)), causeMarkdown(k))
				}
			}
		}
		fmt.Fprintln(w)
	}
	if len(c.Inconclusive) > 0 {
		fmt.Fprintln(w, "#### Inconclusive")
		fmt.Fprintln(w)
		for _, ch := range withoutThroughput(c.Inconclusive) {
			fmt.Fprintf(w, "- %s %s %s\n", mdText(ch.Benchmark), mdText(ch.Unit), mdText(intervalText(ch)))
		}
		fmt.Fprintln(w)
	}
	if len(c.Improvements) > 0 {
		fmt.Fprintln(w, "#### Improvements")
		fmt.Fprintln(w)
		for _, ch := range withoutThroughput(c.Improvements) {
			fmt.Fprintf(w, "- %s %s %+.1f%%%s\n", mdText(ch.Benchmark), mdText(ch.Unit), 100*ch.Delta, strings.TrimRight(" "+mdText(layoutNote(ch)), " "))
		}
		fmt.Fprintln(w)
	}
	for _, n := range c.Notes {
		fmt.Fprintf(w, "> %s\n\n", mdText(n))
	}
	table := c.Comparison // a merged check's: its shards' tables
	if len(tables) > 0 {
		var err error
		if table, err = CheckComparison(c, tables, alpha); err != nil {
			return err
		}
	}
	if table != "" {
		// The table holds the benchmarks' names as they are: its fence is
		// longer than any run of backticks in them.
		fmt.Fprintln(w, "<details><summary>All benchmarks</summary>")
		fmt.Fprintln(w)
		fmt.Fprint(w, fenced("", "", strings.Split(strings.TrimSuffix(table, "\n"), "\n")))
		fmt.Fprintln(w, "</details>")
	}
	return nil
}

// CheckComparison is the table of every compared row of a check, as text,
// each row's verdict in the check's words (see checkWords); "" without
// tables.
func CheckComparison(c *document.Check, tables []*stats.Table, alpha float64) (string, error) {
	if len(tables) == 0 {
		return "", nil
	}
	var b strings.Builder
	if err := CompareText(&b, checkWords(c, tables, alpha), alpha); err != nil {
		return "", err
	}
	return b.String(), nil
}

func changeText(delta, old float64, unit string) string {
	if old == 0 {
		return strings.TrimSpace(fmt.Sprintf("%+g %s", delta, unit))
	}
	return fmt.Sprintf("%+.1f%%", 100*delta)
}

func valueText(v float64, unit string) string {
	if math.IsNaN(v) {
		return "?"
	}
	return scaled(v, unit) + " " + unit
}

func intervalText(ch document.Change) string {
	s := ""
	if ch.Low != nil && ch.High != nil {
		s = fmt.Sprintf("between %+.1f%% and %+.1f%%", 100**ch.Low, 100**ch.High)
	}
	if ch.MDE != nil {
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("could detect ±%.1f%%", 100**ch.MDE)
	}
	if s == "" {
		s = "too few rounds to detect any change"
	}
	return s
}

// regressionGroup is one benchmark's regressed units and their causes.
type regressionGroup struct {
	benchmark string
	rows      []document.Regression
	causes    []document.Cause
}

// groupRegressions gathers the regressions of each benchmark, in the order
// of their worst, with their causes once.
func groupRegressions(rs []document.Regression) []*regressionGroup {
	var out []*regressionGroup
	by := map[document.BenchKey]*regressionGroup{}
	for _, r := range rs {
		k := document.BenchKey{Package: r.Package, Name: r.Benchmark}
		g := by[k]
		if g == nil {
			g = &regressionGroup{benchmark: r.Benchmark}
			by[k] = g
			out = append(out, g)
		}
		g.rows = append(g.rows, r)
		slices.SortStableFunc(g.rows, func(a, b document.Regression) int { return unitRank(a.Unit) - unitRank(b.Unit) })
		for _, c := range r.Causes {
			if !slices.ContainsFunc(g.causes, func(d document.Cause) bool {
				return d.Kind == c.Kind && d.File == c.File && d.Line == c.Line && d.Message == c.Message
			}) {
				g.causes = append(g.causes, c)
			}
		}
	}
	return out
}

// unitRank orders a benchmark's regressed units: time, then allocations,
// bytes, others and last throughput, which restates the time.
func unitRank(unit string) int {
	switch {
	case unit == "sec/op" || unit == "ns/op":
		return 0
	case unit == "allocs/op":
		return 1
	case unit == "B/op":
		return 2
	case strings.HasSuffix(unit, "/s"):
		return 4
	}
	return 3
}

// units lists a group's shown units on one line: "sec/op +8.0% (1.200µ →
// 1.296µ), allocs/op +1 (0 → 1)".
func (g *regressionGroup) units() string {
	var units []string
	for _, r := range g.shown() {
		units = append(units, fmt.Sprintf("%s %s (%s → %s)", r.Unit, changeText(r.Delta, r.Old, ""), scaled(r.Old, r.Unit), scaled(r.New, r.Unit)))
	}
	return strings.Join(units, ", ")
}

// shown drops a group's throughput rows when its time row is there: B/s
// is the same measurement as sec/op, inverted.
func (g *regressionGroup) shown() []document.Regression {
	if len(g.rows) == 0 || unitRank(g.rows[0].Unit) != 0 {
		return g.rows
	}
	return slices.DeleteFunc(slices.Clone(g.rows), func(r document.Regression) bool { return unitRank(r.Unit) == 4 })
}

// flowSink is the last step of an escape's flow, the one that sends the
// value to the heap: "w.Write(hdr[:]) (call parameter) at codec.go:10:22".
func flowSink(c document.Cause) string {
	for i := len(c.Flow) - 1; i >= 0; i-- {
		if l, ok := strings.CutPrefix(strings.TrimSpace(c.Flow[i]), "from "); ok {
			return l
		}
	}
	return ""
}

// withoutThroughput drops the throughput rows (B/s) of benchmarks whose
// time row is in the list: the same measurement, inverted.
func withoutThroughput(chs []document.Change) []document.Change {
	timed := map[document.BenchKey]bool{}
	for _, ch := range chs {
		if unitRank(ch.Unit) == 0 {
			timed[document.BenchKey{Package: ch.Package, Name: ch.Benchmark}] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(chs), func(ch document.Change) bool {
		return unitRank(ch.Unit) == 4 && timed[document.BenchKey{Package: ch.Package, Name: ch.Benchmark}]
	})
}

// noCause is what a regression without causes says: that the profiles
// showed none (flag names -profiletime as the text shows it), or, in an
// interrupted check, that they may not have been looked for.
func noCause(c *document.Check, flag string) string {
	if c.Verdict == document.CheckInterrupted {
		return "no cause found before the check was interrupted"
	}
	return "no cause stood out of the profiles' sampling noise: a longer " + flag + " may show one"
}

// causeText is a cause's function, whether it is in the change, and its
// message: "in WriteFrame (changed): new allocation: …". fn formats the
// function's name.
func causeText(k document.Cause, fn func(string) string) string {
	var head []string
	if k.Function != "" {
		head = append(head, "in "+fn(funcInPackage(k.Function)))
	}
	switch {
	case k.Changed:
		head = append(head, "(changed)")
	case k.Outside:
		head = append(head, "(outside the diff)")
	}
	if len(head) == 0 {
		return k.Message
	}
	return strings.Join(head, " ") + ": " + k.Message
}

// causeMarkdown is causeText in Markdown, the function as code.
func causeMarkdown(k document.Cause) string {
	k.Message = mdText(k.Message)
	return causeText(k, code)
}

// funcInPackage drops a function's package path: "example.com/ck.(*W).Write"
// → "(*W).Write". A name without one ("Clamp") is kept.
func funcInPackage(name string) string {
	end := len(name)
	if i := strings.IndexAny(name, "(["); i >= 0 {
		end = i
	}
	slash := strings.LastIndexByte(name[:end], '/')
	if i := strings.IndexByte(name[slash+1:end], '.'); i >= 0 {
		return name[slash+1+i+1:]
	}
	return name
}

// checkWords returns copies of the run's tables whose verdicts are the
// check's for each row, the words the text and JSON use: "regression",
// "layout", "improvement", "inconclusive", "within the threshold" or "no
// significant change" —
// not the engine's (which calls a row it stopped without settling
// "inconclusive" even when it cannot hide a regression beyond the
// threshold). A row whose p-value alone is under alpha but that the
// correction for the table's comparisons left unchanged says so.
func checkWords(c *document.Check, tables []*stats.Table, alpha float64) []*stats.Table {
	words := map[string]string{}
	key := func(pkg, bench, unit string) string { return pkg + " " + bench + " " + unit }
	for _, r := range c.Regressions {
		words[key(r.Package, r.Benchmark, r.Unit)] = "regression"
	}
	for _, r := range c.Layout {
		words[key(r.Package, r.Benchmark, r.Unit)] = "layout"
	}
	for _, ch := range c.Improvements {
		words[key(ch.Package, ch.Benchmark, ch.Unit)] = "improvement"
		if ch.Layout {
			words[key(ch.Package, ch.Benchmark, ch.Unit)] = "improvement, layout"
		}
	}
	for _, ch := range c.Inconclusive {
		words[key(ch.Package, ch.Benchmark, ch.Unit)] = stats.Inconclusive
	}
	out := make([]*stats.Table, len(tables))
	for i, t := range tables {
		pkg := ""
		for _, cfg := range t.Config {
			if v, ok := strings.CutPrefix(cfg, "pkg: "); ok {
				pkg = v
			}
		}
		compared := 0
		for _, r := range t.Rows {
			for _, cell := range r.Cells[1:] {
				if cell != nil && cell.Compared {
					compared++
				}
			}
		}
		tc := *t
		tc.Rows = make([]*stats.Row, len(t.Rows))
		for j, r := range t.Rows {
			rc := *r
			rc.Cells = slices.Clone(r.Cells)
			for k, cell := range rc.Cells {
				if k == 0 || cell == nil || !cell.Compared {
					continue
				}
				cc := *cell
				w, ok := words[key(pkg, "Benchmark"+r.Benchmark, t.Unit)]
				if !ok {
					w = stats.NoChange
					if cc.Significant {
						// A change the check does not count: smaller
						// than the row's threshold.
						w = "within the threshold"
					} else if cc.P <= alpha {
						w += fmt.Sprintf(": p=%.3f alone, not once corrected for %d comparisons (q=%.3f)", cc.P, compared, cc.Q)
					}
				}
				cc.Verdict = w
				rc.Cells[k] = &cc
			}
			tc.Rows[j] = &rc
		}
		out[i] = &tc
	}
	return out
}

// layoutNote is what an improvement says when its benchmark executes no
// changed function.
func layoutNote(ch document.Change) string {
	if !ch.Layout {
		return ""
	}
	return " (executes no changed function, on either side: probably code layout)"
}
