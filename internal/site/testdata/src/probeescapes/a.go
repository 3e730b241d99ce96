package probeescapes

type item struct{ key, val string }

type Tree struct{ less func(a, b any) bool }

func (t *Tree) Get(key any) any          { return nil }
func (t *Tree) Set(it any) any           { return nil }
func (t *Tree) GetTyped(key *item) *item { return nil }

type DB struct{ keys *Tree }

func (db *DB) get(key string) *item {
	v := db.keys.Get(&item{key: key}) // want `get builds &item\{key: key\} to search with and hands it to db.keys.Get as an interface`
	it, _ := v.(*item)
	return it
}

// Stored, not searched with: not this shape.
func (db *DB) set(key, val string) { db.keys.Set(&item{key, val}) }

// A typed lookup can keep it on the stack.
func (db *DB) getTyped(key string) *item { return db.keys.GetTyped(&item{key: key}) }
