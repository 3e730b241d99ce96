package profiles

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds arbitrary bytes to the path a profile written by a
// benchmark takes: Parse, then both analyses. Nothing may panic, and a
// profile that parses must give results that are consistent.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.pprof"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		// Uncompressed too, so the fuzzer mutates the protobuf itself
		// rather than the gzip stream.
		if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
			var raw bytes.Buffer
			if _, err := raw.ReadFrom(zr); err == nil {
				f.Add(raw.Bytes())
			}
		}
	}
	f.Add([]byte{})
	f.Add([]byte("--- contention:\ncycles/second=1\n"))
	f.Add([]byte{0x1f, 0x8b, 0x08})
	opts := Options{ModuleDir: "/m", ModulePath: "example.com/planted", Benchmark: "BenchmarkCount"}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			return
		}
		nonNegative := true
		for _, s := range p.Sample {
			for _, v := range s.Value {
				nonNegative = nonNegative && v >= 0
			}
		}
		if cpu, err := AnalyzeCPU(p, opts); err == nil && nonNegative {
			for _, fn := range cpu.Functions {
				if fn.Flat < 0 || fn.Flat > fn.Cum || fn.Cum > cpu.Total {
					t.Errorf("%s: flat %d cum %d total %d", fn.Name, fn.Flat, fn.Cum, cpu.Total)
				}
			}
			if cpu.Path.Share > 1 {
				t.Errorf("path share %v", cpu.Path.Share)
			}
		}
		if heap, err := AnalyzeHeap(p, opts); err == nil && nonNegative {
			if heap.TestBytes > heap.Bytes || heap.TestShare > 1 {
				t.Errorf("test bytes %d of %d", heap.TestBytes, heap.Bytes)
			}
		}
	})
}
