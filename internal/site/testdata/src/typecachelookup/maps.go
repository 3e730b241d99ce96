package typecachelookup

import "reflect"

type codec struct{ encode func([]byte) []byte }

var codecs map[typeKey]*codec

type typeKey uintptr

func typeid(t reflect.Type) typeKey { return typeKey(reflect.ValueOf(t).Pointer()) }

func construct(t reflect.Type) *codec { return &codec{} }

// Append looks its codec up in a map of codecs keyed by the type.
func Append(b []byte, x any) []byte {
	t := reflect.TypeOf(x)
	c, found := codecs[typeid(t)] // want `Append looks t up in codecs, a map keyed by the type \(typeid\(t\)\): the per-type cache itself`
	if !found {
		c = construct(t)
	}
	return c.encode(b)
}

// load indexes by the type itself.
func load(t reflect.Type, m map[reflect.Type]int) int {
	return m[t] // want `load looks t up in m, a map keyed by the type \(t\)`
}

// counts makes its own map: no cache.
func counts(ts []reflect.Type) int {
	m := make(map[reflect.Type]int)
	for _, t := range ts {
		m[t]++
	}
	return len(m)
}
