package unflushed

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"
)

var data = bytes.Repeat([]byte("0123456789"), 100)

func BenchmarkCompress(b *testing.B) {
	var w bytes.Buffer
	zw := NewWriter(&w)
	r := bytes.NewReader(data)
	for i := 0; i < b.N; i++ {
		r.Reset(data)
		zw.Reset(&w)
		_, _ = io.Copy(zw, r) // want `BenchmarkCompress: zw is written in the loop \(io.Copy\(zw, r\)\) but never closed or flushed there`
	}
}

func BenchmarkCompressClosed(b *testing.B) {
	var w bytes.Buffer
	zw := NewWriter(&w)
	for b.Loop() {
		w.Reset()
		zw.Reset(&w)
		_, _ = zw.Write(data)
		_ = zw.Close()
	}
}

func BenchmarkBuffered(b *testing.B) {
	bw := bufio.NewWriter(io.Discard)
	for b.Loop() {
		bw.WriteString("x") // want `BenchmarkBuffered: bw is written in the loop \(bw.WriteString\("x"\)\) but never closed or flushed there`
	}
}

func BenchmarkBufferedFlushed(b *testing.B) {
	bw := bufio.NewWriter(io.Discard)
	for b.Loop() {
		bw.WriteString("x")
		bw.Flush()
	}
}

// A file and a bytes.Buffer write through: nothing held back.
func BenchmarkFile(b *testing.B) {
	var buf bytes.Buffer
	f, _ := os.CreateTemp(b.TempDir(), "x")
	for b.Loop() {
		f.Write(data)
		buf.Write(data)
	}
	f.Close()
}

func benchmarkCompress(b *testing.B, uncompressed []byte) {
	w := bytes.NewBuffer(nil)
	zw := NewWriter(w)
	r := bytes.NewReader(uncompressed)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r.Reset(uncompressed)
		zw.Reset(w)
		_, _ = io.Copy(zw, r) // want `BenchmarkCompressHelper: zw is written in the loop`
	}
}

func BenchmarkCompressHelper(b *testing.B) { benchmarkCompress(b, data) }

func BenchmarkSizes(b *testing.B) {
	b.Run("small", func(b *testing.B) {
		var w bytes.Buffer
		zw := NewWriter(&w)
		for b.Loop() {
			zw.Reset(&w)
			zw.Write(data[:10]) // want `BenchmarkSizes/small: zw is written in the loop \(zw.Write\(data\[:10\]\)\) but never closed or flushed there`
		}
	})
}
