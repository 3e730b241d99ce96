package mapcopied

type Fields map[string]any

type Entry struct{ Data Fields }

// Dup copies the fields for the new entry.
func (e *Entry) Dup() *Entry {
	data := make(Fields, len(e.Data))
	for k, v := range e.Data {
		data[k] = v // want `data is a copy of e.Data, made entry by entry on every call`
	}
	return &Entry{Data: data}
}

// A literal map: the same copy.
func clone(src map[string]int) map[string]int {
	dst := map[string]int{}
	for k, v := range src {
		dst[k] = v // want `dst is a copy of src`
	}
	return dst
}

// A transformed copy is work, not a copy.
func upper(src map[string]int) map[string]int {
	dst := make(map[string]int)
	for k, v := range src {
		dst[k] = v * 2
	}
	return dst
}

// Into the caller's map: a merge the caller asked for.
func merge(dst, src map[string]int) {
	for k, v := range src {
		dst[k] = v
	}
}

// A loop that does more than copy.
func filtered(src map[string]int) map[string]int {
	dst := make(map[string]int)
	for k, v := range src {
		if v > 0 {
			dst[k] = v
		}
	}
	return dst
}

// A copy that keeps errors as their text: still a copy.
func (e *Entry) Format() int {
	data := make(Fields, len(e.Data)+4)
	for k, v := range e.Data {
		switch v := v.(type) {
		case error:
			data[k] = v.Error() // want `data is a copy of e.Data`
		default:
			data[k] = v // want `data is a copy of e.Data`
		}
	}
	return len(data)
}

// A type switch that drops some entries is a filter.
func (e *Entry) noErrors() Fields {
	data := make(Fields)
	for k, v := range e.Data {
		switch v := v.(type) {
		case error:
		default:
			data[k] = v
		}
	}
	return data
}
