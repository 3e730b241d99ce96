package discard

import (
	"fmt"
	"io"
	"testing"
)

var sink int

func BenchmarkDiscard(b *testing.B) {
	xs := []int{1, 2, 3}
	for i := 0; i < b.N; i++ {
		Sum(xs) // want `BenchmarkDiscard: the result of Sum is discarded in the b.N loop`
	}
}

func BenchmarkBlank(b *testing.B) {
	xs := []int{1, 2, 3}
	for range b.N {
		_ = Sum(xs) // want `the result of Sum is discarded`
	}
}

func BenchmarkValueMethod(b *testing.B) {
	var a Acc
	for range b.N {
		a.Get() // want `the result of a.Get is discarded`
	}
}

// Fine: kept in a sink, a pointer method, no result, the standard
// library's side effects, b.Loop.
func BenchmarkFine(b *testing.B) {
	xs := []int{1, 2, 3}
	var a Acc
	for i := 0; i < b.N; i++ {
		sink = Sum(xs)
		a.Add(i)
		Touch()
		fmt.Fprint(io.Discard, i)
		_ = Asm(nil)
		_ = ViaAsm("x")
		Kept(i)
	}
	for b.Loop() {
		Sum(xs)
	}
}

func BenchmarkUnreadLocal(b *testing.B) {
	xs := []int{1, 2, 3}
	var r int
	for i := 0; i < b.N; i++ {
		r = Sum(xs) // want `BenchmarkUnreadLocal: the result of Sum is assigned to r, which nothing reads \(_ = r is no read\), in the b.N loop`
	}
	_ = r // prevent optimization
}

// ReadLocal reads its local after the loop: the value is used.
func BenchmarkReadLocal(b *testing.B) {
	xs := []int{1, 2, 3}
	var r int
	for i := 0; i < b.N; i++ {
		r += Sum(xs)
		r = Sum(xs)
	}
	sink = r
}
