package regexptwice

import "regexp"

var route = regexp.MustCompile(`^/users/(\d+)$`)

// Match runs the route's regexp twice on one path: the shape.
func Match(path string) (string, bool) {
	if !route.MatchString(path) { // want `the regexp route runs twice on path: MatchString here, FindStringSubmatch at line 12`
		return "", false
	}
	m := route.FindStringSubmatch(path)
	return m[1], true
}

// Two inputs: two scans, no shape.
func Both(a, b string) bool {
	return route.MatchString(a) && route.MatchString(b)
}

// Two regexps on one input: no shape.
var other = regexp.MustCompile(`x`)

func Either(s string) bool {
	return route.MatchString(s) || other.MatchString(s)
}
