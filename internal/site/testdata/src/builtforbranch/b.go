package builtforbranch

type decoder struct{ strict bool }

func (d *decoder) skip() {}

// unmatched reads key only in strict mode.
func unmatched(d *decoder, key any, seen map[any]bool) bool {
	if d.strict {
		if seen[key] {
			return true
		}
		seen[key] = true
	}
	d.skip()
	return false
}

// Parse hands every unknown key over, made into a string and boxed.
func Parse(d *decoder, keys [][]byte, seen map[any]bool) {
	for _, k := range keys {
		unmatched(d, string(k), seen) // want `string\(k\) is converted from bytes and boxed for unmatched's key, which unmatched reads only when d.strict \(line 10\): on every other call it is made and thrown away`
	}
}

// always reads key on every call.
func always(d *decoder, key any, seen map[any]bool) {
	seen[key] = true
}

// ParseAll: the callee reads it every time.
func ParseAll(d *decoder, keys [][]byte, seen map[any]bool) {
	for _, k := range keys {
		always(d, string(k), seen)
	}
}

// byKey decides on the key itself: the branch needs it.
func byKey(d *decoder, key string) int {
	if key != "" {
		return len(key)
	}
	return 0
}

// ParseLen: the condition reads the argument.
func ParseLen(d *decoder, keys [][]byte) (n int) {
	for _, k := range keys {
		n += byKey(d, string(k))
	}
	return n
}

// ParseConst passes a constant: no allocation.
func ParseConst(d *decoder, seen map[any]bool) {
	unmatched(d, "fixed", seen)
}
