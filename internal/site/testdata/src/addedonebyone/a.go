package addedonebyone

// Dict keeps its keys' order.
type Dict struct {
	Keys []string
	Data map[string]int
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{Data: make(map[string]int)} }

// Set adds or replaces a key.
func (d *Dict) Set(k string, v int) {
	if _, ok := d.Data[k]; !ok {
		d.Keys = append(d.Keys, k)
	}
	d.Data[k] = v
}

// Get reads a key.
func (d *Dict) Get(k string) int { return d.Data[k] }

func convert(keys []string, val map[string]int) *Dict {
	d := NewDict()
	for _, k := range keys {
		d.Set(k, val[k]) // want `convert adds the len\(keys\) elements of keys to d one at a time through Set, which grows its Keys and Data as it adds, made without room`
	}
	return d
}

func read(keys []string, d *Dict) int {
	t := 0
	for _, k := range keys {
		t += d.Get(k)
	}
	return t
}

func fill(d *Dict, keys []string) {
	for _, k := range keys {
		d.Set(k, 1) // d is the caller's: not made here
	}
}

// An encoder whose string adds the bytes of each string: the count of
// calls is no bound on its buffer.
type encoder struct{ s []byte }

func (e *encoder) str(s string) { e.s = append(e.s, s...) }

func encode(names []string) []byte {
	var e encoder
	for _, n := range names {
		e.str(n)
	}
	return e.s
}
