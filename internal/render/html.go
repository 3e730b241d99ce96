package render

import (
	"cmp"
	_ "embed"
	"fmt"
	"hash/fnv"
	"html/template"
	"io"
	"math"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
)

//go:embed report.html.tmpl
var htmlTemplateText string

// The page's style sheet and script: inline in report.html, files of
// their own for a server (Options.Assets).
var (
	//go:embed report.css
	htmlStyle string
	//go:embed report.js
	htmlScript string
)

// StyleSheet is the CSS report.html holds inline, for a server that
// serves it as Options.Assets + "/report.css".
func StyleSheet() string { return htmlStyle }

// Script is the script report.html holds inline (the flame graphs' zoom),
// for a server that serves it as Options.Assets + "/report.js".
func Script() string { return htmlScript }

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":      percent,
	"fileLine": fileLine,
	"tried":    triedLine,
	"short":    document.ShortFunc,
	"bytes":    formatBytes,
	"count":    formatCount,
	"add":      func(a, b int) int { return a + b },
	"sub":      func(a, b int) int { return a - b },
	"charts":   (*htmlView).charts,
	"cost":     costText, // per document: see HTML
	"compiler": compilerText,
	"unnamed":  func(f document.Finding) string { return strings.TrimPrefix(f.Message, f.Benchmark+": ") },
	"deref": func(f *float64) float64 {
		if f == nil {
			return 0
		}
		return *f
	},
}).Parse(htmlTemplateText))

// HTML writes doc as one self-contained HTML page: the sections of the
// Markdown report, with inline SVG charts of time and allocations per
// benchmark, CPU categories per benchmark and, for each benchmark in
// opts.Flames, an icicle flame graph. The page loads nothing from
// anywhere: styles are inline and the only script, which zooms the flame
// graph on click, is optional. With opts.Assets the style sheet and the
// script are linked instead (StyleSheet, Script), for a server whose
// Content-Security-Policy allows no inline code.
func HTML(w io.Writer, doc *document.Report, opts Options) error {
	v := newHTMLView(doc, opts)
	t, err := htmlTemplate.Clone()
	if err != nil {
		return err
	}
	t.Funcs(template.FuncMap{"cost": func(f document.Finding) string { return costIn(doc, f) }})
	return t.Execute(w, v)
}

// htmlView is what the template shows, computed so the template only
// loops and prints.
type htmlView struct {
	Title string
	// Costliest is what a finding's cost is ranked in: "benchmark", or
	// "run" for a program's run.
	Costliest string
	// Assets is Options.Assets; Style and Script the inline code
	// without it.
	Assets                            string
	Style                             template.CSS
	Script                            template.JS
	Env                               [][2]string
	Sec                               sections
	Units                             []string
	Rows                              [][]string
	NoCI                              string
	TimeChart, AllocChart, BytesChart *barChart
	CatChart                          *stackChart
	CPU                               []htmlCPU
	Mem                               []benchMem
	Gate                              []htmlGate
	Failed                            [][]string
	Scaling                           []document.Scaling
	Cores                             []htmlCore
	Commands                          []document.Command
	Doc                               *document.Report
	// RunHeader and RunRows are perfloop run's figures side by side;
	// RunNotes what is missing.
	RunHeader []string
	RunRows   [][]string
	RunNotes  []string
}

type htmlCPU struct {
	Name     string
	Bench    document.Benchmark
	Hotspots []document.Hotspot
	Flame    *flameSVG
}

// htmlCore is a concurrent benchmark's row of the scaling table, with
// what stops it, as lines of text.
type htmlCore struct {
	document.Scaling
	NsPerOp, Efficiency, CoresUsed string
	Notes                          []string
}

