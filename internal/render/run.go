package render

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
)

// runTable is perfloop run's figures side by side: one row per figure, one
// column per variant. It is nil for a document without a run.
func runTable(doc *document.Report) (header []string, rows [][]string) {
	if doc.Run == nil || len(doc.Run.Variants) == 0 {
		return nil, nil
	}
	vs := doc.Run.Variants
	header = []string{""}
	for _, v := range vs {
		header = append(header, v.Name)
	}
	row := func(name string, cell func(v document.RunVariant) string) {
		r := []string{name}
		for _, v := range vs {
			r = append(r, cell(v))
		}
		rows = append(rows, r)
	}
	numbered := false
	for _, v := range vs {
		numbered = numbered || !strings.HasPrefix(v.Name, strings.TrimSpace("run "+strings.Join(v.Args, " ")))
	}
	if numbered {
		row("arguments", func(v document.RunVariant) string { return shellWords(v.Args) })
	}
	if vs[0].Runs > 1 {
		row("runs", func(v document.RunVariant) string { return strconv.Itoa(v.Runs) })
	}
	row("exit", func(v document.RunVariant) string {
		s := strconv.Itoa(v.ExitCode)
		if v.Signal != "" {
			s += " (" + v.Signal + ")"
		}
		if v.End == "exit" && v.Signal == "" {
			s += " (os.Exit)"
		}
		return s
	})
	row("wall", func(v document.RunVariant) string {
		s := seconds(v.WallSeconds)
		if v.Wall != nil && v.Wall.Low != nil && v.Wall.High != nil {
			s += fmt.Sprintf(" [%s, %s]", seconds(*v.Wall.Low), seconds(*v.Wall.High))
		}
		return s
	})
	row("user", func(v document.RunVariant) string { return seconds(v.UserSeconds) })
	row("sys", func(v document.RunVariant) string { return seconds(v.SysSeconds) })
	row("CPU sampled", func(v document.RunVariant) string { return seconds(v.CPUSeconds) })
	row("gc share", func(v document.RunVariant) string { return percent(v.GCShare) })
	row("syscall share", func(v document.RunVariant) string { return percent(v.SyscallShare) })
	for _, cat := range topCategories(doc, 4) {
		row(cat+" share", func(v document.RunVariant) string {
			for _, c := range doc.Categories {
				if c.Benchmark == v.Name && string(c.Category) == cat {
					return percent(c.Share)
				}
			}
			return "—"
		})
	}
	row("allocated", func(v document.RunVariant) string { return formatBytes(v.AllocBytes) })
	row("allocations", func(v document.RunVariant) string { return formatCount(v.AllocObjects) })
	row("peak RSS", func(v document.RunVariant) string { return formatBytes(v.MaxRSSBytes) })
	row("page faults", func(v document.RunVariant) string {
		return formatCount(v.MinorFaults) + " minor, " + formatCount(v.MajorFaults) + " major"
	})
	row("CPU segments", func(v document.RunVariant) string {
		s := strconv.Itoa(v.Segments)
		if v.LostSegments > 0 {
			s += fmt.Sprintf(" (%d lost)", v.LostSegments)
		}
		return s
	})
	return header, rows
}

// shellWords writes args as a shell would need them typed: a word of
// letters, digits and -_./:=,+@% as it is, any other in single quotes, and
// one with a control character (a newline, a tab) in bash's $'…' with
// escapes, so the line stays one line and says exactly what was run.
func shellWords(args []string) string {
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = shellWord(a)
	}
	return strings.Join(words, " ")
}

func shellWord(a string) string {
	plain, control := a != "", false
	for _, r := range a {
		switch {
		case r < ' ' || r == 0x7f:
			control = true
		case !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r)):
			plain = false
		}
	}
	switch {
	case control:
		var b strings.Builder
		b.WriteString("$'")
		for _, r := range a {
			switch r {
			case '\\', '\'':
				b.WriteByte('\\')
				b.WriteRune(r)
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			case '\r':
				b.WriteString(`\r`)
			default:
				if r < ' ' || r == 0x7f {
					fmt.Fprintf(&b, `\x%02x`, r)
				} else {
					b.WriteRune(r)
				}
			}
		}
		b.WriteByte('\'')
		return b.String()
	case plain:
		return a
	}
	return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
}

// topCategories returns the largest CPU categories over the run's
// variants, gc and syscall left out (they have their own rows).
func topCategories(doc *document.Report, n int) []string {
	best := map[string]float64{}
	var order []string
	for _, c := range doc.Categories {
		cat := string(c.Category)
		if cat == "gc" || cat == "syscall" {
			continue
		}
		if _, ok := best[cat]; !ok {
			order = append(order, cat)
		}
		best[cat] = max(best[cat], c.Share)
	}
	var out []string
	for len(out) < n {
		pick := ""
		for _, c := range order {
			if best[c] >= 0.01 && (pick == "" || best[c] > best[pick]) {
				pick = c
			}
		}
		if pick == "" {
			break
		}
		out = append(out, pick)
		delete(best, pick)
	}
	return out
}

func seconds(s float64) string {
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond / 10).String()
}

// RunText writes perfloop run's figures side by side for a terminal, and
// the notes on what is missing.
func RunText(w io.Writer, doc *document.Report) error {
	header, rows := runTable(doc)
	if header == nil {
		return nil
	}
	tw := NewTable(w)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	return tw.Flush()
}

// run writes the run's figures and notes in Markdown.
func (m *mdWriter) run() {
	header, rows := runTable(m.doc)
	if header == nil {
		return
	}
	r := m.doc.Run
	m.printf("## The run\n\n")
	m.printf("%s, profiled in %s CPU segments, %s. Times are the kernel's (wait4 rusage)%s.\n\n",
		code(r.Package), seconds(r.SegmentSeconds), memRate(r.MemProfileRate), medianNote(r))
	align := "l" + strings.Repeat("r", len(header)-1)
	for i := range header[1:] {
		header[i+1] = code(header[i+1])
	}
	for _, row := range rows {
		for i := range row {
			row[i] = mdText(row[i])
		}
	}
	m.table(align, header, rows)
	for _, v := range r.Variants {
		for _, n := range v.Notes {
			m.printf("- %s\n", mdText(n))
		}
	}
	if hasNotes(r) {
		m.printf("\n")
	}
}

func hasNotes(r *document.Run) bool {
	for _, v := range r.Variants {
		if len(v.Notes) > 0 {
			return true
		}
	}
	return false
}

func memRate(rate int) string {
	switch rate {
	case 0:
		return "no heap profile (-memprofilerate 0)"
	case 1:
		return "heap sampled every allocation (every one recorded)"
	}
	return "heap sampled every " + formatBytes(int64(rate))
}

func medianNote(r *document.Run) string {
	if len(r.Variants) > 0 && r.Variants[0].Runs > 1 {
		return "; medians of the runs, wall with its 95% interval"
	}
	return ""
}

// runVariant is the run's variant named name, when doc is a run's.
func runVariant(doc *document.Report, name string) (document.RunVariant, bool) {
	if doc.Run == nil {
		return document.RunVariant{}, false
	}
	for _, v := range doc.Run.Variants {
		if v.Name == name {
			return v, true
		}
	}
	return document.RunVariant{}, false
}
