package argsfuncvalue

// Callable is a function a template calls.
type Callable struct {
	Fn func(args []int, kwargs map[string]int) int
}

type call struct {
	args   []int
	kwargs map[string]int
}

func eval(fn Callable, n call) int {
	args := make([]int, len(n.args)) // want `eval makes args and kwargs on every call to pass to fn.Fn, a func value \(line \d+\)`
	copy(args, n.args)
	var kwargs map[string]int
	if len(n.kwargs) > 0 {
		kwargs = make(map[string]int, len(n.kwargs))
		for k, v := range n.kwargs {
			kwargs[k] = v
		}
	}
	return fn.Fn(args, kwargs)
}

func sum(xs []int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	return t
}

func static(n call) int {
	args := make([]int, len(n.args)) // a static call: the compiler sees sum
	copy(args, n.args)
	return sum(args)
}