func newHTMLCore(s document.Scaling) htmlCore {
	c := htmlCore{Scaling: s}
	if s.NotMeasured != "" {
		c.NsPerOp = "not measured: " + s.NotMeasured
		return c
	}
	var ns []string
	for i, n := range s.CPU {
		ns = append(ns, fmt.Sprintf("%d: %s", n, nsText(s.NsPerOp[i])))
	}
	c.NsPerOp = strings.Join(ns, " · ")
	c.Efficiency = fmt.Sprintf("%.2f", s.Efficiency)
	if s.CoresUsed > 0 {
		c.CoresUsed = fmt.Sprintf("%.1f", s.CoresUsed)
	}
	for _, l := range s.Locks {
		t := fmt.Sprintf("%s:%d %s", l.File, l.Line, cmp.Or(l.Source, l.Op))
		if l.DelayPerOp > 0 {
			t += fmt.Sprintf(": waits %s/op", nsText(l.DelayPerOp))
		}
		if l.HeldTo > 0 {
			t += fmt.Sprintf("; held to line %d with %s of the CPU inside", l.HeldTo, percent0(l.CPUInside))
		}
		if l.LockCPU > 0 {
			t += fmt.Sprintf("; lock operations %s of the CPU", percent0(l.LockCPU))
		}
		c.Notes = append(c.Notes, t)
	}
	for _, g := range s.Growing {
		c.Notes = append(c.Notes, fmt.Sprintf("%s:%d %s: CPU per op %s at -cpu 1, %s at -cpu %d %s", g.File, g.Line, cmp.Or(g.Source, g.Callee),
			nsText(g.NsPerOp1), nsText(g.NsPerOpN), s.CPU[len(s.CPU)-1], g.Mechanism))
	}
	if h := s.HarnessBlockShare; h != nil {
		c.Notes = append(c.Notes, fmt.Sprintf("the harness's own waiting: %s of the block profile, not a finding", percent0(*h)))
	}
	return c
}

type htmlGate struct {
	document.Gate
	Class, Measured, Threshold string
}

func newHTMLView(d *document.Report, opts Options) *htmlView {
	v := &htmlView{Title: opts.title(d), Costliest: costliest(d), Doc: d, Sec: sectionsOf(d), Commands: d.Commands,
		Assets: opts.Assets, Style: template.CSS(htmlStyle), Script: template.JS(htmlScript)}
	for _, s := range d.Scaling {
		if s.Parameter == "cpu" {
			v.Cores = append(v.Cores, newHTMLCore(s))
		} else {
			v.Scaling = append(v.Scaling, s)
		}
	}
	add := func(k, val string) {
		if val != "" {
			v.Env = append(v.Env, [2]string{k, val})
		}
	}
	add("module", d.Module)
	add("commit", d.Commit)
	add("go", strings.TrimSpace(d.GoVersion+" "+platform(d)))
	add("cpu", d.CPU)
	add("date", d.Date)
	add("runs", runs(d))
	add("time", TimeSpent(d.Timing))
	add("analyses", analysesWhen(d.Timing))
	v.RunHeader, v.RunRows = runTable(d)
	if d.Run != nil {
		for _, rv := range d.Run.Variants {
			v.RunNotes = append(v.RunNotes, rv.Notes...)
		}
	}

	bs := metricBenchmarks(d.Benchmarks)
	if d.Op == document.OpRun {
		bs = nil // the run's table has its figures
	}
	if us := units(bs); len(bs) > 0 && len(us) > 0 {
		v.Units = us
		for _, b := range bs {
			row := []string{benchLabel(d, b)}
			for _, u := range us {
				row = append(row, metricCell(b.Metrics[u], u))
			}
			v.Rows = append(v.Rows, row)
		}
		v.NoCI = noInterval(bs)
		v.TimeChart = newBarChart(d, bs, "sec/op", "time per op", "#4e79a7")
		v.AllocChart = newBarChart(d, bs, "allocs/op", "allocations per op", "#e15759")
		v.BytesChart = newBarChart(d, bs, "B/op", "bytes allocated per op", "#f28e2b")
	}
	cpus := cpuOf(d, opts)
	v.CatChart = newStackChart(d, cpus)
	for _, bc := range cpus {
		hc := htmlCPU{Name: benchLabel(d, bc.Bench), Bench: bc.Bench, Hotspots: bc.Hotspots}
		if f := opts.Flames[bc.Bench.Name]; f != nil && f.Value > 0 {
			hc.Flame = newFlameSVG(d, f)
		}
		v.CPU = append(v.CPU, hc)
	}
	v.Mem = memOf(d, opts)
	for _, g := range d.Gate {
		v.Gate = append(v.Gate, htmlGate{Gate: g, Class: verdictClass(g.Verdict),
			Measured: gateValue(g.Measured, g.Unit), Threshold: gateValue(g.Threshold, g.Unit)})
	}
	v.Failed = failureRows(d)
	return v
}

