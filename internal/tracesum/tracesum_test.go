package tracesum

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	rtrace "runtime/trace"
	"sync"
	"testing"
	"time"
)

var sink []byte

// workload runs, each in goroutines of its own, an allocating loop, a
// channel ping-pong of n round trips, a mutex held across a sleep, a
// sleep, and a TCP read that waits for its writer.
func workload(t testing.TB, n int) {
	var wg sync.WaitGroup
	run := func(f func()) {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	run(func() {
		for i := 0; i < 4000; i++ {
			sink = make([]byte, 64<<10)
		}
	})
	run(func() {
		ping, pong := make(chan int), make(chan int)
		go func() {
			for v := range ping {
				pong <- v
			}
			close(pong)
		}()
		for i := 0; i < n; i++ {
			ping <- i
			<-pong
		}
		close(ping)
	})
	var mu sync.Mutex
	locked := make(chan bool)
	run(func() {
		mu.Lock()
		locked <- true
		time.Sleep(20 * time.Millisecond)
		mu.Unlock()
	})
	run(func() {
		<-locked
		mu.Lock()
		mu.Unlock() //nolint:staticcheck // the wait is the point
	})
	run(func() { time.Sleep(20 * time.Millisecond) })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Logf("no loopback network: %v", err)
	} else {
		defer ln.Close()
		// The writer waits until the reader has its connection, so the
		// read blocks for the writer's 20ms however late the reader's
		// goroutine is scheduled on a loaded machine.
		accepted := make(chan bool, 1)
		run(func() {
			c, err := ln.Accept()
			accepted <- err == nil
			if err != nil {
				return
			}
			defer c.Close()
			buf := make([]byte, 1)
			_, _ = c.Read(buf)
		})
		run(func() {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				ln.Close() // so that Accept returns
				<-accepted
				return
			}
			defer c.Close()
			<-accepted
			time.Sleep(20 * time.Millisecond)
			_, _ = c.Write([]byte{1})
		})
	}
	wg.Wait()
}

// gcMetrics reads the runtime's own estimate of the collector's CPU time
// (dedicated and fractional workers, assists, pauses) and its idle
// workers'.
func gcMetrics() (cpu, idle float64) {
	s := []metrics.Sample{
		{Name: "/cpu/classes/gc/mark/dedicated:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/assist:cpu-seconds"},
		{Name: "/cpu/classes/gc/pause:cpu-seconds"},
		{Name: "/cpu/classes/gc/mark/idle:cpu-seconds"},
	}
	metrics.Read(s)
	return s[0].Value.Float64() + s[1].Value.Float64() + s[2].Value.Float64(), s[3].Value.Float64()
}

// traceWorkload traces workload in this process.
func traceWorkload(t testing.TB, n int) []byte {
	var buf bytes.Buffer
	if err := rtrace.Start(&buf); err != nil {
		t.Skipf("cannot trace (is -trace set?): %v", err)
	}
	workload(t, n)
	rtrace.Stop()
	return buf.Bytes()
}

