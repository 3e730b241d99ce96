package fileperop

import (
	"io"
	"os"
	"testing"
)

func BenchmarkLargeFile(b *testing.B) {
	for n := 0; n < b.N; n++ {
		file, _ := os.Open("/tmp/large-file.json") // want `BenchmarkLargeFile calls os.Open\("/tmp/large-file.json"\) in its loop`
		io.Copy(io.Discard, file)
		file.Close()
	}
}

// Read once, before the loop: nothing to say.
func BenchmarkOnce(b *testing.B) {
	data, _ := os.ReadFile("testdata/x.json")
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		_ = len(data)
	}
}
