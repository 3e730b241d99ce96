package mapswept

type node[K comparable] struct {
	key        K
	prev, next *node[K]
}

type gbucket[K comparable] struct{ entries map[K]*node[K] }

// G's methods each see the field through their own receiver's type
// parameters: one field all the same.
type G[K comparable] struct{ buckets []gbucket[K] }

func (g *G[K]) add(n *node[K]) {
	g.buckets[0].entries[n.key] = n // want `add stores into and deletes from \(line 29\) g.buckets\[0\].entries by key, a map the package reads only by ranging over it \(sweep, line 33\)`
}

// purge empties the maps: clear written out, neither a read nor a delete
// by key.
func (g *G[K]) purge() {
	for _, b := range g.buckets {
		for k := range b.entries {
			delete(b.entries, k)
		}
	}
}

func (g *G[K]) remove(n *node[K]) {
	delete(g.buckets[0].entries, n.key)
}

func (g *G[K]) sweep() (n int) {
	for range g.buckets[0].entries {
		n++
	}
	return n
}
