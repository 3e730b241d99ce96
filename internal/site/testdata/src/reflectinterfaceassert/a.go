package reflectinterfaceassert

import (
	"reflect"
	"time"
)

// Encode boxes the time only to assert it back.
func Encode(v reflect.Value) int64 {
	return v.Interface().(time.Time).Unix() // want `v.Interface\(\).\(time.Time\) boxes a copy of the time.Time on the heap only to assert it back`
}

// A pointer is not allocated in an interface: no shape.
func Ptr(v reflect.Value) *time.Time {
	return v.Interface().(*time.Time)
}

// An interface type asserted to get the interface value, to call it (a
// marshaler after its type was checked): the box is the call's.
func Stringer(v reflect.Value) interface{ String() string } {
	return v.Interface().(interface{ String() string })
}

// An interface type asked about: the value is boxed to ask about its
// type.
func IsStringer(v reflect.Value) bool {
	_, ok := v.Interface().(interface{ String() string }) // want `v.Interface\(\).\(interface\{String\(\) string\}\) boxes v \(a copy on the heap when it is addressable`
	return ok
}

// Valuer is implemented by few types.
type Valuer interface{ Value() any }

// Extract asks in the comma-ok form.
func Extract(current reflect.Value) any {
	if v, ok := current.Interface().(Valuer); ok { // want `current.Interface\(\).\(Valuer\) boxes current .* to ask whether its type implements Valuer`
		return v.Value()
	}
	return nil
}

// A bool is kept without an allocation: no shape.
func Bool(v reflect.Value) bool {
	return v.Interface().(bool)
}

// As asserts to a type parameter: no size, no shape.
func As[T any](v reflect.Value) T {
	return v.Interface().(T)
}
