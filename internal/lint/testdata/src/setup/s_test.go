package setup

import (
	"bytes"
	"os"
	"strings"
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

// One cheap call of the module before the loop (an expression compiled,
// a route registered) is no distortion a report could measure.
func BenchmarkOneCheapCall(b *testing.B) {
	m := Compile("a.b")
	for i := 0; i < b.N; i++ {
		sink = len("ab")
		_ = Match(m, "abc")
	}
}

func BenchmarkRepeatFixture(b *testing.B) {
	in := strings.Repeat("x", 200000) // want `BenchmarkRepeatFixture: setup strings.Repeat runs before the b.N loop`
	for i := 0; i < b.N; i++ {
		_ = Match(3, in)
	}
}

func BenchmarkBytesRepeatFixture(b *testing.B) {
	in := bytes.Repeat([]byte("x"), 1<<20) // want `setup bytes.Repeat runs before`
	for i := 0; i < b.N; i++ {
		sink = len(in)
	}
}

func BenchmarkBigMake(b *testing.B) {
	buf := make([]byte, 1<<20) // want `setup make runs before`
	for i := 0; i < b.N; i++ {
		sink = len(buf)
	}
}

func BenchmarkSmallRepeat(b *testing.B) {
	in := strings.Repeat("x", 64)
	for i := 0; i < b.N; i++ {
		_ = Match(3, in)
	}
}

// loadCorpus is a test helper that reads a file: a costly setup.
func loadCorpus() []byte {
	data, _ := os.ReadFile("testdata/corpus")
	return data
}

// pattern is a test helper that returns a constant: cheap.
func pattern() string { return "a.b" }

func BenchmarkHelperReads(b *testing.B) {
	data := loadCorpus() // want `setup loadCorpus runs before`
	for i := 0; i < b.N; i++ {
		sink = len(data)
	}
}

func BenchmarkHelperCheap(b *testing.B) {
	m := Compile(pattern())
	for i := 0; i < b.N; i++ {
		_ = Match(m, "abc")
	}
}
