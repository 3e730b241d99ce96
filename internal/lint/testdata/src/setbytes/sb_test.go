package setbytes

import (
	"bytes"
	"strings"
	"testing"
)

var sink uint32

func BenchmarkNoSetBytes(b *testing.B) {
	buf := make([]byte, 64<<10) // want `BenchmarkNoSetBytes: a 64 KiB buffer is processed with no b.SetBytes`
	for i := range buf {
		buf[i] = byte(i)
	}
	for b.Loop() {
		sink = Checksum(buf)
	}
}

func BenchmarkSetBytes(b *testing.B) {
	buf := make([]byte, 64<<10)
	b.SetBytes(int64(len(buf)))
	for b.Loop() {
		sink = Checksum(buf)
	}
}

func BenchmarkSmall(b *testing.B) {
	buf := make([]byte, 16)
	for b.Loop() {
		sink = Checksum(buf)
	}
}

func BenchmarkRepeat(b *testing.B) {
	buf := bytes.Repeat([]byte("ab"), 32<<10) // want `BenchmarkRepeat: a 64 KiB buffer is processed with no b.SetBytes`
	for i := 0; i < b.N; i++ {
		sink = Checksum(buf)
	}
}

func BenchmarkStringRepeat(b *testing.B) {
	buf := []byte(strings.Repeat("x", 4096)) // want `a 4 KiB buffer is processed`
	for b.Loop() {
		sink = Checksum(buf)
	}
}

func BenchmarkArray(b *testing.B) {
	var buf [8192]byte // want `an? 8 KiB buffer is processed`
	for b.Loop() {
		sink = Checksum(buf[:])
	}
}
