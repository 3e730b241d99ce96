// Package oddcode is code the matchers must take without panicking:
// generics whose sizes are unknown, fields of interface type, blank
// assignments, named pointer types, method values. Run by
// TestMatchersOnOddCode, which wants no error, whatever they report.
package oddcode

import (
	"bytes"
	"io"
	"sort"
	"strings"
)

type Handler interface{ Serve() }

type router struct{ routes map[string]int }

func (*router) Serve() {}

type Echo struct {
	h    Handler
	next *Echo
}

func NewEcho() *Echo {
	e := &Echo{}
	e.h = &router{}
	_ = e.h
	return e
}

type NodePtr *Node[int]

type Node[T any] struct {
	val      T
	children []*Node[T]
	left     *Node[T]
}

func NewNode[T any](v T) *Node[T] { return &Node[T]{val: v} }

func (n *Node[T]) Add(v T) *Node[T] {
	c := &Node[T]{val: v}
	n.children = append(n.children, c)
	return c
}

func index[K comparable, V any](keys []K, next func() V) map[K]V {
	m := make(map[K]V)
	for i := 0; i < len(keys); i++ {
		m[keys[i]] = next()
	}
	return m
}

func read[T any](r io.Reader) (T, error) {
	var v T
	var buf [16]byte
	_, err := io.ReadFull(r, buf[:])
	return v, err
}

type Set[T comparable] struct{ m map[T]struct{} }

func (s *Set[T]) Copy() *Set[T] {
	out := &Set[T]{m: make(map[T]struct{}, len(s.m))}
	for k := range s.m {
		out.m[k] = struct{}{}
	}
	return out
}

func sortBy[T any](xs []T, less func(a, b T) bool) {
	sort.Slice(xs, func(i, j int) bool { return less(xs[i], xs[j]) })
}

func window[T any](w []T, in []T, keep int) []T {
	w = w[len(w)-keep:]
	w = append(w, in...)
	return w
}

func methodValue(b *bytes.Buffer) func(string) (int, error) {
	f := b.WriteString
	_ = strings.ToUpper
	return f
}

func named(p NodePtr) int {
	if p == nil {
		return 0
	}
	return len(p.children)
}

func zero[T any]() (t T) {
	_ = t
	return
}

func ptrs[T any](xs []T) []*T {
	var out []*T
	for i := range xs {
		out = append(out, &xs[i])
	}
	return out
}
