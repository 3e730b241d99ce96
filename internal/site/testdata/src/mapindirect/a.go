package mapindirect

type Cell struct {
	Data    string
	Width   [20]int64
	Padding [2]string
}

type small struct{ a, b int }

func build(n int) map[int]Cell {
	cells := make(map[int]Cell) // want `cells, a map\[int\]Cell, holds values of 208 bytes: over the 128 bytes a map stores inline, so each store of a new key allocates its value on the heap on its own \(line 14\)`
	for j := 0; j < n; j++ {
		cells[j] = Cell{Data: "x"}
	}
	return cells
}

func inline(n int) map[int]small {
	m := map[int]small{}
	for j := 0; j < n; j++ {
		m[j] = small{j, j}
	}
	return m
}

func unused() int {
	big := make(map[int]Cell) // never stored into: nothing allocated per key
	return len(big)
}

// A map of a type parameter: its size is each instantiation's.
func generic[K comparable, V any](keys []K, v V) map[K]V {
	m := make(map[K]V)
	for _, k := range keys {
		m[k] = v
	}
	return m
}
