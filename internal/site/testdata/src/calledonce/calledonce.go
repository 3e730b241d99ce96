package calledonce

// Filter is an exported type whose methods are the API.
type Filter struct{ bits []uint64 }

func baseHashes(data []byte) [4]uint64 { // want `baseHashes is called once per call of \(\*Filter\).Add, \(\*Filter\).Test, outside any loop`
	var h [4]uint64
	for i, b := range data {
		h[i%4] += uint64(b)
	}
	return h
}

// Add sets the bits of data.
func (f *Filter) Add(data []byte) {
	h := baseHashes(data)
	for i := range h {
		f.bits[h[i]%uint64(len(f.bits))] |= 1
	}
}

// Test reports whether data may be in the filter.
func (f *Filter) Test(data []byte) bool {
	h := baseHashes(data)
	return f.bits[h[0]%uint64(len(f.bits))] != 0
}

// A helper called in a loop is called many times per operation.
func skipWS(s string) string {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// Fields splits s.
func Fields(s string) []string {
	var out []string
	for s != "" {
		s = skipWS(s)
		out = append(out, s[:1])
		s = s[1:]
	}
	return out
}

// A helper called once by an unexported function that the API calls
// once is called once per operation too.
func inner(x int) int { return x * 2 } // want `inner is called once per call of middle`

func middle(x int) int { return inner(x) + 1 } // want `middle is called once per call of Outer`

// Outer calls middle.
func Outer(x int) int { return middle(x) }

// A helper whose exported caller a loop of the package calls.
func per(x int) int { return x + 1 }

// Step calls per once.
func Step(x int) int { return per(x) }

// Steps calls Step in a loop.
func Steps(n int) int {
	t := 0
	for i := 0; i < n; i++ {
		t += Step(i)
	}
	return t
}

// A helper called in a function literal.
func lit(x int) int { return x - 1 }

// Each calls lit in a closure.
func Each(xs []int, f func(func(int) int)) {
	f(func(x int) int { return lit(x) })
}

// A helper used as a value.
func val(x int) int { return x }

// Apply hands val on.
func Apply(g func(func(int) int) int) int { return g(val) + val(1) }

// Recursive calls itself.
func rec(n int) int {
	if n == 0 {
		return 0
	}
	return rec(n - 1)
}

// Rec calls rec.
func Rec(n int) int { return rec(n) }

// Mode is what a constructor hands out.
type Mode interface{ Marshal(v int) int }

type mode struct{ n int }

// NewMode returns the unexported mode behind the Mode interface.
func NewMode() Mode { return &mode{} }

func getBuf() []int { return make([]int, 0, 8) } // want `getBuf is called once per call of \(\*mode\).Marshal, outside any loop`

// Marshal is the API, reached through Mode.
func (m *mode) Marshal(v int) int { return len(getBuf()) + v }
