package dashboard

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// webDriver is a W3C WebDriver session on chromedriver, driving headless
// Chromium: enough of the protocol to navigate, find, click and look.
type webDriver struct {
	t       *testing.T
	base    string // http://127.0.0.1:PORT
	session string
}

func (d *webDriver) call(method, path string, body any) json.RawMessage {
	d.t.Helper()
	v, err := d.try(method, path, body)
	if err != nil {
		d.t.Fatal(err)
	}
	return v
}

// try is one WebDriver call; its error carries the driver's answer.
func (d *webDriver) try(method, path string, body any) (json.RawMessage, error) {
	var r io.Reader
	if body != nil {
		data, _ := json.Marshal(body)
		r = bytes.NewReader(data)
	}
	req, _ := http.NewRequest(method, d.base+path, r)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("webdriver %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	var out struct{ Value json.RawMessage }
	data, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(data, &out); err != nil || resp.StatusCode != 200 {
		return nil, fmt.Errorf("webdriver %s %s: %d %.300s", method, path, resp.StatusCode, data)
	}
	return out.Value, nil
}

func (d *webDriver) open(url string) {
	d.call("POST", "/session/"+d.session+"/url", map[string]string{"url": url})
}

// find returns the first element css selects, waiting up to 10s for a
// page that is still loading to have it.
func (d *webDriver) find(css string) string {
	d.t.Helper()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var raw json.RawMessage
		if raw, err = d.try("POST", "/session/"+d.session+"/element", map[string]string{"using": "css selector", "value": css}); err != nil {
			continue
		}
		var el map[string]string
		json.Unmarshal(raw, &el)
		for _, id := range el {
			return id
		}
	}
	d.t.Fatalf("no element %s: %v", css, err)
	return ""
}

// text returns the text of the first element css selects; an element
// replaced by a navigation meanwhile is looked up again.
func (d *webDriver) text(css string) string {
	d.t.Helper()
	var err error
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var raw json.RawMessage
		if raw, err = d.try("GET", "/session/"+d.session+"/element/"+d.find(css)+"/text", nil); err == nil {
			var s string
			json.Unmarshal(raw, &s)
			return s
		}
	}
	d.t.Fatalf("text of %s: %v", css, err)
	return ""
}

// attr returns an attribute of an element.
func (d *webDriver) attr(el, name string) string {
	var s string
	json.Unmarshal(d.call("GET", "/session/"+d.session+"/element/"+el+"/attribute/"+name, nil), &s)
	return s
}

// css returns the computed value of a CSS property of an element.
func (d *webDriver) css(el, property string) string {
	var s string
	json.Unmarshal(d.call("GET", "/session/"+d.session+"/element/"+el+"/css/"+property, nil), &s)
	return s
}

// consoleErrors returns the browser console's messages at level SEVERE
// since the last call: a script or style sheet the page's
// Content-Security-Policy refused shows there.
func (d *webDriver) consoleErrors() []string {
	var entries []struct{ Level, Message string }
	json.Unmarshal(d.call("POST", "/session/"+d.session+"/se/log", map[string]string{"type": "browser"}), &entries)
	var out []string
	for _, e := range entries {
		// A browser asks every site for /favicon.ico; the dashboard has
		// none.
		if e.Level == "SEVERE" && !strings.Contains(e.Message, "/favicon.ico") {
			out = append(out, e.Message)
		}
	}
	return out
}

// typeText types text into an element.
func (d *webDriver) typeText(el, text string) {
	d.call("POST", "/session/"+d.session+"/element/"+el+"/value", map[string]any{"text": text})
}

func (d *webDriver) click(el string) {
	d.call("POST", "/session/"+d.session+"/element/"+el+"/click", map[string]any{})
}

func (d *webDriver) url() string {
	var s string
	json.Unmarshal(d.call("GET", "/session/"+d.session+"/url", nil), &s)
	return s
}

// waitURL waits until the page's address contains want (a click starts
// a navigation that may finish after the click returns) and returns it.
func (d *webDriver) waitURL(want string) string {
	d.t.Helper()
	var u string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if u = d.url(); strings.Contains(u, want) {
			return u
		}
	}
	d.t.Fatalf("the page is still at %s, want an address containing %q", u, want)
	return u
}

