package interfaceonly

import "strings"

type matcher interface {
	Match(s string) bool
}

type literal struct{ lit string }

// Match is only ever called through the matcher interface: no inlining
// advice fits it.
func (l *literal) Match(s string) bool { // want `\(\*literal\).Match is called only through an interface in its package`
	return strings.Contains(s, l.lit)
}

type prefix struct{ p string }

// Match is called through the interface and once directly: a static call
// site exists.
func (p prefix) Match(s string) bool {
	return strings.HasPrefix(s, p.p)
}

// Exported is a method of an exported type: callers outside the package
// may call it directly.
type Exported struct{}

func (Exported) Match(s string) bool { return s == "" }

type unused struct{}

// never called at all: not a shape (nothing says how it is called).
func (unused) match(s string) bool { return s == "" }

func Any(ms []matcher, s string) bool {
	for _, m := range ms {
		if m.Match(s) {
			return true
		}
	}
	return false
}

func New(lit string) []matcher {
	p := prefix{lit}
	_ = p.Match("x")
	return []matcher{&literal{lit}, p, Exported{}}
}
