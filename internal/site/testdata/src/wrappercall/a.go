package wrappercall

import "strconv"

func ToIntE(i any) (int, error) {
	s, _ := i.(string)
	return strconv.Atoi(s)
}

func ToInt(i any) int { // want `ToInt is one call of ToIntE, its result handed back`
	v, _ := ToIntE(i)
	return v
}

func Twice(i any) int { // want `Twice is one call of double`
	return double(i)
}

func double(i any) int { return 2 * ToInt(i) }

// A call of another package: not the package's own implementation.
func Atoi(s string) int {
	v, _ := strconv.Atoi(s)
	return v
}