// charts returns the benchmark charts that have something to compare.
func (v *htmlView) charts() []*barChart {
	var cs []*barChart
	for _, c := range []*barChart{v.TimeChart, v.AllocChart, v.BytesChart} {
		if c != nil {
			cs = append(cs, c)
		}
	}
	return cs
}

func verdictClass(v string) string {
	switch v {
	case document.VerdictFirst:
		return "first"
	case document.VerdictConsider:
		return "consider"
	case document.VerdictDontTouch:
		return "dont"
	}
	return ""
}

// Chart geometry, in SVG user units (pixels at the page's full width).
const (
	chartW      = 1100
	chartLabelW = 230
	chartRowH   = 24
	chartBarH   = 16
)

// barChart is a horizontal bar chart of one unit across benchmarks.
type barChart struct {
	Title, Unit string
	W, H        int
	LabelW      int
	Color       string
	Bars        []chartBar
}

type chartBar struct {
	Label, Value string
	Y, TextY     int
	W, ValueX    float64
}

// newBarChart charts unit's medians, or returns nil when fewer than two
// benchmarks have a non-zero value: one bar compares nothing.
func newBarChart(d *document.Report, bs []document.Benchmark, unit, title, color string) *barChart {
	maxV, minV, n := 0.0, math.Inf(1), 0
	for _, b := range bs {
		if m := b.Metrics[unit]; m != nil && m.Median > 0 {
			maxV = math.Max(maxV, m.Median)
			minV = math.Min(minV, m.Median)
			n++
		}
	}
	if n < 2 {
		return nil
	}
	labelW := labelWidth(d, bs)
	c := &barChart{Title: title, Unit: unit, W: chartW, LabelW: labelW, Color: color}
	// Benchmarks a hundred times apart would leave all but the slowest
	// as slivers: past that, bars are on a log scale starting a tenth
	// below the smallest value, and the title says so.
	logScale := maxV/minV > 100
	if logScale {
		c.Title += " (log scale)"
	}
	area := float64(chartW - labelW - 120)
	for _, b := range bs {
		m := b.Metrics[unit]
		if m == nil {
			continue
		}
		y := 8 + len(c.Bars)*chartRowH
		w := area * m.Median / maxV
		if logScale {
			w = 0
			if m.Median > 0 {
				lo := math.Log10(minV) - 1
				w = area * (math.Log10(m.Median) - lo) / (math.Log10(maxV) - lo)
			}
		}
		c.Bars = append(c.Bars, chartBar{Label: benchLabel(d, b), Value: scaled(m.Median, unit) + " " + unit,
			Y: y, TextY: y + chartBarH - 4, W: round1(w), ValueX: round1(float64(labelW) + w + 6)})
	}
	c.H = 16 + len(c.Bars)*chartRowH
	return c
}

// stackChart shows each benchmark's CPU categories as one stacked bar.
type stackChart struct {
	W, H, LabelW int
	Rows         []stackRow
	Legend       []legendItem
	LegendY      int
}

type stackRow struct {
	Label    string
	Y, TextY int
	Segs     []stackSeg
}

type stackSeg struct {
	X, W        float64
	Fill, Title string
	Label       string
	TextX       float64
}

type legendItem struct {
	Name, Fill string
	X, TextX   int
}

