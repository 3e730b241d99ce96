package boxedforapi

import "reflect"

func ToE[T int | string](i any) (T, error) {
	v, _ := i.(T)
	return v, nil
}

func ToSlice[T int | string](i any) []T {
	s := reflect.ValueOf(i)
	out := make([]T, s.Len())
	for j := 0; j < s.Len(); j++ {
		out[j], _ = ToE[T](s.Index(j).Interface()) // want `ToSlice boxes each element \(s.Index\(j\).Interface\(\)\) to call ToE, whose parameter is any`
	}
	return out
}

// An unexported helper's any is the package's own choice.
func toAll(i any) []any {
	s := reflect.ValueOf(i)
	var out []any
	for j := 0; j < s.Len(); j++ {
		out = append(out, keep(s.Index(j).Interface()))
	}
	return out
}

func keep(v any) any { return v }
