package setup

import (
	"os"
	"testing"
)

var sink int

func BenchmarkNoReset(b *testing.B) {
	data := Fixture(1 << 20) // want `BenchmarkNoReset: setup Fixture runs before the b.N loop with the timer on`
	for i := 0; i < b.N; i++ {
		sink = Sum(data)
	}
}

func BenchmarkFile(b *testing.B) {
	data, _ := os.ReadFile("testdata/x") // want `setup os.ReadFile runs before`
	for i := 0; i < b.N; i++ {
		sink = len(data)
	}
}

func BenchmarkReset(b *testing.B) {
	data := Fixture(1 << 20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = Sum(data)
	}
}

func BenchmarkBLoop(b *testing.B) {
	data := Fixture(1 << 20)
	for b.Loop() {
		sink = Sum(data)
	}
}

func BenchmarkCheap(b *testing.B) {
	data := make([]int, 100)
	for i := range data {
		data[i] = i
	}
	for i := 0; i < b.N; i++ {
		sink = Sum(data)
	}
}

func BenchmarkStopStart(b *testing.B) {
	b.StopTimer()
	data := Fixture(1 << 20)
	b.StartTimer()
	for i := 0; i < b.N; i++ {
		sink = Sum(data)
	}
}

func BenchmarkInlineFixture(b *testing.B) {
	data := make([]int, 1_000_000)
	for i := range data { // want `BenchmarkInlineFixture: setup a loop of 100,000 iterations or more runs before the b.N loop`
		data[i] = i * i
	}
	for i := 0; i < b.N; i++ {
		sink = Sum(data)
	}
}

func BenchmarkCountedFixture(b *testing.B) {
	m := map[int]int{}
	for i := 0; i < 200000; i++ { // want `setup a loop of 100,000 iterations or more`
		m[i] = i
	}
	for i := 0; i < b.N; i++ {
		sink = len(m)
	}
}
