// Package reflect2 is a stand-in for github.com/modern-go/reflect2's
// unsafe API, as much of it as the matchers' test data calls.
package reflect2

import "unsafe"

// Type is a type's description.
type Type interface {
	UnsafeNew() unsafe.Pointer
	New() any
	UnsafeSet(ptr, val unsafe.Pointer)
}

// UnsafeMapType describes a map type.
type UnsafeMapType struct{ Type }

// UnsafeSetIndex stores *elem at *key in the map at obj.
func (t *UnsafeMapType) UnsafeSetIndex(obj, key, elem unsafe.Pointer) {}

// PtrOf returns the pointer inside an interface value.
func PtrOf(obj any) unsafe.Pointer { return nil }
