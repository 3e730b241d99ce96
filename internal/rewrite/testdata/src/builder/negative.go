package builder

// Capped reads s in the loop: a builder would not have it.
func Capped(xs []string) string {
	s := ""
	for _, x := range xs {
		if len(s) > 10 {
			break
		}
		s += x // no rewrite
	}
	return s
}

// Name is a string type of its own.
type Name string

// Names concatenates a named string type.
func Names(xs []Name) Name {
	var s Name
	for _, x := range xs {
		s += x // no rewrite
	}
	return s
}

// Later adds in a closure, which may run after the loop.
func Later(xs []string) (string, func()) {
	s := ""
	var f func()
	for _, x := range xs {
		f = func() { s += x } // no rewrite
	}
	return s, f
}