// categoryColors gives each category of CPU time its colour, so the same
// category looks the same in every benchmark's bar.
var categoryColors = map[string]string{
	profiles.CategoryGC:          "#e15759",
	profiles.CategoryScheduler:   "#b07aa1",
	profiles.CategorySyscall:     "#9c755f",
	profiles.CategoryMemory:      "#f28e2b",
	profiles.CategoryMaps:        "#edc948",
	profiles.CategoryStrings:     "#76b7b2",
	profiles.CategoryFmt:         "#ff9da7",
	profiles.CategoryReflect:     "#d37295",
	profiles.CategoryEncoding:    "#8cd17d",
	profiles.CategoryCompression: "#499894",
	profiles.CategoryCrypto:      "#86bcb6",
	profiles.CategoryRegexp:      "#fabfd2",
	profiles.CategorySort:        "#b6992d",
	profiles.CategoryApplication: "#4e79a7",
	profiles.CategoryOther:       "#bab0ac",
}

func categoryColor(c string) string {
	if col, ok := categoryColors[c]; ok {
		return col
	}
	return "#bab0ac"
}

func newStackChart(d *document.Report, cpus []benchCPU) *stackChart {
	var bs []document.Benchmark
	for _, bc := range cpus {
		bs = append(bs, bc.Bench)
	}
	labelW := labelWidth(d, bs)
	c := &stackChart{W: chartW, LabelW: labelW}
	area := float64(chartW - labelW - 10)
	seen := map[string]bool{}
	for _, bc := range cpus {
		if len(bc.Categories) == 0 {
			continue
		}
		y := 8 + len(c.Rows)*chartRowH
		r := stackRow{Label: benchLabel(d, bc.Bench), Y: y, TextY: y + chartBarH - 4}
		x := float64(labelW)
		for _, cat := range bc.Categories {
			w := area * cat.Share
			s := stackSeg{X: round1(x), W: round1(w), Fill: categoryColor(string(cat.Category)),
				Title: string(cat.Category) + " " + percent(cat.Share)}
			// Labels go inside their segment, in full when they fit.
			if full := string(cat.Category) + " " + percent(cat.Share); textWidth(full)+8 <= w {
				s.Label, s.TextX = full, round1(x+4)
			} else if textWidth(percent(cat.Share))+6 <= w {
				s.Label, s.TextX = percent(cat.Share), round1(x+3)
			}
			r.Segs = append(r.Segs, s)
			x += w
			seen[string(cat.Category)] = true
		}
		c.Rows = append(c.Rows, r)
	}
	if len(c.Rows) == 0 {
		return nil
	}
	c.LegendY = 16 + len(c.Rows)*chartRowH
	x := labelW
	for _, name := range []string{"application", "gc", "scheduler", "memory", "maps", "strings", "fmt", "reflect",
		"encoding", "compression", "crypto", "regexp", "sort", "syscall", "other"} {
		if seen[name] {
			c.Legend = append(c.Legend, legendItem{Name: name, Fill: categoryColor(name), X: x, TextX: x + 16})
			x += 24 + 8*len(name)
		}
	}
	c.H = c.LegendY + 20
	return c
}

// Flame graph geometry.
const (
	flameW    = 1100
	flameRowH = 18
	// flameMinW drops frames narrower than this: they would be slivers.
	flameMinW = 0.5
	// flameCharW is the width of a label character at the graph's font
	// size, to truncate labels to their frame.
	flameCharW = 6.6
)

// flameSVG is an icicle graph: the root on top, callees below their
// callers, each frame as wide as its share of the samples.
type flameSVG struct {
	W, H   int
	Frames []flameFrame
}

type flameFrame struct {
	X, Y, W, TextX float64
	TextY          int
	Depth          int
	Fill           string
	Label, Name    string
	Title          string
}

