package errorpanic

import "fmt"

type yamlError struct{ err error }

func failf(format string, args ...any) {
	panic(yamlError{fmt.Errorf("yaml: "+format, args...)}) // want `failf reports an error by panicking, and the package recovers it \(errorpanic.go:\d+\)`
}

func handleErr(err *error) {
	if v := recover(); v != nil {
		if e, ok := v.(yamlError); ok {
			*err = e.err
			return
		}
		panic(v)
	}
}

func Unmarshal(depth int) (err error) {
	defer handleErr(&err)
	if depth > 10 {
		failf("too deep: %d", depth)
	}
	return nil
}

// A panic that is not the function's last statement: not this shape.
func check(ok bool) {
	if !ok {
		panic("bad")
	}
}
