package render

import (
	"bytes"
	"testing"

	"github.com/perfloop/perfloop/internal/document"
)

// traceBench is a summary as perfloop trace gives it for an allocating
// benchmark (figures from a real trace of 5000 iterations of a 64 KiB
// allocation on two Ps).
func traceBench(scale float64) document.TraceBenchmark {
	return document.TraceBenchmark{
		Package: "example.com/tr", Name: "BenchmarkAlloc", Status: "ok", Iterations: 5000,
		TraceBytes: 912345, Events: 199801, WallSeconds: 0.077026625 * scale, NsPerOp: 9876 * scale,
		GC: &document.TraceGC{Cycles: int(12 * scale), Forced: 3, CPUSeconds: 0.035716032 * scale, CPUShare: 0.23205999 * scale,
			WorkerSeconds: 0.020911744 * scale, IdleWorkerSeconds: 0.007298048, AssistSeconds: 0.006408512 * scale, PauseSeconds: 0.004197888 * scale},
		STW: &document.TraceSTW{Count: 24, TotalSeconds: 0.004197888 * scale, MaxSeconds: 0.001268416, Reasons: []document.TraceSTWReason{
			{Reason: "GC sweep termination", Count: 12, TotalSeconds: 0.003977344, MaxSeconds: 0.001268416},
			{Reason: "GC mark termination", Count: 12, TotalSeconds: 0.000220544, MaxSeconds: 0.000089664},
		}},
		SchedLatency: &document.TraceSchedLatency{Count: 35, TotalSeconds: 0.0013072, P50Seconds: 0.00001568 * scale,
			P90Seconds: 0.000080704, P99Seconds: 0.000206144, MaxSeconds: 0.000206144},
		Blocked: &document.TraceBlocked{GC: document.TraceWait{Count: 14, Seconds: 0.002697792 * scale},
			Other: document.TraceWait{Count: 7, Seconds: 0.00005248}, TotalSeconds: 0.002697792*scale + 0.00005248},
		Peak: &document.TracePeak{Goroutines: 10, Running: 2, Syscalls: 1, Threads: 5, GOMAXPROCS: 2, HeapBytes: 191482872},
	}
}

func traceDoc() *document.Trace {
	ch := document.TraceBenchmark{
		Package: "example.com/tr", Name: "BenchmarkChan", Status: "ok", Iterations: 20000, Trace: "traces/BenchmarkChan.trace",
		Events: 123092, WallSeconds: 0.018214273, NsPerOp: 255,
		GC:  &document.TraceGC{Forced: 3},
		STW: &document.TraceSTW{Reasons: []document.TraceSTWReason{}},
		SchedLatency: &document.TraceSchedLatency{Count: 20006, TotalSeconds: 0.005242432, P50Seconds: 192e-9,
			P90Seconds: 256e-9, P99Seconds: 320e-9, MaxSeconds: 0.000108288},
		Blocked: &document.TraceBlocked{Channel: document.TraceWait{Count: 20002, Seconds: 0.005105728}, TotalSeconds: 0.005105728},
		Peak:    &document.TracePeak{Goroutines: 10, Running: 2, Syscalls: 1, Threads: 5, GOMAXPROCS: 2, HeapBytes: 2990080},
	}
	return &document.Trace{
		Schema: document.TraceSchema, Module: "example.com/tr", GoVersion: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		Benchmarks: []document.TraceBenchmark{traceBench(1), ch,
			{Package: "example.com/tr", Name: "BenchmarkPanic", Status: "failed", Iterations: 0, Error: "panic: boom (tr_test.go:40)"}},
		Failures: []string{"example.com/tr BenchmarkPanic: panic: boom (tr_test.go:40)"},
	}
}

func TestTraceText(t *testing.T) {
	var buf bytes.Buffer
	if err := TraceText(&buf, traceDoc()); err != nil {
		t.Fatal(err)
	}
	golden(t, "trace.text", buf.Bytes())
}

func TestTraceJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, traceDoc()); err != nil {
		t.Fatal(err)
	}
	golden(t, "trace.json", buf.Bytes())
}

func TestTraceCompareText(t *testing.T) {
	d := traceDoc()
	d.Revision = "work tree"
	d.Benchmarks = []document.TraceBenchmark{traceBench(0.5), d.Benchmarks[1]}
	d.Base = &document.TraceSide{Revision: "main 1ae5dc26f40b", Commit: "1ae5dc26f40b9d0c", Benchmarks: []document.TraceBenchmark{traceBench(1), d.Benchmarks[1],
		{Package: "example.com/tr", Name: "BenchmarkGone", Status: "ok"}}}
	var buf bytes.Buffer
	if err := TraceText(&buf, d); err != nil {
		t.Fatal(err)
	}
	golden(t, "trace.compare.text", buf.Bytes())
}

func TestSecs(t *testing.T) {
	for _, c := range []struct {
		in   float64
		want string
	}{
		{0, "0"}, {192e-9, "192ns"}, {1.5e-6, "1.5µs"}, {0.00001568, "15.7µs"}, {0.000206144, "206µs"},
		{0.0012684, "1.27ms"}, {0.077026625, "77ms"}, {1.23456, "1.23s"}, {12.345, "12.3s"}, {125.4, "2m5s"},
	} {
		if got := secs(c.in); got != c.want {
			t.Errorf("secs(%g) = %q, want %q", c.in, got, c.want)
		}
	}
}
