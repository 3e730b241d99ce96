package stats

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/perfloop/perfloop/internal/results"
)

// FuzzCompare runs the whole compare path, reading and comparing two
// arbitrary result files: malformed input must produce errors, never a
// panic.
func FuzzCompare(f *testing.F) {
	old, _ := os.ReadFile("testdata/old.txt")
	new, _ := os.ReadFile("testdata/new.txt")
	f.Add(old, new)
	f.Add([]byte("BenchmarkA 1 1 ns/op\nBenchmarkA 1 1 ns/op\n"), []byte("BenchmarkA 1 0 ns/op\nBenchmarkB 1 NaN ns/op\n"))
	f.Add([]byte("Unit x/op assume=exact\nBenchmarkA 1 1 x/op\n"), []byte("BenchmarkA 1 2 x/op\nBenchmarkA 1 3 x/op\n"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, a, b []byte) {
		pa, pb := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
		if err := os.WriteFile(pa, a, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(pb, b, 0o644); err != nil {
			t.Fatal(err)
		}
		file, err := results.Read([]string{pa, pb})
		if err != nil {
			t.Fatal(err)
		}
		tables, err := Compare(file.Results, file.Units, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range tables {
			for _, r := range tb.Rows {
				for _, c := range r.Cells {
					if c != nil && (c.Q < 0 || c.Q > 1) {
						t.Errorf("q = %g out of [0,1]", c.Q)
					}
				}
			}
		}
	})
}
