package lockword

import (
	"runtime"
	"sync/atomic"
)

type spinLock uint32

func (sl *spinLock) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(sl), 0, 1) { // want `Lock takes the lock by a compare-and-swap of \(\*uint32\)\(sl\): the word every goroutine taking the lock must write`
		runtime.Gosched()
	}
}

func (sl *spinLock) Unlock() { atomic.StoreUint32((*uint32)(sl), 0) }

type typed struct{ state atomic.Int32 }

func (t *typed) TryLock() bool {
	return t.state.CompareAndSwap(0, 1) // want `TryLock takes the lock by a compare-and-swap of t.state`
}

// A counter updated by compare-and-swap is no lock.
type counter struct{ n int64 }

func (c *counter) Add(d int64) {
	for {
		old := atomic.LoadInt64(&c.n)
		if atomic.CompareAndSwapInt64(&c.n, old, old+d) {
			return
		}
	}
}

var global uint32

// A Lock on a package-level word is not its receiver's.
func (c *counter) Lock() {
	for !atomic.CompareAndSwapUint32(&global, 0, 1) {
	}
}
