package benchshapes

import (
	"io"
	"os"
	"testing"
)

func BenchmarkLargeFile(b *testing.B) {
	for n := 0; n < b.N; n++ {
		f, _ := os.Open("testdata/x.json")
		data, _ := io.ReadAll(f)
		f.Close()
		Parse(data)
	}
}
