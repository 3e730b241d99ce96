package pool

import "sync"

type Pool[T any] struct {
	pool sync.Pool
}

func New[T any](fn func() T) *Pool[T] {
	return &Pool[T]{pool: sync.Pool{New: func() any { return fn() }}}
}
