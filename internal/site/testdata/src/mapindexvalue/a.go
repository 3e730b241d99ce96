package mapindexvalue

import "reflect"

// field looks a template field up in a map context.
func field(ctx reflect.Value, name string) reflect.Value {
	if ctx.Kind() == reflect.Map {
		nameVal := reflect.ValueOf(name)
		if nameVal.Type().AssignableTo(ctx.Type().Key()) {
			return ctx.MapIndex(nameVal) // want `ctx.MapIndex looks the string key name up through reflection`
		}
	}
	return reflect.Value{}
}

// The key boxed in the call.
func inline(m reflect.Value, k int) reflect.Value {
	return m.MapIndex(reflect.ValueOf(k)) // want `m.MapIndex looks the int key k up through reflection`
}

// A key the caller made once: no boxing per lookup.
func given(m, key reflect.Value) reflect.Value { return m.MapIndex(key) }

// Keys from MapKeys are values already.
func all(m reflect.Value) int {
	n := 0
	for _, k := range m.MapKeys() {
		if m.MapIndex(k).IsValid() {
			n++
		}
	}
	return n
}
