package mapkeysknown

// Dict is a map with its keys' order.
type Dict struct {
	Keys []string
	Data map[string]int
}

// NewDict returns an empty dict.
func NewDict() *Dict {
	return &Dict{Data: make(map[string]int)}
}

func loop(items []int) {
	ld := NewDict()
	for i := range items {
		ld.Data["index"] = i + 1 // want `loop stores 9 distinct constant keys into ld.Data \(index, index0, revindex, …, cycle\), a map made without a size \(line 11\): a map holds 8 entries in its first group, so the 9th key makes it allocate a table`
		ld.Data["index0"] = i
		ld.Data["revindex"] = len(items) - i
		ld.Data["revindex0"] = len(items) - i - 1
		ld.Data["first"] = 0
		ld.Data["last"] = 0
		ld.Data["previtem"] = 0
		ld.Data["nextitem"] = 0
		ld.Data["cycle"] = 0
	}
}

func local() map[string]any {
	m := map[string]any{}
	m["a"] = 1 // want `local stores 9 distinct constant keys into m`
	m["b"] = 2
	m["c"] = 3
	m["d"] = 4
	m["e"] = 5
	m["f"] = 6
	m["g"] = 7
	m["h"] = 8
	m["i"] = 9
	return m
}

func eight() map[string]any {
	m := make(map[string]any)
	m["a"] = 1
	m["b"] = 2
	m["c"] = 3
	m["d"] = 4
	m["e"] = 5
	m["f"] = 6
	m["g"] = 7
	m["h"] = 8
	m["a"] = 9 // the same key again: eight distinct
	return m
}

func sized() map[string]any {
	m := make(map[string]any, 9)
	m["a"] = 1
	m["b"] = 2
	m["c"] = 3
	m["d"] = 4
	m["e"] = 5
	m["f"] = 6
	m["g"] = 7
	m["h"] = 8
	m["i"] = 9
	return m
}
