package poolnew

import "sync"

type goWorker struct {
	task chan func()
}

type Pool struct {
	workerCache sync.Pool
}

func NewPool() *Pool {
	p := &Pool{}
	p.workerCache.New = func() any {
		return &goWorker{ // want `NewPool's pool makes a goWorker here only when it has none to give`
			task: make(chan func(), 1), // want `NewPool's pool makes a chan func\(\) here only when it has none to give`
		}
	}
	return p
}

type Buffer struct{ bs []byte }

type typed[T any] struct{ pool sync.Pool }

func newTyped[T any](fn func() T) *typed[T] {
	return &typed[T]{pool: sync.Pool{New: func() any { return fn() }}}
}

func NewBuffers() *typed[*Buffer] {
	return newTyped(func() *Buffer {
		return &Buffer{bs: make([]byte, 0, 1024)} // want `NewBuffers's pool makes a Buffer here` `NewBuffers's pool makes a \[\]byte here`
	})
}

var bufs = sync.Pool{New: func() any { return new([]byte) }} // want `bufs.s pool makes a \*\[\]byte here`

// A func literal that is no pool's New.
func run(f func() *Buffer) *Buffer { return f() }

func use() *Buffer {
	return run(func() *Buffer { return &Buffer{} })
}
