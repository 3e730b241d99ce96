package firstwritelog

type item struct{ key, val string }

type writeContext struct {
	rollback map[string]*item
	seen     map[string]bool
}

type Tx struct{ wc *writeContext }

func (tx *Tx) Set(key string, prev *item) {
	if _, ok := tx.wc.rollback[key]; !ok {
		tx.wc.rollback[key] = prev // want `Set keeps the first value stored per key in tx.wc.rollback \(the check at line 13, the store here\), a map the package otherwise only ranges over \(line 24\)`
	}
	if _, ok := tx.wc.seen[key]; !ok {
		tx.wc.seen[key] = true // looked up by key elsewhere: a real map
	}
}

func (tx *Tx) Has(key string) bool { return tx.wc.seen[key] }

func (tx *Tx) Rollback(restore func(string, *item)) {
	for key, it := range tx.wc.rollback {
		restore(key, it)
	}
	for key := range tx.wc.seen {
		_ = key
	}
}
