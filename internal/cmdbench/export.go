package cmdbench

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// WriteJSON writes r as indented perfloop.exec/v1 JSON.
func WriteJSON(w io.Writer, r *document.Exec) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// Sentence says c the way a person would: "A ran 1.25 ± 0.04 times faster
// than B (95% CI 1.20–1.31)", always from the faster command's side, and
// says so when the interval includes 1.
//
// Without a ratio (see NoRatio) it says "no measurable difference between
// A and B" when the difference's interval includes 0, and otherwise how
// much longer the slower command took.
func Sentence(c document.ExecComparison) string {
	if c.NoRatio != "" {
		d := c.Difference
		if d == nil || !c.Significant() {
			return fmt.Sprintf("no measurable difference between %q and %q: %s", c.A, c.B, c.NoRatio)
		}
		fast, slow, v, low, high := c.A, c.B, -d.Value, -d.High, -d.Low
		if d.Value > 0 {
			fast, slow, v, low, high = c.B, c.A, d.Value, d.Low, d.High
		}
		u := unitFor(v)
		return fmt.Sprintf("%q took %s less than %q (95%% CI %s–%s); no ratio: %s", fast,
			formatDuration(v, u), slow, formatDuration(low, u), formatDuration(high, u), c.NoRatio)
	}
	fast, slow := c.B, c.A
	ratio, sd, low, high := c.Ratio, c.Stddev, c.Low, c.High
	if c.Ratio < 1 {
		fast, slow = c.A, c.B
		ratio, sd, low, high = 1/c.Ratio, c.Stddev/(c.Ratio*c.Ratio), 1/c.High, 1/c.Low
	}
	s := fmt.Sprintf("%q ran %.2f ± %.2f times faster than %q (95%% CI %.2f–%.2f)", fast, ratio, sd, slow, low, high)
	if !c.Significant() {
		s += "; not a significant difference: the interval includes 1"
	}
	return s
}

// relative returns result i's comparison with the reference, and whether
// i is the reference itself.
func relative(r *document.Exec, i int) (c document.ExecComparison, isRef, ok bool) {
	if i == r.Reference {
		return document.ExecComparison{}, true, true
	}
	if r.Reference < 0 || r.Reference >= len(r.Results) {
		return document.ExecComparison{}, false, false
	}
	ref := r.Results[r.Reference].Name
	for _, c := range r.Comparisons {
		if c.A == r.Results[i].Name && c.B == ref {
			return c, false, true
		}
	}
	return document.ExecComparison{}, false, false
}

