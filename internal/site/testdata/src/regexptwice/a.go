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

// The input changes between the two calls: two inputs, no shape.
func Trimmed(path string) []string {
	if !route.MatchString(path) {
		path = "/users/" + path
	}
	return route.FindStringSubmatch(path)
}

// The regexp changes between the two calls: two regexps, no shape.
func Swapped(s string) []string {
	re := route
	ok := re.MatchString(s)
	if !ok {
		re = other
	}
	return re.FindStringSubmatch(s)
}

// One text, two variables (the input is shadowed): no shape.
func Shadowed(s string) []string {
	if route.MatchString(s) {
		s := s + "/"
		return route.FindStringSubmatch(s)
	}
	return nil
}

// The input changes after the second call: the shape, at the first.
func Loop(paths []string) (n int) {
	for _, p := range paths {
		if route.MatchString(p) { // want `the regexp route runs twice on p: MatchString here, FindStringSubmatchIndex at line 59`
			m := route.FindStringSubmatchIndex(p)
			n += m[2]
			p = ""
			_ = p
		}
	}
	return n
}
