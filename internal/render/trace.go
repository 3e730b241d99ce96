package render

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/perfloop/perfloop/internal/document"
)

// TraceText writes perfloop trace's summaries for people: per benchmark a
// block whose rows line up — GC, stop-the-world pauses, scheduler
// latency, blocked time by reason, peaks. With a comparison (doc.Base
// set) it writes TraceCompareText instead.
func TraceText(w io.Writer, doc *document.Trace) error {
	if doc.Base != nil {
		return TraceCompareText(w, doc)
	}
	var b strings.Builder
	for i := range doc.Benchmarks {
		if i > 0 {
			b.WriteString("\n")
		}
		traceBlock(&b, &doc.Benchmarks[i])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// TraceBenchmarkText writes one benchmark's block, as TraceText does
// (for printing each benchmark as it finishes).
func TraceBenchmarkText(w io.Writer, tb *document.TraceBenchmark) error {
	var b strings.Builder
	traceBlock(&b, tb)
	_, err := io.WriteString(w, b.String())
	return err
}

func traceBlock(b *strings.Builder, tb *document.TraceBenchmark) {
	fmt.Fprintf(b, "%s  %s\n", tb.Name, tb.Package)
	if tb.Status != "ok" || tb.GC == nil {
		msg := tb.Status
		if tb.Error != "" {
			msg += ": " + tb.Error
		}
		fmt.Fprintf(b, "  %s\n", msg)
		return
	}
	run := fmt.Sprintf("%s iterations in %s", formatCount(tb.Iterations), secs(tb.WallSeconds))
	if tb.NsPerOp > 0 {
		run += fmt.Sprintf(" (%s/op traced)", secs(tb.NsPerOp/1e9))
	}
	if tb.Trace != "" {
		run += "; trace " + tb.Trace
	}
	g, s, l, p := tb.GC, tb.STW, tb.SchedLatency, tb.Peak
	gc := fmt.Sprintf("%d cycles, %s of %d Ps (%s): workers %s, assists %s, pauses %s; idle workers %s",
		g.Cycles, percent(g.CPUShare), p.GOMAXPROCS, secs(g.CPUSeconds), secs(g.WorkerSeconds), secs(g.AssistSeconds),
		secs(g.PauseSeconds), secs(g.IdleWorkerSeconds))
	if g.Cycles == 0 {
		gc = "no cycles"
	}
	if g.Forced > 0 {
		gc += fmt.Sprintf("; %d forced by testing, left out", g.Forced)
	}
	stw := "none"
	if s.Count > 0 {
		stw = fmt.Sprintf("%d, total %s, max %s", s.Count, secs(s.TotalSeconds), secs(s.MaxSeconds))
		var rs []string
		for _, r := range s.Reasons {
			rs = append(rs, fmt.Sprintf("%s %d", r.Reason, r.Count))
		}
		stw += " (" + strings.Join(rs, ", ") + ")"
	}
	sched := "no waits"
	if l.Count > 0 {
		sched = fmt.Sprintf("p50 %s, p90 %s, p99 %s, max %s (%s waits)", secs(l.P50Seconds), secs(l.P90Seconds),
			secs(l.P99Seconds), secs(l.MaxSeconds), formatCount(int64(l.Count)))
	}
	rows := [][2]string{
		{"run", run},
		{"gc", gc},
		{"stw pauses", stw},
		{"sched latency", sched},
		{"blocked", blockedText(tb.Blocked)},
		{"peak", fmt.Sprintf("%d goroutines, %d running, %d in syscalls, %d threads, heap %s",
			p.Goroutines, p.Running, p.Syscalls, p.Threads, formatBytes(int64(min(p.HeapBytes, math.MaxInt64))))},
	}
	for _, r := range rows {
		fmt.Fprintf(b, "  %-13s  %s\n", r[0], r[1])
	}
}

// blockedText lists the reasons with time, the longest first.
func blockedText(bl *document.TraceBlocked) string {
	var parts []string
	for _, r := range blockedReasons(bl) {
		if r.w.Count > 0 {
			parts = append(parts, fmt.Sprintf("%s %s (%s)", r.name, secs(r.w.Seconds), formatCount(int64(r.w.Count))))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return fmt.Sprintf("%s: ", secs(bl.TotalSeconds)) + strings.Join(parts, ", ")
}

type namedWait struct {
	name string
	w    document.TraceWait
}

func blockedReasons(bl *document.TraceBlocked) []namedWait {
	return []namedWait{{"channel", bl.Channel}, {"sync", bl.Sync}, {"syscall", bl.Syscall},
		{"network", bl.Network}, {"gc", bl.GC}, {"sleep", bl.Sleep}, {"other", bl.Other}}
}

// TraceCompareText writes a comparison of two revisions' summaries: per
// benchmark a table of the figures, BASE, HEAD and the change (relative;
// in points for shares). Each side is one trace, so a change is not a
// verdict: the header says so.
func TraceCompareText(w io.Writer, doc *document.Trace) error {
	var b strings.Builder
	base := doc.Base
	fmt.Fprintf(&b, "BASE: %s; HEAD: %s. One trace per side at the same iteration count; the changes are single measurements, not tested for significance.\n",
		base.Revision, doc.Revision)
	baseBy := map[document.BenchKey]*document.TraceBenchmark{}
	for i := range base.Benchmarks {
		tb := &base.Benchmarks[i]
		baseBy[document.BenchKey{Package: tb.Package, Name: tb.Name}] = tb
	}
	seen := map[document.BenchKey]bool{}
	for i := range doc.Benchmarks {
		head := &doc.Benchmarks[i]
		key := document.BenchKey{Package: head.Package, Name: head.Name}
		seen[key] = true
		b.WriteString("\n")
		compareBlock(&b, baseBy[key], head)
	}
	for i := range base.Benchmarks {
		tb := &base.Benchmarks[i]
		if !seen[document.BenchKey{Package: tb.Package, Name: tb.Name}] {
			fmt.Fprintf(&b, "\n%s  %s\n  BASE only\n", tb.Name, tb.Package)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func compareBlock(b *strings.Builder, base, head *document.TraceBenchmark) {
	fmt.Fprintf(b, "%s  %s\n", head.Name, head.Package)
	switch {
	case base == nil:
		b.WriteString("  HEAD only\n")
		return
	case base.Status != "ok" || base.GC == nil:
		fmt.Fprintf(b, "  BASE %s: %s\n", base.Status, base.Error)
		return
	case head.Status != "ok" || head.GC == nil:
		fmt.Fprintf(b, "  HEAD %s: %s\n", head.Status, head.Error)
		return
	}
	type row struct {
		name       string
		base, head float64
		format     func(float64) string
		share      bool
	}
	count := func(v float64) string { return formatCount(int64(v)) }
	bytes := func(v float64) string { return formatBytes(int64(v)) }
	share := func(v float64) string { return percent(v) }
	rows := []row{
		{name: "wall", base: base.WallSeconds, head: head.WallSeconds, format: secs},
		{name: "time/op", base: base.NsPerOp / 1e9, head: head.NsPerOp / 1e9, format: secs},
		{name: "gc cycles", base: float64(base.GC.Cycles), head: float64(head.GC.Cycles), format: count},
		{name: "gc cpu share", base: base.GC.CPUShare, head: head.GC.CPUShare, format: share, share: true},
		{name: "gc cpu", base: base.GC.CPUSeconds, head: head.GC.CPUSeconds, format: secs},
		{name: "gc assists", base: base.GC.AssistSeconds, head: head.GC.AssistSeconds, format: secs},
		{name: "stw pauses", base: float64(base.STW.Count), head: float64(head.STW.Count), format: count},
		{name: "stw total", base: base.STW.TotalSeconds, head: head.STW.TotalSeconds, format: secs},
		{name: "stw max", base: base.STW.MaxSeconds, head: head.STW.MaxSeconds, format: secs},
		{name: "sched p50", base: base.SchedLatency.P50Seconds, head: head.SchedLatency.P50Seconds, format: secs},
		{name: "sched p90", base: base.SchedLatency.P90Seconds, head: head.SchedLatency.P90Seconds, format: secs},
		{name: "sched p99", base: base.SchedLatency.P99Seconds, head: head.SchedLatency.P99Seconds, format: secs},
		{name: "sched max", base: base.SchedLatency.MaxSeconds, head: head.SchedLatency.MaxSeconds, format: secs},
		{name: "blocked", base: base.Blocked.TotalSeconds, head: head.Blocked.TotalSeconds, format: secs},
	}
	hr := blockedReasons(head.Blocked)
	for i, br := range blockedReasons(base.Blocked) {
		if br.w.Count > 0 || hr[i].w.Count > 0 {
			rows = append(rows, row{name: "  " + br.name, base: br.w.Seconds, head: hr[i].w.Seconds, format: secs})
		}
	}
	rows = append(rows,
		row{name: "peak goroutines", base: float64(base.Peak.Goroutines), head: float64(head.Peak.Goroutines), format: count},
		row{name: "peak threads", base: float64(base.Peak.Threads), head: float64(head.Peak.Threads), format: count},
		row{name: "peak heap", base: float64(base.Peak.HeapBytes), head: float64(head.Peak.HeapBytes), format: bytes},
	)
	cells := [][]string{{"", "BASE", "HEAD", "change"}}
	for _, r := range rows {
		cells = append(cells, []string{r.name, r.format(r.base), r.format(r.head), change(r.base, r.head, r.share)})
	}
	if base.Iterations != head.Iterations {
		fmt.Fprintf(b, "  iterations differ: BASE %d, HEAD %d\n", base.Iterations, head.Iterations)
	}
	writeTable(b, cells)
}

// change is HEAD against BASE: relative, or in points for a share.
func change(base, head float64, share bool) string {
	switch {
	case share:
		d := 100 * (head - base)
		if math.Abs(d) < 0.05 {
			return "~"
		}
		return strconv.FormatFloat(d, 'f', 1, 64) + " pts"
	case base == head:
		return "~"
	case base == 0:
		return "new"
	}
	d := 100 * (head/base - 1)
	sign := ""
	if d > 0 {
		sign = "+"
	}
	return sign + strconv.FormatFloat(d, 'f', 1, 64) + "%"
}

// writeTable writes cells indented, the first column left-aligned and
// the others right-aligned, two spaces apart.
func writeTable(b *strings.Builder, cells [][]string) {
	widths := make([]int, len(cells[0]))
	for _, row := range cells {
		for i, c := range row {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, row := range cells {
		var line strings.Builder
		line.WriteString("  ")
		for i, c := range row {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == 0 {
				line.WriteString(c + pad)
			} else {
				line.WriteString("  " + pad + c)
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
	}
}

// secs writes a time in seconds with three significant digits, in the
// unit time.Duration would choose.
func secs(s float64) string {
	d := time.Duration(math.Round(s * 1e9))
	if d == 0 {
		return "0"
	}
	for _, r := range []time.Duration{time.Hour, time.Second, time.Millisecond, time.Microsecond} {
		if d >= 100*r && r != time.Hour {
			return d.Round(r).String()
		}
		if d >= 10*r && r != time.Hour {
			return d.Round(r / 10).String()
		}
		if d >= r {
			return d.Round(r / 100).String()
		}
	}
	return d.String()
}