func TestSummarizeInProcess(t *testing.T) {
	const n = 20000
	cpu0, _ := gcMetrics()
	data := traceWorkload(t, n)
	cpu1, _ := gcMetrics()
	s, err := Summarize(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", *s)
	if s.Wall < 20*time.Millisecond {
		t.Errorf("wall %v, want at least the 20ms sleeps", s.Wall)
	}
	if s.GC.Cycles == 0 || s.GC.CPU <= 0 || s.GC.Share <= 0 || s.GC.Share > 1 {
		t.Errorf("GC %+v: want cycles and a share in (0, 1]", s.GC)
	}
	// Two pauses per cycle (sweep and mark termination), give or take a
	// cycle cut by the trace's ends.
	if s.STW.Count < 2*s.GC.Cycles-2 || s.STW.Max > s.STW.Total || s.GC.Pause > s.STW.Total {
		t.Errorf("STW %+v with %d cycles", s.STW, s.GC.Cycles)
	}
	// The union of the Ps busy with the collector holds every pause on
	// every P, and no more than the parts added up.
	procs := time.Duration(s.Peak.GOMAXPROCS)
	if s.GC.CPU < procs*s.GC.Pause || s.GC.CPU > s.GC.Workers+s.GC.Assist+procs*s.GC.Pause+time.Microsecond {
		t.Errorf("GC CPU %v outside [%v×pause, workers+assist+%v×pause] for %+v", s.GC.CPU, procs, procs, s.GC)
	}
	// The runtime's estimate stops a worker's clock before it finishes
	// the cycle (and the OS may deschedule a thread holding a P), so it
	// is lower than what the trace shows the collector holding: logged,
	// not compared.
	t.Logf("GC CPU: trace %v, runtime/metrics %v", s.GC.CPU, time.Duration((cpu1-cpu0)*1e9))
	if c := s.Blocked.Channel; c.Count < n || c.Total <= 0 {
		t.Errorf("channel %+v, want at least %d waits", c, n)
	}
	for name, w := range map[string]Wait{"sync": s.Blocked.Sync, "sleep": s.Blocked.Sleep, "network": s.Blocked.Network} {
		if w.Total < 15*time.Millisecond {
			t.Errorf("%s %+v, want the 20ms wait", name, w)
		}
	}
	l := s.SchedLatency
	if l.Count < n || !(l.P50 <= l.P90 && l.P90 <= l.P99 && l.P99 <= l.Max) || l.Max > s.Wall {
		t.Errorf("scheduler latency %+v", l)
	}
	if p := s.Peak; p.Goroutines < 9 || p.Running < 1 || p.Running > p.GOMAXPROCS || p.Threads < 1 || p.HeapBytes < 64<<10 {
		t.Errorf("peak %+v", p)
	}
}

func TestLatency(t *testing.T) {
	var d []time.Duration
	for i := 100; i >= 1; i-- {
		d = append(d, time.Duration(i))
	}
	l := latency(d)
	if l.Count != 100 || l.P50 != 50 || l.P90 != 90 || l.P99 != 99 || l.Max != 100 || l.Total != 5050 {
		t.Errorf("latency(1..100) = %+v", l)
	}
	if l := latency([]time.Duration{7}); l.P50 != 7 || l.P99 != 7 || l.Max != 7 {
		t.Errorf("latency(7) = %+v", l)
	}
	if l := latency(nil); l != (Latency{}) {
		t.Errorf("latency(nil) = %+v", l)
	}
}

// TestSummarizeTestBinary traces go test -bench on a small module and
// checks that the testing package's own waits, pauses and collections are
// left out: an empty benchmark shows none.
func TestSummarizeTestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/tr\n\ngo 1.24\n")
	write("tr_test.go", `package tr

import "testing"

var sink []byte

func BenchmarkEmpty(b *testing.B) {
	for i := 0; i < b.N; i++ {
	}
}

func BenchmarkChan(b *testing.B) {
	c := make(chan int)
	go func() {
		for range c {
		}
	}()
	for i := 0; i < b.N; i++ {
		c <- i
	}
	close(c)
}

func BenchmarkAlloc(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = make([]byte, 64<<10)
	}
}
`)
	sum := func(bench, n string) *Summary {
		out := filepath.Join(dir, bench+".trace")
		cmd := exec.Command("go", "test", "-run", "^$", "-bench", "^"+bench+"$", "-benchtime", n, "-trace", out)
		cmd.Dir = dir
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go test: %v\n%s", err, b)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		s, err := Summarize(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %+v", bench, *s)
		return s
	}
	e := sum("BenchmarkEmpty", "1000x")
	if e.GC.Cycles != 0 || e.GC.Forced == 0 || e.STW.Count != 0 || e.Blocked.Total() != 0 || e.SchedLatency.Count > 4 {
		t.Errorf("empty benchmark: want the harness's forced GCs and no cycles, pauses or waits, got %+v", *e)
	}
	c := sum("BenchmarkChan", "20000x")
	if c.Blocked.Channel.Count < 20000 || c.Blocked.Total() != c.Blocked.Channel.Total {
		t.Errorf("channel benchmark: want 20000 channel waits and nothing else, got %+v", c.Blocked)
	}
	a := sum("BenchmarkAlloc", "5000x")
	if a.GC.Cycles == 0 || a.GC.Share <= 0 || a.STW.Count == 0 {
		t.Errorf("allocating benchmark: want collections, got %+v", a.GC)
	}
}

func TestSummarizeBadInput(t *testing.T) {
	for _, in := range []string{"", "go 1.26 trace\x00\x00\x00", "not a trace"} {
		if _, err := Summarize(bytes.NewReader([]byte(in))); err == nil {
			t.Errorf("Summarize(%q): no error", in)
		}
	}
}

// FuzzSummarize feeds the parser entry arbitrary bytes, starting from a
// real trace: it must return an error or a summary, never panic.
func FuzzSummarize(f *testing.F) {
	f.Add(traceWorkload(f, 10))
	f.Add([]byte("go 1.26 trace\x00\x00\x00"))
	f.Add([]byte("go 1.22 trace\x00\x00\x00\x01\x02\x03"))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Summarize(bytes.NewReader(b))
		if err == nil && (s.GC.Share < 0 || s.GC.Share > 1 || s.Wall < 0) {
			t.Errorf("summary out of range: %+v", *s)
		}
	})
}
