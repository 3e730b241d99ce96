package result

import "sync"

// Set is the API's set.
type Set[T comparable] interface {
	Difference(other Set[T]) Set[T]
}

type unsafeSet[T comparable] map[T]struct{}

func newUnsafeSet[T comparable](n int) *unsafeSet[T] { // want `newUnsafeSet.s result is what the exported \(\*unsafeSet\).Difference returns`
	s := make(unsafeSet[T], n) // want `make\(unsafeSet\[T\], n\) computes s, which newUnsafeSet returns`
	return &s
}

func (s *unsafeSet[T]) Difference(other Set[T]) Set[T] {
	o := other.(*unsafeSet[T])
	d := newUnsafeSet[T](len(*s)) // want `computes d, which Difference returns` `Difference returns newUnsafeSet's result`
	for k := range *s {
		if _, ok := (*o)[k]; !ok {
			(*d)[k] = struct{}{}
		}
	}
	return d
}

type safeSet[T comparable] struct {
	sync.RWMutex
	uss *unsafeSet[T]
}

// newSafeSet wraps a new unsafe set: the value returned holds it.
func newSafeSet[T comparable](n int) *safeSet[T] {
	return &safeSet[T]{
		uss: newUnsafeSet[T](n), // want `newSafeSet returns, inside the value it makes, newUnsafeSet's result`
	}
}

// Difference wraps the unsafe set's difference in the value it returns.
func (t *safeSet[T]) Difference(other Set[T]) Set[T] {
	o := other.(*safeSet[T])
	t.RLock()
	d := t.uss.Difference(o.uss).(*unsafeSet[T]) // want `Difference returns, inside the value it makes, Difference's result`
	ret := &safeSet[T]{uss: d}
	t.RUnlock()
	return ret
}
