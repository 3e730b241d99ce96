package presize

import "strconv"

// ParseInts returns the partly built slice on an error: nil when the
// first part fails, and a test looks at that (traps_test.go). Room made
// before the loop would make it empty instead.
func ParseInts(parts []string) ([]int, error) {
	var out []int
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, err
		}
		out = append(out, n) // no rewrite: the partly built slice is returned
	}
	return out, nil
}

// Flatten's inner loop runs once per group: room made there would drop
// the groups before.
func Flatten(groups [][]string) []string {
	var out []string
	for _, g := range groups {
		for _, s := range g {
			out = append(out, s) // no rewrite: an outer loop runs this one again
		}
	}
	return out
}

func (m *Message) note(s string) { m.Raw += s }

// Noted calls a method of m in the loop: it could read m.Tags.
func Noted(parts []string) *Message {
	m := &Message{}
	for _, p := range parts {
		m.note(p)
		m.Tags = append(m.Tags, p) // no rewrite: m.note may see m.Tags
	}
	return m
}

// Seeded starts from tags given in the literal.
func Seeded(parts, seed []string) *Message {
	m := &Message{Tags: seed}
	for _, p := range parts {
		m.Tags = append(m.Tags, p) // no rewrite: m.Tags is not empty
	}
	return m
}

var registry []*Message

// Registered hands m out before the loop.
func Registered(parts []string) *Message {
	m := &Message{}
	registry = append(registry, m)
	for _, p := range parts {
		m.Tags = append(m.Tags, p) // no rewrite: m is shared before the loop
	}
	return m
}

// Prefix returns what it built so far with a bare return.
func Prefix(words []string, stop string) (out []string) {
	for _, w := range words {
		if w == stop {
			return
		}
		out = append(out, w) // no rewrite: a bare return hands out the partly built slice
	}
	return
}
