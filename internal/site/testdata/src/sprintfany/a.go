package sprintfany

import (
	"fmt"
	"reflect"
	"strconv"
)

// str formats a value the way a template engine prints it.
func str(value reflect.Value) string {
	ival := value.Interface()
	switch value.Kind() {
	case reflect.Int, reflect.Int64:
		return fmt.Sprintf("%d", ival) // want `fmt.Sprintf\("%d", ival\) formats an interface value: fmt finds its dynamic type through reflection`
	case reflect.Float64:
		return strconv.FormatFloat(value.Float(), 'f', -1, 64)
	}
	return fmt.Sprintf("%s", ival) // want `fmt.Sprintf\("%s", ival\) formats an interface value`
}

// Typed arguments: fmt's cost, not a dynamic type (sprintf-simple's).
func typed(n int, s string) string { return fmt.Sprintf("%d", n) + fmt.Sprintf("%s", s) }

// A format with text around the verb is a message, not a conversion.
func message(v any) string { return fmt.Sprintf("value %v", v) }

// Two arguments.
func pair(a, b any) string { return fmt.Sprintf("%v%v", a, b) }

// KeyName formats a map key held in a reflect.Value.
func KeyName(key reflect.Value) string {
	return fmt.Sprintf("%v", key) // want `fmt.Sprintf\("%v", key\) formats the value a reflect.Value holds`
}
