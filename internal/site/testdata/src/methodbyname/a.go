package methodbyname

import (
	"reflect"
	"strings"
)

// method finds a template field's method: subject() is Subject().
func method(ctx reflect.Value, name string) (reflect.Value, bool) {
	m := ctx.MethodByName(name) // want `ctx.MethodByName\(name\) searches the type's methods by name on every call`
	if !m.IsValid() {
		m = ctx.MethodByName(strings.Title(name)) // want `ctx.MethodByName\(strings.Title\(name\)\) searches the type's methods by name on every call, with a name it builds first`
	}
	return m, m.IsValid()
}

// A type's lookup: the same search.
func typeMethod(t reflect.Type, name string) bool {
	_, ok := t.MethodByName(name) // want `t.MethodByName\(name\) searches`
	return ok
}

// Method by index: no search.
func byIndex(ctx reflect.Value, i int) reflect.Value { return ctx.Method(i) }

type finder struct{}

// MethodByName of another type is not reflect's.
func (finder) MethodByName(string) bool { return false }

func other(f finder) bool { return f.MethodByName("x") }

// field reads a cross-field's value by the name in its tag.
func field(current reflect.Value, fld string) reflect.Value {
	return current.FieldByName(fld) // want `current.FieldByName\(fld\) searches the struct's fields \(embedded ones too\) by name on every call`
}

// A type's field lookup: the same search.
func typeField(t reflect.Type, fld string) bool {
	_, ok := t.FieldByName(fld) // want `t.FieldByName\(fld\) searches`
	return ok
}
