// Package vm is where the root package's benchmark spends its time.
package vm

// VM runs programs.
type VM struct{ Stack []any }

// Run makes a new stack on every call.
func Run(n int) int {
	vm := &VM{}
	vm.Stack = make([]any, 0, 2)
	for i := 0; i < n; i++ {
		vm.Stack = append(vm.Stack, i)
	}
	return len(vm.Stack)
}
