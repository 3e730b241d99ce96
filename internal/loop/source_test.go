package loop

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfloop/perfloop/internal/gotest"
)

func TestUntimedLines(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import "testing"

func BenchmarkRebuild(b *testing.B) {
	data := build()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%100 == 0 {
			b.StopTimer()
			data = build()
			b.StartTimer()
		}
		use(data)
	}
}

func BenchmarkLoop(b *testing.B) {
	data := build()
	for b.Loop() {
		use(data)
	}
}

func BenchmarkSubs(b *testing.B) {
	b.Run("a", func(b *testing.B) {
		d := build()
		b.ResetTimer()
		use(d)
	})
}

func fill(b *testing.B, set bool) {
	b.StopTimer()
	keys := build()
	if set {
		b.StartTimer()
	}
	use(keys)
	b.StartTimer()
}

func BenchmarkTable(b *testing.B) {
	cases := map[string]func() int{
		"a": func() int {
			return run()
		},
	}
	n := func() int {
		return len(cases)
	}()
	b.ResetTimer()
	for _, f := range cases {
		f()
	}
	use(n)
}
`
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := untimedLines(gotest.Package{Dir: dir}, dir)
	var lines []string
	for k := range got {
		lines = append(lines, strings.TrimPrefix(k, "x_test.go:"))
	}
	slices.Sort(lines)
	// 6: setup before ResetTimer; 11: the rebuild with the timer
	// stopped; 19: setup before b.Loop; 27: setup in a sub-benchmark;
	// 35: built with the timer stopped, but what follows a StartTimer
	// under a condition (36–38, 39) may be timed: its samples stay.
	// 44, 48 and 49–51: a table's setup, and a closure called where it
	// is written; 45–47, the closure the loop calls, is timed.
	if want := []string{"11", "19", "27", "35", "44", "48", "49", "50", "51", "6"}; !slices.Equal(lines, want) {
		t.Errorf("untimed lines %v, want %v", lines, want)
	}
}

func TestSubBenchmarks(t *testing.T) {
	dir := t.TempDir()
	src := `package p

import "testing"

func BenchmarkFlat(b *testing.B) {
	for range b.N {
		run(1)
	}
}

func BenchmarkSizes(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run("n", func(b *testing.B) {
			for range b.N {
				run(n)
			}
		})
	}
}

func BenchmarkHelper(b *testing.B) { benchAll(b, []int{1, 2}) }

func benchAll(b *testing.B, ns []int) {
	for _, n := range ns {
		b.Run("n", func(b *testing.B) { run(n) })
	}
}

func run(n int) {}
`
	if err := os.WriteFile(filepath.Join(dir, "p_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := subBenchmarks(gotest.Package{Dir: dir})
	want := map[string]bool{"BenchmarkSizes": true, "BenchmarkHelper": true}
	if !maps.Equal(got, want) {
		t.Errorf("subBenchmarks = %v, want %v", got, want)
	}
}

// TestSetupLines: the statements before a benchmark's loop are its setup,
// whether or not the timer is reset, in a helper that takes the
// *testing.B too; a closure the loop calls is not.
func TestSetupLines(t *testing.T) {
	dir := t.TempDir()
	src := `package x

import "testing"

func BenchmarkWrite(b *testing.B) {
	write(b, b.N)
}

func write(b *testing.B, n int) {
	cache := newCache(n)
	key := func(i int) string {
		return "k"
	}
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			cache.set(key(0))
		}
	})
}

func BenchmarkPlain(b *testing.B) {
	data := build()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		use(data)
	}
}

func helper(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
`
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got := setupLines(gotest.Package{Dir: dir}, dir)
	var lines []string
	for k := range got {
		lines = append(lines, strings.TrimPrefix(k, "x_test.go:"))
	}
	slices.Sort(lines)
	// 10: the cache sized by b.N; 11–13, the closure the loop calls, is
	// not setup; 22–23: a fixture and ReportAllocs; helper takes no
	// *testing.B.
	if want := []string{"10", "22", "23"}; !slices.Equal(lines, want) {
		t.Errorf("setup lines %v, want %v", lines, want)
	}
}
