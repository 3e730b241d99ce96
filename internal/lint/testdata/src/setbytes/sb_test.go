package setbytes

import "testing"

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
