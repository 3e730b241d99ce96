package typecompared

import (
	"encoding/json"
	"reflect"
	"strconv"
	"time"
)

// LocalDate is a date.
type LocalDate struct{ Year, Month, Day int }

// LocalTime is a time of day.
type LocalTime struct{ Hour, Minute int }

var (
	timeType      = reflect.TypeOf(time.Time{})
	localDateType = reflect.TypeOf(LocalDate{})
	localTimeType = reflect.TypeFor[LocalTime]()
	numberType    = reflect.TypeOf((*json.Number)(nil)).Elem()
	anyType       = reflect.TypeOf((*any)(nil)).Elem()
)

// Append compares every value's type with four before its kind.
func Append(b []byte, v reflect.Value) []byte {
	t := v.Type()
	switch t {
	case timeType: // want `Append compares t, a reflect.Type, with 4 of the package's types in turn \(timeType, localDateType, localTimeType, numberType\) for every value it is called with, each an interface comparison through the runtime; only values of 2 kinds can be one of them`
		return v.Interface().(time.Time).AppendFormat(b, time.RFC3339)
	case localDateType, localTimeType:
		return append(b, "date"...)
	case numberType:
		return append(b, v.String()...)
	}
	switch v.Kind() {
	case reflect.Int:
		return strconv.AppendInt(b, v.Int(), 10)
	}
	return b
}

// Two compares with two: no chain to speak of.
func Two(v reflect.Value) bool {
	switch v.Type() {
	case timeType, localDateType:
		return true
	}
	return false
}

// Iface has an interface's type among its cases: no kind places it.
func Iface(t reflect.Type) int {
	switch t {
	case timeType, localDateType, anyType:
		return 1
	}
	return 0
}

// Local compares with a type made in the function: not the package's.
func Local(t reflect.Type) int {
	u := reflect.TypeOf(0)
	switch t {
	case timeType, localDateType, u:
		return 1
	}
	return 0
}