// screenshot saves the page as PNG in dir and returns its path.
func (d *webDriver) screenshot(dir, name string) string {
	var b64 string
	json.Unmarshal(d.call("GET", "/session/"+d.session+"/screenshot", nil), &b64)
	png, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(png) < 1000 {
		d.t.Fatalf("screenshot %s: %v (%d bytes)", name, err, len(png))
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		d.t.Fatal(err)
	}
	return p
}

// startBrowser starts chromedriver and a headless Chromium session, or
// skips when they are not installed (fails under CI, which installs them).
func startBrowser(t *testing.T) *webDriver {
	t.Helper()
	browser, err1 := exec.LookPath("chromium")
	driver, err2 := exec.LookPath("chromedriver")
	if err1 != nil || err2 != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium and chromedriver must be installed (.ci/run installs them): %v %v", err1, err2)
		}
		t.Skip("chromium or chromedriver is not installed")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command(driver, fmt.Sprintf("--port=%d", port))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	d := &webDriver{t: t, base: fmt.Sprintf("http://127.0.0.1:%d", port)}
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(d.base + "/status"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("chromedriver did not start in 20s")
		}
	}
	var s struct{ SessionID string }
	raw := d.call("POST", "/session", map[string]any{"capabilities": map[string]any{"alwaysMatch": map[string]any{
		"browserName":       "chrome",
		"goog:loggingPrefs": map[string]string{"browser": "ALL"},
		"goog:chromeOptions": map[string]any{"binary": browser, "args": []string{"--headless=new", "--no-sandbox", "--disable-gpu",
			"--disable-dev-shm-usage", "--window-size=1280,1100", "--user-data-dir=" + t.TempDir()}},
	}}})
	json.Unmarshal(raw, &s)
	if s.SessionID == "" {
		t.Fatalf("no session: %s", raw)
	}
	d.session = s.SessionID
	// Ending the session quits the browser before its profile directory
	// (a TempDir, removed next) is removed under it.
	t.Cleanup(func() {
		if req, err := http.NewRequest("DELETE", d.base+"/session/"+d.session, nil); err == nil {
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}
	})
	return d
}

