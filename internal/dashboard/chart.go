package dashboard

import (
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/render"
)

// format is a value as the tables show it, with its unit.
func format(v float64, unit string) string { return render.FormatValue(v, unit) + " " + unit }

// esc escapes text for SVG and HTML.
func esc(s string) string { return template.HTMLEscapeString(s) }

// bounds returns the range the chart's y axis shows: the points' ranges,
// padded by a tenth, from 0 when that is near.
func bounds(b *document.HistoryBenchmark) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range b.Points {
		lo, hi = math.Min(lo, p.Low), math.Max(hi, p.High)
	}
	if hi <= lo {
		hi = lo + math.Max(math.Abs(lo)*0.1, 1e-12)
	}
	pad := (hi - lo) / 10
	lo, hi = lo-pad, hi+pad
	if lo > 0 && lo < (hi-lo)/2 {
		lo = 0
	}
	return lo, hi
}

// sparkWidth is a sparkline's width in pixels; a series with more points
// is drawn from the median of each run of points that shares a pixel.
const sparkWidth = 120

// sparkline draws a series' medians (oldest first) in 120×24, its change
// points (their indexes among the medians) as marks.
func sparkline(medians []float64, at []int) template.HTML {
	const w, h = float64(sparkWidth), 24.0
	n := len(medians)
	if n == 0 {
		return ""
	}
	// At most one value per pixel: the median of the points it covers.
	bins := min(n, sparkWidth)
	vals := make([]float64, bins)
	for i := range vals {
		lo, hi := i*n/bins, (i+1)*n/bins
		chunk := slices.Clone(medians[lo:hi])
		slices.Sort(chunk)
		vals[i] = chunk[len(chunk)/2]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi <= lo {
		hi = lo + math.Max(math.Abs(lo)*0.1, 1e-12)
	}
	pad := (hi - lo) / 10
	lo, hi = lo-pad, hi+pad
	x := func(i float64) float64 { return 2 + (w-4)*i/math.Max(1, float64(bins-1)) }
	y := func(v float64) float64 { return h - 2 - (h-4)*(v-lo)/(hi-lo) }
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="spark" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="trend">`, w, h, w, h)
	for _, i := range at {
		if i < 0 || i >= n {
			continue
		}
		cx := x(float64(i * bins / n))
		fmt.Fprintf(&sb, `<line x1="%.1f" x2="%.1f" y1="0" y2="%g" class="cp"/>`, cx, cx, h)
	}
	sb.WriteString(`<polyline fill="none" class="line" points="`)
	for i, v := range vals {
		fmt.Fprintf(&sb, "%.1f,%.1f ", x(float64(i)), y(v))
	}
	sb.WriteString(`"/></svg>`)
	return template.HTML(sb.String())
}

// trend draws a series in 900×320: every sample range as a bar, the
// median as a dot that links to the commit's report, change points as a
// dashed line labelled with the shift.
func trend(b *document.HistoryBenchmark, subject map[string]string) template.HTML {
	const w, h, left, bottom, top = 900.0, 320.0, 70.0, 40.0, 24.0
	n := len(b.Points)
	if n == 0 {
		return ""
	}
	lo, hi := bounds(b)
	x := func(i int) float64 { return left + 30 + (w-left-70)*float64(i)/math.Max(1, float64(n-1)) }
	y := func(v float64) float64 { return h - bottom - (h-bottom-top)*(v-lo)/(hi-lo) }
	idx := map[string]int{}
	for i, p := range b.Points {
		idx[p.Commit] = i
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `<svg class="trend" width="%g" height="%g" viewBox="0 0 %g %g" role="img" aria-label="%s">`, w, h, w, h, esc(b.Name+" "+b.Unit))
	fmt.Fprintf(&sb, `<text x="4" y="%g" class="tick">%s</text>`, top-10+4, esc(b.Unit))
	// Axis: three ticks.
	for _, f := range []float64{0, 0.5, 1} {
		v := lo + f*(hi-lo)
		fmt.Fprintf(&sb, `<line x1="%g" x2="%g" y1="%.1f" y2="%.1f" class="grid"/><text x="%g" y="%.1f" class="tick" text-anchor="end">%s</text>`,
			left, w-10, y(v), y(v), left-6, y(v)+4, esc(render.FormatValue(v, b.Unit)))
	}
	for _, c := range b.ChangePoints {
		i, ok := idx[c.Commit]
		if !ok {
			continue
		}
		cx := (x(i) + x(max(i-1, 0))) / 2
		fmt.Fprintf(&sb, `<line x1="%.1f" x2="%.1f" y1="%g" y2="%g" class="cp"/><text x="%.1f" y="%g" class="cplabel" text-anchor="middle">%+.1f%%</text>`,
			cx, cx, top-6, h-bottom, cx, top-10+4, 100*c.Delta)
	}
	sb.WriteString(`<polyline fill="none" class="line" points="`)
	for i, p := range b.Points {
		fmt.Fprintf(&sb, "%.1f,%.1f ", x(i), y(p.Value))
	}
	sb.WriteString(`"/>`)
	// The ranges as one path, so that a long series stays a small page.
	sb.WriteString(`<path class="range" d="`)
	for i, p := range b.Points {
		fmt.Fprintf(&sb, "M%.1f %.1fV%.1f", x(i), y(p.Low), y(p.High))
	}
	sb.WriteString(`"/>`)
	r := 5.0
	if n > 100 {
		r = 3
	}
	for i, p := range b.Points {
		title := fmt.Sprintf("%s %s: %s (n=%d)", short(p.Commit), subject[p.Commit], format(p.Value, b.Unit), p.N)
		fmt.Fprintf(&sb, `<a href="/run/%d" class="pt"><circle cx="%.1f" cy="%.1f" r="%g"><title>%s</title></circle></a>`, p.Run, x(i), y(p.Value), r, esc(title))
		// Commit labels 7 characters wide: about a dozen fit.
		if n <= 12 || i%((n+11)/12) == 0 {
			fmt.Fprintf(&sb, `<text x="%.1f" y="%g" class="tick" text-anchor="middle">%s</text>`, x(i), h-bottom+16, esc(p.Commit[:min(7, len(p.Commit))]))
		}
	}
	sb.WriteString(`</svg>`)
	return template.HTML(sb.String())
}
