package reflectmaprange

import (
	"reflect"
	"strings"
)

type entry struct {
	key   string
	value reflect.Value
}

// kept copies the values out and keeps them to sort.
func kept(v reflect.Value) []entry {
	var entries []entry
	kbuf := reflect.New(v.Type().Key()).Elem()
	iter := v.MapRange()
	for iter.Next() { // want `the loop at lines 18–22 walks the map through reflection and copies each entry out with iter.Value\(\) \(line 20\)`
		kbuf.SetIterKey(iter)
		value := iter.Value()
		entries = append(entries, entry{key: kbuf.String(), value: value})
	}
	return entries
}

// each copies both out, each used before the next.
func each(v reflect.Value) int {
	n := 0
	for iter := v.MapRange(); iter.Next(); { // want `copies each entry out with iter.Key\(\) \(line 30\), iter.Value\(\) \(line 30\)`
		n += len(iter.Key().String()) + iter.Value().Len()
	}
	return n
}

// reused copies into values it made once: its own work.
func reused(v reflect.Value, w *strings.Builder) {
	k := reflect.New(v.Type().Key()).Elem()
	e := reflect.New(v.Type().Elem()).Elem()
	for iter := v.MapRange(); iter.Next(); { // want `the loop at lines 39–43 walks the map through reflection \(iter.Next\) and copies each entry into values it made once \(SetIterKey, SetIterValue\)`
		k.SetIterKey(iter)
		e.SetIterValue(iter)
		w.WriteString(k.String())
	}
}
