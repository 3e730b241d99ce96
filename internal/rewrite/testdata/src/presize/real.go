package presize

import (
	"errors"
	"fmt"
	"maps"
	"strings"
)

// Header is one "name=value" part of a message.
type Header struct {
	Name  string
	Value string
}

// Message is what ParseMessage builds.
type Message struct {
	Raw     string
	Headers []Header
	Tags    []string
}

// ParseMessage is the shape of a real parser: a field of a struct
// appended over the parts of a strings.Split, in a loop that returns an
// error (and drops the partly built message) on a bad part.
func ParseMessage(s string) (*Message, error) {
	m := &Message{Raw: s}
	parts := strings.Split(s, ";")
	for _, p := range parts {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return nil, errors.New("no '=' in " + p)
		}
		m.Headers = append(m.Headers, Header{k, v}) // want `m.Headers grows by one element per element of parts`
	}
	return m, nil
}

// ParseTags fills a second field of a value declared with var.
func ParseTags(s string) (Message, error) {
	var msg Message
	msg.Raw = s
	for _, t := range strings.Fields(s) {
		if strings.ContainsAny(t, "=;") {
			return Message{}, fmt.Errorf("bad tag %q", t)
		}
		msg.Tags = append(msg.Tags, strings.ToLower(t)) // want `msg.Tags grows by one element per element of strings.Fields`
	}
	return msg, nil
}

// Columns builds two slices, its named results, in a loop with an early
// return that drops both.
func Columns(rows []string) (names, values []string, err error) {
	for _, r := range rows {
		n, v, ok := strings.Cut(r, ":")
		if !ok {
			return nil, nil, fmt.Errorf("row %q: no colon", r)
		}
		names = append(names, n)   // want `names grows by one element per element of rows`
		values = append(values, v) // want `values grows by one element per element of rows`
	}
	return names, values, nil
}

// Lengths returns its named result with a bare return.
func Lengths(words []string) (ns []int) {
	for _, w := range words {
		ns = append(ns, len(w)) // want `ns grows by one element per element of words`
	}
	return
}

// Visible builds its result in a loop inside an if: the accumulator is
// declared in an outer scope.
func Visible(items []Header, all bool) []string {
	var out []string
	if all {
		for _, it := range items {
			out = append(out, it.Name) // want `out grows by one element per element of items`
		}
	}
	return out
}

// NilWhenEmpty tells nil from empty: room is made only when there is
// something to add, so that out stays nil otherwise.
func NilWhenEmpty(xs []int) bool {
	var out []int
	for _, x := range xs {
		out = append(out, x) // want `out grows by one element per element of xs`
	}
	return out == nil
}

// Sum's slice never leaves the function: nil or empty, nothing can tell.
func Sum(xs []int) int {
	var sq []int
	for _, x := range xs {
		sq = append(sq, x*x) // want `sq grows by one element per element of xs`
	}
	n := 0
	for _, v := range sq {
		n += v
	}
	return n + len(sq)
}

// Calls ranges over a call's result: the call moves before the loop,
// where the range evaluates it once.
func Calls(f func() []int) []int {
	out := []int{}
	for _, x := range f() {
		out = append(out, x) // want `out grows by one element per element of f\(\)`
	}
	return out
}

// Merge copies a into a map made empty just before: maps.Copy adds
// exactly len(a) entries.
func Merge(a, b map[string]int) map[string]int {
	out := make(map[string]int)
	maps.Copy(out, a) // want `out is made empty and filled with every entry of a by maps.Copy`
	for k, v := range b {
		out[k] = v // out holds a's entries already: no room to predict
	}
	return out
}

// Clone copies a map entry by entry into one declared before a check.
func Clone(src map[string]int, skip bool) map[string]int {
	dst := map[string]int{}
	if skip {
		return dst
	}
	for k, v := range src {
		dst[k] = v // want `dst gets one entry per element of src`
	}
	return dst
}