func newFlameSVG(d *document.Report, root *profiles.FlameNode) *flameSVG {
	f := &flameSVG{W: flameW}
	total := float64(root.Value)
	maxDepth := 0
	var walk func(n *profiles.FlameNode, x float64, depth int)
	walk = func(n *profiles.FlameNode, x float64, depth int) {
		w := flameW * float64(n.Value) / total
		if w < flameMinW {
			return
		}
		maxDepth = max(maxDepth, depth)
		name := "all samples"
		fill := "#c8c8c8"
		if depth > 0 {
			name = profiles.ShortName(n.Name, inModule(d, n.Name))
			fill = packageColor(d, n.Name)
		}
		share := float64(n.Value) / total
		title := fmt.Sprintf("%s\n%s of samples", n.Name, percent(share))
		if depth == 0 {
			title = fmt.Sprintf("all samples: %d", n.Value)
		} else if n.Self > 0 {
			title += fmt.Sprintf(", %s in the function itself", percent(float64(n.Self)/total))
		}
		y := float64(depth * flameRowH)
		f.Frames = append(f.Frames, flameFrame{X: round1(x), Y: y, W: round1(math.Max(w-0.5, 0.3)),
			TextX: round1(x + 3), TextY: depth*flameRowH + 13, Depth: depth, Fill: fill,
			Label: fitLabel(name, w), Name: name, Title: title})
		cx := x
		for _, c := range n.Children {
			walk(c, cx, depth+1)
			cx += flameW * float64(c.Value) / total
		}
	}
	walk(root, 0, 0)
	f.H = (maxDepth + 1) * flameRowH
	return f
}

// fitLabel truncates name to what fits in a frame w wide, or "" when not
// even two characters do.
func fitLabel(name string, w float64) string {
	n := int((w - 6) / flameCharW)
	r := []rune(name)
	switch {
	case n < 3:
		return ""
	case len(r) <= n:
		return name
	}
	return string(r[:n-1]) + "…"
}

func inModule(d *document.Report, fn string) bool {
	return d.Module != "" && (strings.HasPrefix(fn, d.Module+".") || strings.HasPrefix(fn, d.Module+"/"))
}

// packageColor colours a frame by its package: the module's own code in
// blues, the runtime in reds, the standard library in yellows and other
// modules in greens, each package its own shade so neighbours differ.
func packageColor(d *document.Report, fn string) string {
	pkg := fn
	end := len(fn)
	if i := strings.IndexAny(fn, "(["); i >= 0 {
		end = i
	}
	slash := strings.LastIndexByte(fn[:end], '/')
	if i := strings.IndexByte(fn[slash+1:end], '.'); i >= 0 {
		pkg = fn[:slash+1+i]
	}
	h := fnv.New32a()
	h.Write([]byte(pkg))
	v := int(h.Sum32() % 1000)
	var hue, sat, light int
	switch {
	case inModule(d, fn):
		hue, sat, light = 205+v%30, 55, 62+v%10
	case pkg == "runtime" || strings.HasPrefix(pkg, "internal/runtime") || !strings.Contains(fn, "."):
		hue, sat, light = 5+v%20, 70, 62+v%10
	case !strings.Contains(strings.SplitN(pkg, "/", 2)[0], "."):
		hue, sat, light = 38+v%20, 80, 58+v%10
	default:
		hue, sat, light = 95+v%40, 45, 58+v%10
	}
	return fmt.Sprintf("hsl(%d,%d%%,%d%%)", hue, sat, light)
}

// textWidth estimates the width of s in the charts' 12px monospace font.
func textWidth(s string) float64 { return 7.3 * float64(len([]rune(s))) }

// labelWidth is the room a chart leaves for its labels: the longest
// benchmark label, so none is cut off, between chartLabelW and half the
// chart.
func labelWidth(d *document.Report, bs []document.Benchmark) int {
	w := float64(chartLabelW)
	for _, b := range bs {
		w = math.Max(w, textWidth(benchLabel(d, b))+16)
	}
	return int(math.Min(w, chartW/2))
}

func round1(f float64) float64 { return math.Round(f*10) / 10 }
