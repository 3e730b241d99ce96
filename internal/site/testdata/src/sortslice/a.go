package sortslice

import "sort"

type kv struct {
	k string
	v int
}

func Sorted(m map[string]int) []kv {
	var out []kv
	for k, v := range m {
		out = append(out, kv{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].k < out[j].k }) // want `sort.Slice\(out, …\) swaps the elements through reflection`
	return out
}

func Names(xs []string) { sort.Strings(xs) }
