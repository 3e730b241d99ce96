package m

import "sync"

type Reg struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	m    map[string]int
	subs []struct{ mu sync.Mutex }
}

func (r *Reg) Add(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[k]++
	r.m[k+"x"]++
}

func (r *Reg) Get(k string) int {
	r.rw.RLock()
	v := r.m[k]
	r.rw.RUnlock()
	return v
}

func (r *Reg) Two(i int) {
	r.subs[i].mu.Lock()
	r.subs[i].mu.Unlock()
	go func() {
		r.mu.Lock()
		r.m["g"] = 1
		r.mu.Unlock()
	}()
}

func (r *Reg) Leak() {
	r.mu.Lock() // released elsewhere
}
