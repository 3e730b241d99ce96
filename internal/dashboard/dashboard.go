// Package dashboard is perfloop serve: a read-only web view of a history
// store. The first page lists every benchmark series, the ones that
// shifted most recently first; a series page draws the trend with its
// change points marked, each point a link to that commit's report (root
// causes, flame graphs), and diffs the CPU profiles of any two points.
//
// This package is opinionated:
//
//   - Server-rendered HTML (html/template: every name escaped, a
//     benchmark called <b>bold</b> stays text), inline SVG, a style sheet
//     and two small scripts served from the binary: it works offline and
//     loads nothing from anywhere.
//   - Read-only: it opens the store and never writes it; a history is
//     computed per request, so a run recorded meanwhile shows at once.
//   - Strict about who asks: a request under a Host it is not served
//     under (a DNS rebinding attack's page) is refused before any handler
//     runs, and every response carries a Content-Security-Policy that
//     allows no inline script or style and no framing.
package dashboard

import (
	"context"
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/history"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/store"
)

// Options configure the dashboard.
type Options struct {
	// Module is the module whose runs are shown.
	Module string
	// Order returns the commits in git order, oldest first (nil: commit
	// time).
	Order func(ctx context.Context) []string
	// Hosts are the Host headers the dashboard answers, each "name:port"
	// or "name" (any port; a Host without a port is port 80). A request
	// under any other name — what a page on a domain that rebinds its name
	// to this machine sends — gets 421 Misdirected Request. Empty means
	// localhost, 127.0.0.1 and [::1] on any port.
	Hosts []string
}

// Server serves the dashboard of one store.
type Server struct {
	st     *store.Store
	opts   Options
	mux    *http.ServeMux
	hosts  []hostPort
	static map[string]staticFile
}

// policy is every response's Content-Security-Policy: scripts and style
// sheets only from the dashboard's own files (no inline code, so an
// injected tag does nothing), no plug-ins, forms only to itself, no
// framing. A run's report page is the one report.html renders, with its
// style sheet and script linked from /static/ (render.Options.Assets), so
// it needs no exception. perfloop serve does not embed pprof's web UI
// (whose pages use inline scripts): profiles are served as files for go
// tool pprof, and no route needs a weaker policy.
const policy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

//go:embed static
var staticFiles embed.FS

// staticFile is a file served under /static/.
type staticFile struct {
	contentType string
	body        string
}

// New returns the dashboard of st.
func New(st *store.Store, opts Options) *Server {
	s := &Server{st: st, opts: opts, mux: http.NewServeMux(), hosts: parseHosts(opts.Hosts), static: map[string]staticFile{
		"report.css": {"text/css; charset=utf-8", render.StyleSheet()},
		"report.js":  {"text/javascript; charset=utf-8", render.Script()},
	}}
	entries, _ := staticFiles.ReadDir("static")
	for _, e := range entries {
		data, _ := staticFiles.ReadFile("static/" + e.Name())
		ct := "text/css; charset=utf-8"
		if strings.HasSuffix(e.Name(), ".js") {
			ct = "text/javascript; charset=utf-8"
		}
		s.static[e.Name()] = staticFile{ct, string(data)}
	}
	s.mux.HandleFunc("/", s.index)
	s.mux.HandleFunc("/series", s.series)
	s.mux.HandleFunc("/run/", s.run)
	s.mux.HandleFunc("/diff", s.diff)
	s.mux.HandleFunc("/static/", s.serveStatic)
	return s
}

// ServeHTTP serves the dashboard: GET and HEAD only, and only to requests
// under a Host in Options.Hosts.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", policy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	if !allowed(s.hosts, r.Host) {
		http.Error(w, fmt.Sprintf("perfloop serve: Host %q is not a name this dashboard is served under (perfloop serve -allow-host adds one)", r.Host), http.StatusMisdirectedRequest)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only dashboard: GET only", http.StatusMethodNotAllowed)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// serveStatic serves the style sheets and scripts the pages link.
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) {
	f, ok := s.static[strings.TrimPrefix(r.URL.Path, "/static/")]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", f.contentType)
	fmt.Fprint(w, f.body)
}

// hostPort is an accepted Host: a lower-case name or address (IPv6
// without brackets) and a port, "" for any.
type hostPort struct{ host, port string }

// parseHosts parses Options.Hosts; none means loopback on any port.
func parseHosts(hosts []string) []hostPort {
	if len(hosts) == 0 {
		return []hostPort{{"localhost", ""}, {"127.0.0.1", ""}, {"::1", ""}}
	}
	var out []hostPort
	for _, h := range hosts {
		host, port := splitHost(h)
		out = append(out, hostPort{host, port})
	}
	return out
}

// splitHost splits a Host header or an Options.Hosts entry into its
// lower-case name (brackets and a final dot removed) and its port ("" when
// it has none).
func splitHost(s string) (host, port string) {
	s = strings.ToLower(s)
	switch {
	case strings.HasPrefix(s, "["):
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", ""
		}
		host, port = s[1:end], strings.TrimPrefix(s[end+1:], ":")
	case strings.Count(s, ":") == 1:
		host, port, _ = strings.Cut(s, ":")
	default:
		host = s // a name, or an IPv6 address without brackets
	}
	return strings.TrimSuffix(host, "."), port
}

// allowed reports whether a request's Host header is one of hosts.
func allowed(hosts []hostPort, header string) bool {
	host, port := splitHost(header)
	if host == "" {
		return false
	}
	if port == "" {
		port = "80"
	}
	for _, h := range hosts {
		if h.host == host && (h.port == "" || h.port == port) {
			return true
		}
	}
	return false
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
	writePage(w, indexPage, map[string]any{"History": h, "Rows": rows, "Module": s.opts.Module})
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
	writePage(w, seriesPage, map[string]any{"B": b, "Points": pts, "Chart": trend(b, subject), "Module": s.opts.Module})
}

func serverError(w http.ResponseWriter, err error) {
	http.Error(w, "perfloop serve: "+err.Error(), http.StatusInternalServerError)
}

func writePage(w http.ResponseWriter, t *template.Template, data any) {
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
