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

// Writer writes bytes.
type Writer interface{ Write([]byte) (int, error) }

func chunks(w Writer, data []byte, size int) {
	for off := 0; off+size <= len(data); off += size {
		buf := make([]byte, size) // an interface's method: the per-iteration buffer is the line's own cost
		copy(buf, data[off:off+size])
		w.Write(buf)
	}
}

func viaVar(f func([]int) int, n int) int {
	args := make([]int, n) // want `viaVar makes args on every call to pass to f, a func value`
	return f(args)
}
