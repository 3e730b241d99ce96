package poolnew2

import "poolnew2/pool"

type Buffer struct{ bs []byte }

type Pool struct {
	p *pool.Pool[*Buffer]
}

func NewPool() Pool {
	return Pool{
		p: pool.New(func() *Buffer {
			return &Buffer{ // want `NewPool's pool makes a Buffer here`
				bs: make([]byte, 0, 1024), // want `NewPool's pool makes a \[\]byte here`
			}
		}),
	}
}
