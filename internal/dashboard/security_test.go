package dashboard

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestHosts sends requests under other names than the dashboard is served
// under, as a page that rebinds its own domain name to this machine does:
// they are refused before any handler runs.
func TestHosts(t *testing.T) {
	st, _ := fixture(t)
	loopback := New(st, Options{Module: "example.com/m"})
	listed := New(st, Options{Module: "example.com/m", Hosts: []string{"localhost:8080", "127.0.0.1:8080", "[::1]:8080", "perf.example.com", "10.0.0.7:8080"}})
	for _, tc := range []struct {
		name string
		h    http.Handler
		host string
		want int
	}{
		{"loopback by default", loopback, "127.0.0.1:8080", 200},
		{"loopback by default, any port", loopback, "127.0.0.1:39211", 200},
		{"localhost by default", loopback, "localhost:8080", 200},
		{"localhost with a dot", loopback, "LOCALHOST.:8080", 200},
		{"IPv6 loopback by default", loopback, "[::1]:8080", 200},
		{"a rebound name", loopback, "evil.example:8080", http.StatusMisdirectedRequest},
		{"a subdomain of localhost", loopback, "localhost.evil.example:8080", http.StatusMisdirectedRequest},
		{"another address", loopback, "10.0.0.7:8080", http.StatusMisdirectedRequest},
		{"no Host", loopback, "", http.StatusMisdirectedRequest},
		{"listed with its port", listed, "10.0.0.7:8080", 200},
		{"listed, another port", listed, "10.0.0.7:9090", http.StatusMisdirectedRequest},
		{"listed without a port: any port", listed, "perf.example.com:443", 200},
		{"listed without a port: port 80", listed, "perf.example.com", 200},
		{"loopback listed with its port", listed, "localhost:8080", 200},
		{"loopback, another port", listed, "localhost:9090", http.StatusMisdirectedRequest},
		{"not listed", listed, "evil.example:8080", http.StatusMisdirectedRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, target := range []string{"/", "/run/3/profiles/BenchmarkSum.cpu.pprof", "/static/dashboard.css"} {
				req := httptest.NewRequest(http.MethodGet, target, nil)
				req.Host = tc.host
				rec := httptest.NewRecorder()
				tc.h.ServeHTTP(rec, req)
				if rec.Code != tc.want {
					t.Errorf("GET %s with Host %q = %d, want %d:\n%.300s", target, tc.host, rec.Code, tc.want, rec.Body)
				}
				if rec.Code == http.StatusMisdirectedRequest && strings.Contains(rec.Body.String(), "BenchmarkSum") {
					t.Errorf("the refusal shows the store: %s", rec.Body)
				}
			}
		})
	}
}

// strictCSP is the dashboard's policy: scripts and styles from its own
// files only, nothing inline, no framing.
const strictCSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

// TestSecurityHeaders checks every page's headers, and that its HTML holds
// nothing the policy would block: no inline script, style element, style
// attribute or event handler attribute.
func TestSecurityHeaders(t *testing.T) {
	st, _ := fixture(t)
	h := New(st, Options{Module: "example.com/m"})
	inline := regexp.MustCompile(`(?i)<script\b[^>]*>\s*[^<\s]|<style\b|\sstyle\s*=|\son[a-z]+\s*=`)
	for _, target := range []string{
		"/", "/series?pkg=example.com%2Fm&name=BenchmarkSum&unit=sec%2Fop&procs=2", "/run/3", "/diff?a=1&b=3&bench=BenchmarkSum",
		"/run/3/profiles/BenchmarkSum.cpu.pprof", "/nosuch", "/run/99", "/static/dashboard.css", "/static/series.js", "/static/report.js",
	} {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		req.Host = "127.0.0.1:8080"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if strings.HasPrefix(target, "/static/") && rec.Code != 200 {
			t.Errorf("GET %s = %d, want 200", target, rec.Code)
		}
		for k, want := range map[string]string{
			"Content-Security-Policy": strictCSP,
			"X-Content-Type-Options":  "nosniff",
			"Referrer-Policy":         "no-referrer",
			"X-Frame-Options":         "DENY",
		} {
			if got := rec.Header().Get(k); got != want {
				t.Errorf("GET %s: %s %q, want %q", target, k, got, want)
			}
		}
		if strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
			if m := inline.FindString(rec.Body.String()); m != "" {
				t.Errorf("GET %s: the page has %q, which the policy blocks", target, m)
			}
		}
	}
	// The run page without a report, and a run page's report, link their
	// style sheets and scripts.
	_, body := get(t, h, "/run/3")
	for _, want := range []string{`<link rel="stylesheet" href="/static/report.css">`, `<script src="/static/report.js"></script>`, `href="/static/bar.css"`} {
		if !strings.Contains(body, want) {
			t.Errorf("/run/3 lacks %s", want)
		}
	}
}
