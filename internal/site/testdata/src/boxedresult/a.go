package boxedresult

import "strconv"

// Decode returns a map[string]any: every value it stores is boxed because
// the caller asked for that map.
func Decode(fields []string) map[string]any {
	out := make(map[string]any, len(fields))
	for i, f := range fields {
		out[f] = i // want `i is boxed into the map\[string\]any the function returns`
	}
	return out
}

// Fill stores into a map the caller passed in.
func Fill(dst map[string]interface{}, n int) {
	dst["n"] = strconv.Itoa(n) // want `strconv.Itoa\(n\) is boxed into the map\[string\]interface\{\} the caller passed`
}

// Named results count too.
func Parse(s string) (m map[string]any, err error) {
	m = map[string]any{}
	m["len"] = len(s) // want `len\(s\) is boxed into the map\[string\]any the function returns`
	return m, nil
}

// A value that is already an interface is not boxed again: no shape.
func Copy(src map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range src {
		out[k] = v
	}
	return out
}

// A local map that is not returned: the function's choice, no shape.
func Count(fields []string) int {
	m := map[string]any{}
	for i, f := range fields {
		m[f] = i
	}
	return len(m)
}
