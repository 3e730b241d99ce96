// Package dashboard is perfloop serve: a read-only web view of a history
// store. The first page lists every benchmark series, the ones that
// shifted most recently first; a series page draws the trend with its
// change points marked, each point a link to that commit's report (root
// causes, flame graphs), and diffs the CPU profiles of any two points.
//
// This package is opinionated:
//
//   - Server-rendered HTML (html/template: every name escaped, a
//     benchmark called <b>bold</b> stays text), inline styles and SVG,
//     one small script: it works offline and loads nothing from anywhere.
//   - Read-only: it opens the store and never writes it; a history is
//     computed per request, so a run recorded meanwhile shows at once.
package dashboard

import (
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/history"
	"github.com/perfloop/perfloop/internal/store"
)

// Options configure the dashboard.
type Options struct {
	// Module is the module whose runs are shown.
	Module string
	// Order returns the commits in git order, oldest first (nil: commit
	// time).
	Order func(ctx context.Context) []string
}

// Server serves the dashboard of one store.
type Server struct {
	st   *store.Store
	opts Options
	mux  *http.ServeMux
}

// New returns the dashboard of st.
func New(st *store.Store, opts Options) *Server {
	s := &Server{st: st, opts: opts, mux: http.NewServeMux()}
	s.mux.HandleFunc("/", s.index)
	s.mux.HandleFunc("/series", s.series)
	s.mux.HandleFunc("/run/", s.run)
	s.mux.HandleFunc("/diff", s.diff)
	return s
}

// ServeHTTP serves the dashboard; it answers GET and HEAD only.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "read-only dashboard: GET only", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	s.mux.ServeHTTP(w, r)
}

// load computes the history.
func (s *Server) load(ctx context.Context) (*document.History, error) {
	var order []string
	if s.opts.Order != nil {
		order = s.opts.Order(ctx)
	}
	return history.Load(ctx, s.st, s.opts.Module, history.Options{Order: order})
}

// seriesKey names a series in a URL.
func seriesKey(b *document.HistoryBenchmark) string {
	v := url.Values{"pkg": {b.Package}, "name": {b.Name}, "unit": {b.Unit}}
	if b.Procs > 0 {
		v.Set("procs", strconv.Itoa(b.Procs))
	}
	return "/series?" + v.Encode()
}

// find returns the series the query names.
func find(h *document.History, q url.Values) *document.HistoryBenchmark {
	procs, _ := strconv.Atoi(q.Get("procs"))
	for i := range h.Benchmarks {
		b := &h.Benchmarks[i]
		if b.Package == q.Get("pkg") && b.Name == q.Get("name") && b.Unit == q.Get("unit") && b.Procs == procs {
			return b
		}
	}
	return nil
}

// indexRow is one series on the first page.
type indexRow struct {
	Name, Package, Unit, Href, Last string
	Points                          int
	Change                          *document.ChangePoint
	ChangeIndex                     int // commit index of the latest change point, -1 without
	Spark                           template.HTML
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	h, err := s.load(r.Context())
	if err != nil {
		serverError(w, err)
		return
	}
	pos := commitPositions(h)
	var rows []indexRow
	for i := range h.Benchmarks {
		b := &h.Benchmarks[i]
		row := indexRow{Name: b.Name, Package: b.Package, Unit: b.Unit, Href: seriesKey(b), Points: len(b.Points), ChangeIndex: -1,
			Spark: sparkline(b, pos, len(h.Commits))}
		if n := len(b.Points); n > 0 {
			row.Last = format(b.Points[n-1].Value, b.Unit)
		}
		if n := len(b.ChangePoints); n > 0 {
			row.Change = &b.ChangePoints[n-1]
			row.ChangeIndex = pos[row.Change.Commit]
		}
		rows = append(rows, row)
	}
	// The series that shifted most recently first, then the steady ones
	// by name.
	slices.SortStableFunc(rows, func(a, b indexRow) int { return b.ChangeIndex - a.ChangeIndex })
	render(w, indexPage, map[string]any{"History": h, "Rows": rows, "Module": s.opts.Module})
}

func (s *Server) series(w http.ResponseWriter, r *http.Request) {
	h, err := s.load(r.Context())
	if err != nil {
		serverError(w, err)
		return
	}
	b := find(h, r.URL.Query())
	if b == nil {
		http.Error(w, "no such series: "+r.URL.RawQuery, http.StatusNotFound)
		return
	}
	subject := map[string]string{}
	for _, c := range h.Commits {
		subject[c.Commit] = c.Subject
	}
	type pointRow struct {
		document.HistoryPoint
		Short, Subject, Value, Range string
		Change                       *document.ChangePoint
	}
	changes := map[string]*document.ChangePoint{}
	for i := range b.ChangePoints {
		changes[b.ChangePoints[i].Commit] = &b.ChangePoints[i]
	}
	var pts []pointRow
	for _, p := range b.Points {
		pts = append(pts, pointRow{HistoryPoint: p, Short: short(p.Commit), Subject: subject[p.Commit], Value: format(p.Value, b.Unit),
			Range: format(p.Low, b.Unit) + " … " + format(p.High, b.Unit), Change: changes[p.Commit]})
	}
	render(w, seriesPage, map[string]any{"B": b, "Points": pts, "Chart": trend(b, subject), "Module": s.opts.Module})
}

func serverError(w http.ResponseWriter, err error) {
	http.Error(w, "perfloop serve: "+err.Error(), http.StatusInternalServerError)
}

func render(w http.ResponseWriter, t *template.Template, data any) {
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		serverError(w, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, b.String())
}

func commitPositions(h *document.History) map[string]int {
	pos := map[string]int{}
	for i, c := range h.Commits {
		pos[c.Commit] = i
	}
	return pos
}

func short(c string) string { return c[:min(12, len(c))] }
