package regexpacross

import (
	"net/http"
	"regexp"
)

type routeRegexp struct {
	regexp *regexp.Regexp
	names  []string
}

type group struct{ path *routeRegexp }

// Match answers whether the path matches: the first scan.
func (r *routeRegexp) Match(req *http.Request) bool {
	path := req.URL.Path
	return r.regexp.MatchString(path) // want `the regexp in routeRegexp.regexp runs twice on path: MatchString in \(\*routeRegexp\).Match here, then FindStringSubmatchIndex in group.setMatch at a.go:24`
}

// setMatch scans the same path again for the variables.
func (g group) setMatch(req *http.Request, vars map[string]string) {
	path := req.URL.Path
	if m := g.path.regexp.FindStringSubmatchIndex(path); m != nil { // want `runs twice on path: FindStringSubmatchIndex in group.setMatch here scans it again after MatchString in \(\*routeRegexp\).Match at a.go:18`
		for i, n := range g.path.names {
			vars[n] = path[m[2*i+2]:m[2*i+3]]
		}
	}
}

// A host and a path matcher share the field: each input is its own
// shape.
type matcher struct {
	regexp *regexp.Regexp
	host   bool
}

func (m *matcher) Match(req *http.Request) bool {
	if m.host {
		host := req.Host
		return m.regexp.MatchString(host) // want `the regexp in matcher.regexp runs twice on host: MatchString in \(\*matcher\).Match here, then FindStringSubmatchIndex in \(\*matcher\).vars at a.go:52`
	}
	path := req.URL.Path
	if req.URL.RawPath != "" {
		path = req.URL.EscapedPath()
	}
	return m.regexp.MatchString(path) // want `the regexp in matcher.regexp runs twice on path: MatchString in \(\*matcher\).Match here, then FindStringSubmatchIndex in \(\*matcher\).vars at a.go:57`
}

func (m *matcher) vars(req *http.Request) (h, p []int) {
	host := req.Host
	h = m.regexp.FindStringSubmatchIndex(host) // want `runs twice on host: FindStringSubmatchIndex in \(\*matcher\).vars here scans it again after MatchString in \(\*matcher\).Match at a.go:41`
	path := req.URL.Path
	if req.URL.RawPath != "" {
		path = req.URL.EscapedPath()
	}
	p = m.regexp.FindStringSubmatchIndex(path) // want `runs twice on path: FindStringSubmatchIndex in \(\*matcher\).vars here scans it again after MatchString in \(\*matcher\).Match at a.go:47`
	return h, p
}

// One name, another value: setMatch's path is the route's template, not
// the request's path. No shape.
type named struct{ regexp *regexp.Regexp }

func (n *named) Match(req *http.Request) bool {
	path := req.URL.Path
	return n.regexp.MatchString(path)
}

func (n *named) template(tpl string) []int {
	path := "/" + tpl
	return n.regexp.FindStringSubmatchIndex(path)
}

// Two fields: two regexps on one input, no shape.
type pair struct{ a, b *regexp.Regexp }

func (p *pair) Match(s string) bool { return p.a.MatchString(s) }

func (p *pair) Find(s string) []int { return p.b.FindStringSubmatchIndex(s) }

// Host matches another input: no shape.
type hostRegexp struct{ regexp *regexp.Regexp }

func (h *hostRegexp) Match(host string) bool { return h.regexp.MatchString(host) }

func (h *hostRegexp) vars(name string) []string { return h.regexp.FindStringSubmatch(name) }

// Both calls in one function are RegexpTwice's: no shape here.
type oneFunc struct{ re *regexp.Regexp }

func (o *oneFunc) Find(s string) []string {
	if !o.re.MatchString(s) {
		return nil
	}
	return o.re.FindStringSubmatch(s)
}

// A package-level regexp is not a field: RegexpTwice's when in one function.
var pkgRe = regexp.MustCompile(`a+`)

func Test(s string) bool { return pkgRe.MatchString(s) }

func Get(s string) string { return pkgRe.FindString(s) }
