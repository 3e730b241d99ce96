package mapfiltered

import "strings"

// The "key[sub]" entries of a form, returned: the caller keeps the map.
func getMap(m map[string][]string, key string) (map[string]string, bool) {
	d := make(map[string]string)
	found := false
	for k, v := range m {
		if len(k) < len(key)+3 {
			continue
		}
		if j := strings.IndexByte(k[len(key)+1:], ']'); j > 0 {
			found = true
			d[k[len(key)+1:len(key)+1+j]] = v[0] // want `getMap returns d, filled by the loop at lines 9–17 with the elements of m that pass its test \(line 10\)`
		}
	}
	return d, found
}

// Every element stored: the count is known (map-unsized's case); a map
// kept, not returned; a filter into a slice: none of them.
func all(words []string) map[string]int {
	d := make(map[string]int)
	for i, w := range words {
		d[w] = i
	}
	return d
}

func kept(words []string) int {
	d := map[string]bool{}
	for _, w := range words {
		if w != "" {
			d[w] = true
		}
	}
	return len(d)
}

// Only nil values dropped: nearly every pair passes, len(pairs) bounds
// the entries: not this shape.
func hash(pairs []string, eval func(string) any) map[string]any {
	result := make(map[string]any)
	for _, p := range pairs {
		if value := eval(p); value != nil {
			result[p] = value
		}
	}
	return result
}
