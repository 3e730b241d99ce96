package escape

import (
	"bytes"
	"os"
	"testing"
)

// BenchmarkReader measures reading -m=2 output; allocs/op over the input's
// lines is the reader's cost per line (about one string each).
func BenchmarkReader(b *testing.B) {
	data, err := os.ReadFile("testdata/planted.go1.26.listtest.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.Count(data, []byte("\n"))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	r := NewReader(bytes.NewReader(data), "in")
	n := 0
	for b.Loop() {
		r.Reset(bytes.NewReader(data), "in")
		for r.Scan() {
			n++
		}
	}
	b.ReportMetric(float64(lines), "lines/op")
	_ = n
}

// BenchmarkExplain measures joining and explaining one site against an
// index with its source parsed (the cached case).
func BenchmarkExplain(b *testing.B) {
	e := NewExplainer(captured(b, "planted.go1.26.build.txt"), os.DirFS("testdata/planted"))
	site := Site{File: "planted.go", Line: 97, CallerFile: "planted.go", CallerLine: 102}
	e.Explain(site)
	b.ReportAllocs()
	for b.Loop() {
		e.Explain(site)
	}
}
