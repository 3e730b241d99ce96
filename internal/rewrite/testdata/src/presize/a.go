package presize

import "strings"

type Pair struct{ Key, Value string }

// Parse grows out once per part: the shape and the rewrite.
func Parse(rec string) []Pair {
	var out []Pair
	for _, kv := range strings.Split(rec, ";") { // a range over a call: evaluated once, before the loop
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, Pair{k, v}) // want `out grows by one element per element of strings.Split`
	}
	return out
}

// Keys grows keys once per entry of m, whose length is known.
func Keys(m map[string]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k) // want `keys grows by one element per element of m, whose length is known before the loop`
	}
	return keys
}
