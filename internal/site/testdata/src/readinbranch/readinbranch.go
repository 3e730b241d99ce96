package readinbranch

import (
	"fmt"
	"reflect"
)

// The pointed-to value boxed on every call, read only for a map.
func mapFormByTag(ptr any) error {
	ptrVal := reflect.ValueOf(ptr)
	var pointed any
	if ptrVal.Kind() == reflect.Ptr {
		ptrVal = ptrVal.Elem()
		pointed = ptrVal.Interface() // want `mapFormByTag makes pointed = ptrVal.Interface\(\) on every call \(Interface copies`
	}
	if ptrVal.Kind() == reflect.Map {
		if pointed != nil {
			ptr = pointed
		}
		return setMap(ptr)
	}
	return nil
}

func setMap(any) error { return nil }

// A label read after the branch too, or on every path: not this shape.
func label(n int, verbose bool) string {
	s := fmt.Sprintf("n=%d", n)
	if verbose {
		println(s)
	}
	return s
}

func always(n int) string {
	s := fmt.Sprint(n)
	return s + "!"
}
