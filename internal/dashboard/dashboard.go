// Package dashboard is perfloop serve: a read-only web view of a history
// store. The first page lists the benchmark series, the ones that
// shifted most recently first, a page at a time, searchable by
// benchmark, package and unit, each with a sparkline; a series page draws
// the trend with its change points marked, each point a link to that
// commit's report (root causes, flame graphs), and diffs the CPU profiles
// of any two points.
//
// This package is opinionated:
//
//   - Server-rendered HTML (html/template: every name escaped, a
//     benchmark called <b>bold</b> stays text), inline SVG, a style sheet
//     and two small scripts served from the binary: it works offline and
//     loads nothing from anywhere.
//   - Read-only: it opens the store and never writes it. The first page
//     reads what perfloop record computed and stored for each series (its
//     change points, its medians): nothing is computed per request, so it
//     opens at once on thousands of series. A series page reads its
//     samples, and computes its change points only when a run recorded
//     meanwhile is not taken in yet (with the series' cache of tests:
//     milliseconds). The commits are in the order record stored (git's).
//   - Strict about who asks: a request under a Host it is not served
//     under (a DNS rebinding attack's page) is refused before any handler
//     runs, and every response carries a Content-Security-Policy that
//     allows no inline script or style and no framing.
package dashboard

import (
	"embed"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
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

// pageSize is how many series the first page lists at a time.
const pageSize = 50

// seriesKey names a series in a URL.
func seriesKey(k store.SeriesKey) string {
	v := url.Values{"pkg": {k.Package}, "name": {k.Name}, "unit": {k.Unit}}
	if k.Procs > 0 {
		v.Set("procs", strconv.Itoa(k.Procs))
	}
	return "/series?" + v.Encode()
}

// indexRow is one series on the first page.
type indexRow struct {
	Name, Package, Unit, Href, Last string
	Points                          int
	Change                          *document.ChangePoint
	Spark                           template.HTML
}

// pageLink is a link to another page of the list.
type pageLink struct {
	Label, Href string
	Current     bool
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	q := r.URL.Query()
	search := strings.TrimSpace(q.Get("q"))
	page, _ := strconv.Atoi(q.Get("page"))
	page = max(page, 1)
	idx, err := history.LoadIndex(r.Context(), s.st, s.opts.Module, history.IndexQuery{Search: search, Offset: (page - 1) * pageSize, Limit: pageSize})
	if err != nil {
		serverError(w, err)
		return
	}
	rows := make([]indexRow, 0, len(idx.Rows))
	for _, ir := range idx.Rows {
		row := indexRow{Name: ir.Key.Name, Package: ir.Key.Package, Unit: ir.Key.Unit, Href: seriesKey(ir.Key), Points: ir.Points,
			Change: ir.Change, Spark: sparkline(ir.Medians, ir.At)}
		if ir.Points > 0 {
			row.Last = format(ir.Last, ir.Key.Unit)
		}
		rows = append(rows, row)
	}
	pages := (idx.Total + pageSize - 1) / pageSize
	link := func(p int) string {
		v := url.Values{}
		if search != "" {
			v.Set("q", search)
		}
		if p > 1 {
			v.Set("page", strconv.Itoa(p))
		}
		if len(v) == 0 {
			return "/"
		}
		return "/?" + v.Encode()
	}
	var links []pageLink
	if pages > 1 {
		if page > 1 {
			links = append(links, pageLink{Label: "« previous", Href: link(page - 1)})
		}
		for _, p := range pageNumbers(page, pages) {
			if p == 0 {
				links = append(links, pageLink{Label: "…"})
				continue
			}
			links = append(links, pageLink{Label: strconv.Itoa(p), Href: link(p), Current: p == page})
		}
		if page < pages {
			links = append(links, pageLink{Label: "next »", Href: link(page + 1)})
		}
	}
	writePage(w, indexPage, map[string]any{"Index": idx, "Rows": rows, "Module": s.opts.Module, "Search": search,
		"Page": page, "Pages": pages, "Links": links, "First": (page-1)*pageSize + 1, "LastRow": (page-1)*pageSize + len(rows)})
}

// pageNumbers returns the page numbers to link: the first, the last and
// those around the current one, with 0 for a gap.
func pageNumbers(page, pages int) []int {
	var out []int
	for p := 1; p <= pages; p++ {
		if p == 1 || p == pages || p >= page-2 && p <= page+2 {
			out = append(out, p)
		} else if len(out) > 0 && out[len(out)-1] != 0 {
			out = append(out, 0)
		}
	}
	return out
}

// pointsPerPage is how many points the series page's table lists at a
// time (the chart shows them all).
const pointsPerPage = 100

func (s *Server) series(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	procs, _ := strconv.Atoi(q.Get("procs"))
	key := store.SeriesKey{Package: q.Get("pkg"), Name: q.Get("name"), Procs: procs, Unit: q.Get("unit")}
	h, err := history.LoadSeries(r.Context(), s.st, s.opts.Module, "", key)
	if err != nil {
		serverError(w, err)
		return
	}
	if len(h.Benchmarks) == 0 {
		http.Error(w, "no such series: "+r.URL.RawQuery, http.StatusNotFound)
		return
	}
	b := &h.Benchmarks[0]
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
	// The table lists the newest points first, a page at a time.
	page, _ := strconv.Atoi(q.Get("page"))
	pages := max(1, (len(b.Points)+pointsPerPage-1)/pointsPerPage)
	page = min(max(page, 1), pages)
	var pts []pointRow
	for i := len(b.Points) - 1 - (page-1)*pointsPerPage; i >= 0 && len(pts) < pointsPerPage; i-- {
		p := b.Points[i]
		pts = append(pts, pointRow{HistoryPoint: p, Short: short(p.Commit), Subject: subject[p.Commit], Value: format(p.Value, b.Unit),
			Range: format(p.Low, b.Unit) + " … " + format(p.High, b.Unit), Change: changes[p.Commit]})
	}
	var links []pageLink
	if pages > 1 {
		for p := 1; p <= pages; p++ {
			v := url.Values{"pkg": {key.Package}, "name": {key.Name}, "unit": {key.Unit}}
			if key.Procs > 0 {
				v.Set("procs", strconv.Itoa(key.Procs))
			}
			if p > 1 {
				v.Set("page", strconv.Itoa(p))
			}
			links = append(links, pageLink{Label: strconv.Itoa(p), Href: "/series?" + v.Encode(), Current: p == page})
		}
	}
	writePage(w, seriesPage, map[string]any{"B": b, "Points": pts, "Chart": trend(b, subject), "Module": s.opts.Module,
		"Fingerprint": h.Fingerprint, "Links": links, "Oldest": b.Points[0].Run, "Newest": b.Points[len(b.Points)-1].Run})
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

func short(c string) string { return c[:min(12, len(c))] }
