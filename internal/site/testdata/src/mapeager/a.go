package mapeager

type visitor struct{ stack []map[string]any }

func (v *visitor) push(m map[string]any) { v.stack = append(v.stack, m) }

// Written only when the program declares parameters.
func (v *visitor) eval(params []string, ctx, key any) {
	blockParams := make(map[string]any) // want `blockParams is made on every call but written only under conditions \(lines 11, 14\)`
	if len(params) > 0 {
		blockParams[params[0]] = ctx
	}
	if len(params) > 1 && key != nil {
		blockParams[params[1]] = key
	}
	v.push(blockParams)
}

// Written on every call: no shape.
func always(k string) int {
	m := make(map[string]int)
	m[k] = 1
	return len(m)
}

// Returned: callers may write it.
func returned(ok bool) map[string]int {
	m := make(map[string]int)
	if ok {
		m["a"] = 1
	}
	return m
}

// Written in a loop: filled, not conditional.
func filled(keys []string) int {
	m := make(map[string]bool)
	for _, k := range keys {
		m[k] = true
	}
	return len(m)
}

// Stored into a struct: another name may write it.
type holder struct{ m map[string]int }

func stored(ok bool) *holder {
	m := make(map[string]int)
	if ok {
		m["a"] = 1
	}
	return &holder{m: m}
}

// Never written: nothing to say here.
func never() int {
	m := make(map[string]int)
	return len(m)
}
