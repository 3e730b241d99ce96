package mapkeysindex

import (
	"fmt"
	"reflect"
)

// Dive validates every entry of a map.
func Dive(current reflect.Value, f func(k, v reflect.Value)) {
	for _, key := range current.MapKeys() { // want `the loop at lines 10–13 ranges over current.MapKeys\(\), which copies every key into a new \[\]reflect.Value, and looks each key's value up again with current.MapIndex\(key\) \(line 12\)`
		_ = fmt.Sprint(key)
		f(key, current.MapIndex(key))
	}
}

// Keys only reads the keys.
func Keys(m reflect.Value) int {
	n := 0
	for _, k := range m.MapKeys() { // want `ranges over m.MapKeys\(\), which copies every key into a new \[\]reflect.Value$`
		n += k.Len()
	}
	return n
}

// Ranged already uses MapRange: no shape.
func Ranged(m reflect.Value) int {
	n := 0
	for it := m.MapRange(); it.Next(); {
		n += it.Key().Len()
	}
	return n
}
