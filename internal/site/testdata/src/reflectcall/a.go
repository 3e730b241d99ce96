package reflectcall

import "reflect"

// call runs a registered helper with the template's arguments.
func call(funcVal reflect.Value, params []any) reflect.Value {
	args := make([]reflect.Value, len(params))
	for i, p := range params {
		args[i] = reflect.ValueOf(p)
	}
	return funcVal.Call(args)[0] // want `funcVal.Call\(args\) calls the function through reflection`
}

// A direct call of a func value: no reflection.
func direct(f func(any) any, x any) any { return f(x) }

type runner struct{}

// Call of another type is not reflect's.
func (runner) Call(args []reflect.Value) {}

func other(r runner) { r.Call(nil) }
