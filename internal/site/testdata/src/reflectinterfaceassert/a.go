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

// An interface type is no unboxing: no shape.
func Stringer(v reflect.Value) interface{ String() string } {
	return v.Interface().(interface{ String() string })
}

// A bool is kept without an allocation: no shape.
func Bool(v reflect.Value) bool {
	return v.Interface().(bool)
}
