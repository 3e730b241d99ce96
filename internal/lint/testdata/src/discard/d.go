package discard

func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

type Acc struct{ n int }

func (a *Acc) Add(x int) int { a.n += x; return a.n }

func (a Acc) Get() int { return a.n }

func Touch() {}

// Asm is implemented in assembly: the compiler never deletes a call.
func Asm(p []byte) uint64 // want Asm:"opaque"

//go:noinline
func Kept(x int) int { return x * 2 } // want Kept:"opaque"

// ViaAsm calls Asm: inlined, the assembly call stays.
func ViaAsm(s string) uint64 { return Asm([]byte(s)) } // want ViaAsm:"opaque"
