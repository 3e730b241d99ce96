// Package deps calls into the module's vm.
package deps

import "example.com/deps/vm"

// Eval runs the vm.
func Eval(n int) int { return vm.Run(n) }
