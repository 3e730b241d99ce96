package resultappended

import "strconv"

type value struct{ s string }

// node is a grammar's node: each returns the values it matched.
type node interface {
	Parse(in string) ([]value, error)
}

type sequence struct{ nodes []node }

// Parse collects its children's values into its own slice.
func (s *sequence) Parse(in string) (out []value, err error) {
	for _, n := range s.nodes {
		child, err := n.Parse(in)
		out = append(out, child...)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

type literal struct{ text string }

// Parse returns one value in a slice of its own.
func (l *literal) Parse(in string) ([]value, error) {
	if in != l.text {
		return nil, nil
	}
	return []value{{in}}, nil // want `Parse returns a new slice \(\[\]value\{\{in\}\}\) that Parse appends to its own at line 18: each call allocates a slice that lives only until that copy`
}

type many struct{ n int }

// Parse makes room for n values.
func (m many) Parse(in string) ([]value, error) {
	out := make([]value, m.n) // want `Parse returns a new slice \(make\(\[\]value, m.n\)\) that Parse appends to its own at line 18`
	for i := range out {
		out[i] = value{in}
	}
	return out, nil
}

// digits returns the digits of n, each a string.
func digits(n int) []string {
	s := strconv.Itoa(n)
	return []string{s[:1], s[1:]} // want `digits returns a new slice \(\[\]string\{s\[:1\], s\[1:\]\}\) that join appends to its own at line 56`
}

func join(ns []int) []string {
	var out []string
	for _, n := range ns {
		out = append(out, digits(n)...)
	}
	return out
}

// pair returns two values its caller keeps as they are: no append.
func pair(a, b string) []string { return []string{a, b} }

func keep(a, b string) [][]string { return [][]string{pair(a, b)} }

// none returns an empty slice: nothing allocated to save.
func none() []string { return []string{} }

func joinNone(out []string) []string { return append(out, none()...) }