// TestBrowser drives the dashboard in headless Chromium: the first page
// lists the series, the shifted one first and the <b>bold</b> name as
// text; its link opens the trend with the change point marked; a point
// opens that commit's report, whose flame graph zooms on a click; the
// script picks the newest point as B, so the diff button diffs the oldest
// and the newest. Every page is styled by its style sheet, and the
// console shows nothing the Content-Security-Policy refused. Screenshots
// go to $PERFLOOP_SCREENSHOTS when set (for a person to look at), else to
// a temporary directory.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	d := startBrowser(t)
	st, commits := fixture(t)
	srv := httptest.NewServer(New(st, Options{Module: "example.com/m"}))
	defer srv.Close()
	shots := os.Getenv("PERFLOOP_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}

	d.open(srv.URL + "/")
	first := d.text("tbody tr td a")
	if first != "BenchmarkSum" {
		t.Errorf("first series %q, want BenchmarkSum (it shifted)", first)
	}
	body := d.text("body")
	if !strings.Contains(body, "BenchmarkEscape/<b>bold</b>") {
		t.Errorf("the page does not show the name <b>bold</b> as text:\n%s", body)
	}
	if bg := d.css(d.find("header"), "background-color"); bg != "rgba(29, 35, 48, 1)" {
		t.Errorf("the header's background is %q: the style sheet did not apply", bg)
	}
	t.Logf("index: %s", d.screenshot(shots, "dashboard-index.png"))
	noConsoleErrors(t, d, "/")

	d.click(d.find("tbody tr td a"))
	if u := d.waitURL("/series?"); !strings.Contains(u, "BenchmarkSum") {
		t.Fatalf("the link went to %s", u)
	}
	if label := d.text("svg.trend .cplabel"); label != "+100.0%" {
		t.Errorf("change point label %q, want +100.0%%", label)
	}
	t.Logf("series: %s", d.screenshot(shots, "dashboard-series.png"))
	noConsoleErrors(t, d, "/series")

	d.click(d.find("svg.trend a.pt:nth-of-type(3) circle"))
	d.waitURL("/run/3")
	if txt := d.text("body"); !strings.Contains(txt, commits[2][:12]) || !strings.Contains(txt, "BenchmarkSum") {
		t.Errorf("the run page lacks its commit and benchmark:\n%.500s", txt)
	}
	if bg := d.css(d.find(".perfloop-bar"), "background-color"); bg != "rgba(29, 35, 48, 1)" {
		t.Errorf("the run page's bar background is %q: bar.css did not apply", bg)
	}
	if w := d.css(d.find("main"), "max-width"); w != "1180px" {
		t.Errorf("the report's main max-width is %q: report.css did not apply", w)
	}
	t.Logf("report: %s", d.screenshot(shots, "dashboard-run.png"))
	// report.js zooms the flame graph: a click on a narrow frame widens
	// it to the whole graph.
	d.click(d.find("details#where-cpu-goes summary"))
	frame := d.find(`svg.flamegraph g.fr[data-d="9"] rect`)
	before, _ := strconv.ParseFloat(d.attr(frame, "width"), 64)
	d.click(frame)
	if after, _ := strconv.ParseFloat(d.attr(frame, "width"), 64); before <= 0 || after < 2*before {
		t.Errorf("a click on a flame graph frame took its width from %g to %g: report.js did not zoom", before, after)
	}
	t.Logf("report, flame graph zoomed: %s", d.screenshot(shots, "dashboard-run-zoomed.png"))
	noConsoleErrors(t, d, "/run/3")

	d.open(srv.URL + "/series?pkg=example.com%2Fm&name=BenchmarkSum&unit=sec%2Fop&procs=2")
	d.click(d.find("#diffform button"))
	if u := d.waitURL("/diff?"); !strings.Contains(u, "a=1") || !strings.Contains(u, "b=5") {
		t.Errorf("the diff button went to %s, want runs 1 and 5", u)
	}
	if h := d.text("h1"); !strings.Contains(h, commits[0][:12]) || !strings.Contains(h, commits[4][:12]) {
		t.Errorf("diff heading %q", h)
	}
	t.Logf("diff: %s", d.screenshot(shots, "dashboard-diff.png"))
	noConsoleErrors(t, d, "/diff")

	// A store of 120 series: a page at a time, a search, sparklines.
	wideStore, _ := wide(t, 30, 40, map[int]bool{7: true, 31: true})
	srv2 := httptest.NewServer(New(wideStore, Options{Module: "example.com/m"}))
	defer srv2.Close()
	d.open(srv2.URL + "/")
	if first := d.text("tbody tr td a"); first != "BenchmarkB0007" && first != "BenchmarkB0031" {
		t.Errorf("first series %q, want a shifted one", first)
	}
	if w := d.css(d.find("svg.spark polyline"), "stroke"); w != "rgb(46, 107, 209)" {
		t.Errorf("the sparkline's stroke is %q: not drawn as styled", w)
	}
	if txt := d.text("main"); !strings.Contains(txt, "Series 1–50 of 120") {
		t.Errorf("the first page does not say which series it shows:\n%.500s", txt)
	}
	t.Logf("index, 120 series: %s", d.screenshot(shots, "dashboard-index-pages.png"))
	d.click(d.find(`nav.pages a[href="/?page=2"]`))
	d.waitURL("page=2")
	if txt := d.text("main"); !strings.Contains(txt, "Series 51–100 of 120") {
		t.Errorf("page 2 does not show series 51–100:\n%.500s", txt)
	}
	noConsoleErrors(t, d, "/?page=2")
	d.typeText(d.find("form.search input[name=q]"), "B0031")
	d.click(d.find("form.search button"))
	d.waitURL("q=B0031")
	if txt := d.text("main"); !strings.Contains(txt, "3 series matching B0031") || !strings.Contains(txt, "Series 1–3 of 3") {
		t.Errorf("the search does not show B0031's 3 series:\n%.800s", txt)
	}
	t.Logf("search: %s", d.screenshot(shots, "dashboard-search.png"))
	noConsoleErrors(t, d, "/?q=B0031")
	d.click(d.find("tbody tr td a"))
	d.waitURL("/series?")
	if label := d.text("svg.trend .cplabel"); !strings.HasPrefix(label, "+") {
		t.Errorf("change point label %q on B0031's trend", label)
	}
	t.Logf("series of 30 commits: %s", d.screenshot(shots, "dashboard-series-wide.png"))
	noConsoleErrors(t, d, "/series (30 commits)")
}

// noConsoleErrors fails the test for every error the browser logged on
// page (a request the Content-Security-Policy refused is one).
func noConsoleErrors(t *testing.T, d *webDriver, page string) {
	t.Helper()
	for _, e := range d.consoleErrors() {
		t.Errorf("%s: the browser console says: %s", page, e)
	}
}
