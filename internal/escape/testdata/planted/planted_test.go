package planted

import (
	"bytes"
	"strconv"
	"testing"
)

func BenchmarkWriteFrame(b *testing.B) {
	var buf bytes.Buffer
	p := make([]byte, 64)
	for b.Loop() {
		buf.Reset()
		_ = WriteFrame(&buf, p)
	}
}

func BenchmarkJoin(b *testing.B) {
	parts := make([]string, 0, 8)
	for i := range 8 {
		parts = append(parts, strconv.Itoa(i))
	}
	for b.Loop() {
		_ = Join(parts)
	}
}