// WriteText writes the human summary: per command its times, resources,
// syscalls and warnings, then how the commands compare.
func WriteText(w io.Writer, r *document.Exec) error {
	var b strings.Builder
	if s := r.ShellSpawn; s != nil {
		u := unitFor(s.Wall.Mean)
		fmt.Fprintf(&b, "Shell spawn time: %s median, %s ± %s mean ± σ (%s -c '' over %d runs): subtracted from each run's wall time (and its mean user and sys time); -no-shell runs commands directly.\n\n",
			formatDuration(s.Wall.Median, u), formatDuration(s.Wall.Mean, u), formatDuration(s.Wall.Stddev, u), s.Shell, s.Runs)
	}
	for i, res := range r.Results {
		fmt.Fprintf(&b, "Benchmark %d: %s\n", i+1, res.Name)
		if res.Name != res.Command {
			fmt.Fprintf(&b, "  Command:             %s\n", res.Command)
		}
		u := unitFor(res.Wall.Mean)
		fmt.Fprintf(&b, "  Time (mean ± σ):     %s ± %s    [User: %s, System: %s]\n",
			formatDuration(res.Wall.Mean, u), formatDuration(res.Wall.Stddev, u),
			formatDuration(res.User.Mean, u), formatDuration(res.Sys.Mean, u))
		fmt.Fprintf(&b, "  Range (min … max):   %s … %s    median %s, %s\n",
			formatDuration(res.Wall.Min, u), formatDuration(res.Wall.Max, u),
			formatDuration(res.Wall.Median, u), plural(int64(res.Runs), "run"))
		rss := "peak RSS " + formatBytes(res.MaxRSSBytes)
		if res.MaxRSSIsBound {
			rss = "peak RSS ≤ " + formatBytes(res.MaxRSSBytes) + " (Linux counts perfloop's own peak into a child's)"
		}
		fmt.Fprintf(&b, "  Memory:              %s, %.0f minor / %.0f major page faults per run\n",
			rss, res.MinorFaults, res.MajorFaults)
		fmt.Fprintf(&b, "  Context switches:    %.1f voluntary / %.1f involuntary per run\n",
			res.VoluntaryCtxSwitches, res.InvoluntaryCtxSwitches)
		if sc := res.Syscalls; sc != nil {
			fmt.Fprintf(&b, "  Syscalls:            %s, %s (strace -c -f, one extra run)\n", plural(sc.Calls, "call"), plural(sc.Errors, "error"))
			const top = 8
			for _, c := range sc.BySyscall[:min(top, len(sc.BySyscall))] {
				fmt.Fprintf(&b, "    %-18s %8d", c.Name, c.Calls)
				if c.Errors > 0 {
					fmt.Fprintf(&b, "  (%s)", plural(c.Errors, "error"))
				}
				b.WriteByte('\n')
			}
			if n := len(sc.BySyscall) - top; n > 0 {
				fmt.Fprintf(&b, "    … and %d more (see -json)\n", n)
			}
		}
		if c := res.Counters; c != nil {
			fmt.Fprintf(&b, "  Counters:            perf stat, one extra run\n")
			for _, e := range c.Events {
				if e.Supported {
					fmt.Fprintf(&b, "    %-18s %14s\n", e.Name, strconv.FormatFloat(e.Value, 'f', -1, 64))
				}
			}
			if ipc, ok := ratioOf(c, "instructions", "cycles"); ok {
				fmt.Fprintf(&b, "    %-18s %14.2f\n", "instructions/cycle", ipc)
			}
			if c.Note != "" {
				fmt.Fprintf(&b, "    note: %s\n", c.Note)
			}
		}
		for _, warn := range res.Warnings {
			fmt.Fprintf(&b, "  Warning: %s\n", warn)
		}
		b.WriteByte('\n')
	}
	if len(r.Comparisons) > 0 {
		how := "unpaired bootstrap"
		if r.Interleaved {
			how = "bootstrap over interleaved rounds"
		}
		fmt.Fprintf(&b, "Summary (ratio of mean wall times; ± is the delta-method σ, the interval a 95%% %s)\n", how)
		for _, c := range r.Comparisons {
			fmt.Fprintf(&b, "  %s\n", Sentence(c))
		}
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(&b, "Warning: %s\n", warn)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// plural says "1 run", "2 runs".
func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// markdownCell writes s as a code span in a Markdown table cell: on one
// line, pipes escaped (GitHub splits the row before it reads the span),
// between runs of backticks longer than any inside s, so the span closes
// only at its end and shows every character.
func markdownCell(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ", "|", `\|`).Replace(s)
	longest, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			n++
			longest = max(longest, n)
		} else {
			n = 0
		}
	}
	ticks := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// WriteMarkdown writes r as a Markdown table, times in the unit that suits
// the reference command, with each command's mean relative to the
// reference.
func WriteMarkdown(w io.Writer, r *document.Exec) error {
	if len(r.Results) == 0 {
		return nil
	}
	ref := r.Results[0]
	if r.Reference >= 0 && r.Reference < len(r.Results) {
		ref = r.Results[r.Reference]
	}
	u := unitFor(ref.Wall.Mean)
	num := func(s float64) string { return strconv.FormatFloat(s/u.scale, 'f', 1, 64) }
	var b strings.Builder
	fmt.Fprintf(&b, "| Command | Mean [%[1]s] | Median [%[1]s] | Min [%[1]s] | Max [%[1]s] | User [%[1]s] | Sys [%[1]s] | Peak RSS | Relative |\n", u.name)
	b.WriteString("|:---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for i, res := range r.Results {
		rel := ""
		if c, isRef, ok := relative(r, i); isRef {
			rel = "1.00"
		} else if ok && c.NoRatio == "" {
			rel = fmt.Sprintf("%.2f ± %.2f", c.Ratio, c.Stddev)
		}
		fmt.Fprintf(&b, "| %s | %s ± %s | %s | %s | %s | %s | %s | %s | %s |\n",
			markdownCell(res.Name), num(res.Wall.Mean), num(res.Wall.Stddev), num(res.Wall.Median),
			num(res.Wall.Min), num(res.Wall.Max), num(res.User.Mean), num(res.Sys.Mean),
			rssCell(res), rel)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func rssCell(res document.ExecResult) string {
	if res.MaxRSSIsBound {
		return "≤ " + formatBytes(res.MaxRSSBytes)
	}
	return formatBytes(res.MaxRSSBytes)
}

// WriteCSV writes one row per command, times in seconds, with a column per
// parameter.
func WriteCSV(w io.Writer, r *document.Exec) error {
	var params []string
	for _, res := range r.Results {
		for p := range res.Parameters {
			if !slices.Contains(params, p) {
				params = append(params, p)
			}
		}
	}
	slices.Sort(params)
	cw := csv.NewWriter(w)
	header := []string{"name", "command", "runs", "mean", "stddev", "median", "min", "max", "user", "system",
		"max_rss_bytes", "minor_faults", "major_faults", "voluntary_ctx_switches", "involuntary_ctx_switches",
		"exit_codes", "relative"}
	for _, p := range params {
		header = append(header, "parameter_"+p)
	}
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for i, res := range r.Results {
		codes := make([]string, len(res.ExitCodes))
		for j, c := range res.ExitCodes {
			codes[j] = strconv.Itoa(c)
		}
		rel := ""
		if c, isRef, ok := relative(r, i); isRef {
			rel = "1"
		} else if ok && c.NoRatio == "" {
			rel = g(c.Ratio)
		}
		row := []string{res.Name, res.Command, strconv.Itoa(res.Runs),
			g(res.Wall.Mean), g(res.Wall.Stddev), g(res.Wall.Median), g(res.Wall.Min), g(res.Wall.Max),
			g(res.User.Mean), g(res.Sys.Mean), strconv.FormatInt(res.MaxRSSBytes, 10),
			g(res.MinorFaults), g(res.MajorFaults), g(res.VoluntaryCtxSwitches), g(res.InvoluntaryCtxSwitches),
			strings.Join(codes, " "), rel}
		for _, p := range params {
			row = append(row, res.Parameters[p])
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("write CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write CSV: %w", err)
	}
	return nil
}

// ratioOf returns counter a over counter b, when both were counted.
func ratioOf(c *document.ExecCounters, a, b string) (float64, bool) {
	x, ok1 := c.Value(a)
	y, ok2 := c.Value(b)
	if !ok1 || !ok2 || y == 0 {
		return 0, false
	}
	return x / y, true
}
