package render

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/results"
)

// ProfileRow is one benchmark as perfloop profile measured it.
type ProfileRow struct {
	Package string
	Name    string // "BenchmarkEncode"
	Status  results.Status
	Error   string
	// Analysis is nil when the benchmark or its profiles failed.
	Analysis *profiles.Analysis
	// CPUProfile and HeapProfile are where the profiles were kept, or "".
	CPUProfile, HeapProfile string
}

// ProfileOptions says how much of each profile to show.
type ProfileOptions struct {
	// Hotspots is how many functions to show by flat and by cum (the
	// union of both tops); 0 means 10.
	Hotspots int
	// Sites is how many allocation sites to show by bytes and by
	// objects; 0 means 5.
	Sites int
	// MinShare hides functions and sites below this share of both their
	// values, as pprof's -nodefraction does; 0 means 0.005.
	MinShare float64
}

// hotspots returns the functions to show: the top by flat and by cum.
func (o ProfileOptions) hotspots(c *profiles.CPU) []profiles.Function {
	return c.Shown(cmp.Or(o.Hotspots, 10), o.MinShare)
}

// sites returns the allocation sites to show: the top by bytes and by
// objects.
func (o ProfileOptions) sites(h *profiles.Heap) []profiles.Site {
	return h.Shown(cmp.Or(o.Sites, 5), o.MinShare)
}

// ProfileText writes one benchmark's profile summary for people: totals,
// the dominant call path, categories, the hotspots and the allocation
// sites, each table aligned.
func ProfileText(w io.Writer, row *ProfileRow, opts ProfileOptions) error {
	fmt.Fprintf(w, "%s  %s\n", row.Name, row.Package)
	if row.Status != results.StatusOK || row.Analysis == nil {
		msg := string(row.Status)
		if row.Error != "" {
			msg += ": " + row.Error
		}
		_, err := fmt.Fprintf(w, "  %s\n", msg)
		return err
	}
	cpu, heap := row.Analysis.CPU, row.Analysis.Heap
	fmt.Fprintf(w, "  cpu: %s in %d samples", cpuTotal(cpu), cpu.Samples)
	if cpu.Duration > 0 {
		fmt.Fprintf(w, " over %v", cpu.Duration.Round(time.Millisecond))
	}
	fmt.Fprintf(w, "; allocated: %s in %s objects, %s at sites in _test.go files\n",
		formatBytes(heap.Bytes), formatCount(heap.Objects), percent(heap.TestShare))
	if len(cpu.Path.Frames) > 0 {
		fmt.Fprintf(w, "  call path: %s (%s)\n", cpu.Path, percent(cpu.Path.Share))
	}
	cats := make([]string, 0, len(cpu.Categories))
	for _, c := range cpu.Categories {
		cats = append(cats, c.Name+" "+percent(c.Share))
	}
	fmt.Fprintf(w, "  categories: %s\n\n", strings.Join(cats, ", "))

	hot := [][]string{{"flat%", "cum%", "hottest line", "function"}}
	for _, f := range opts.hotspots(cpu) {
		hot = append(hot, []string{percent(f.FlatShare), percent(f.CumShare), fileLine(f.File, f.Line), f.Name})
	}
	if err := writeIndented(w, hot, 2); err != nil {
		return err
	}
	fmt.Fprintln(w)
	sites := [][]string{{"bytes%", "objects%", "bytes", "objects", "site", "function"}}
	for _, s := range opts.sites(heap) {
		fn := s.Function
		if s.Via != "" {
			fn += " via " + s.Via
		}
		sites = append(sites, []string{percent(s.BytesShare), percent(s.ObjectsShare),
			formatBytes(s.Bytes), formatCount(s.Objects), fileLine(s.File, s.Line), fn})
	}
	return writeIndented(w, sites, 4)
}

// writeIndented writes rows as a table indented by two spaces, with the
// first numeric columns right-aligned.
func writeIndented(w io.Writer, rows [][]string, numeric int) error {
	width := make([]int, numeric)
	for _, r := range rows {
		for i := 0; i < numeric; i++ {
			width[i] = max(width[i], utf8.RuneCountInString(r[i]))
		}
	}
	tw := NewTable(w)
	for _, r := range rows {
		cells := slices.Clone(r)
		for i := 0; i < numeric; i++ {
			cells[i] = strings.Repeat(" ", width[i]-utf8.RuneCountInString(cells[i])) + cells[i]
		}
		fmt.Fprintln(tw, "  "+strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func cpuTotal(c *profiles.CPU) string {
	if c.Unit == "nanoseconds" {
		return time.Duration(c.Total).Round(time.Millisecond).String()
	}
	return fmt.Sprintf("%d %s", c.Total, c.Unit)
}

func fileLine(file string, line int64) string {
	if file == "" {
		return "?"
	}
	return file + ":" + strconv.FormatInt(line, 10)
}

func percent(f float64) string {
	return strconv.FormatFloat(100*f, 'f', 1, 64) + "%"
}

// formatBytes scales a byte count in powers of 1024, as pprof does.
func formatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, i := float64(n), 0
	for v >= unit && i < 4 {
		v /= unit
		i++
	}
	return strconv.FormatFloat(v, 'f', 1, 64) + " " + []string{"", "KiB", "MiB", "GiB", "TiB"}[i]
}

// formatCount writes n with thousands separators.
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
