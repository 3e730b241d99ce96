package reflectslicebytes

import "reflect"

// Decode reads into the bytes of an array through a new slice.
func Decode(v reflect.Value, n int) []byte {
	return v.Slice(0, n).Bytes() // want `v.Slice\(0, n\).Bytes\(\) makes a reflect.Value of a new slice only to read its bytes`
}

// Window has both bounds.
func Window(v reflect.Value, i, j int) []byte {
	b := v.Slice(i, j).Bytes() // want `v.Slice\(i, j\).Bytes\(\) makes a reflect.Value`
	return b
}

// Already v.Bytes(): no shape.
func Direct(v reflect.Value) []byte {
	return v.Bytes()
}

// A Slice whose Value is used as a Value: no shape.
func Elem(v reflect.Value) reflect.Value {
	return v.Slice(0, 1).Index(0)
}

// Slice3 is not Slice: no shape.
func Three(v reflect.Value) []byte {
	return v.Slice3(0, 1, 2).Bytes()
}
