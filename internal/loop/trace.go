package loop

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/tracesum"
)

// TraceOptions says how perfloop trace runs each benchmark.
type TraceOptions struct {
	// TraceTime is how much of the benchmark's work one trace covers: a
	// duration, turned into a fixed iteration count per benchmark from
	// a short first run (see calibrateTrace), or "Nx" for N iterations of
	// every benchmark. "" means 1s.
	TraceTime string
	// Iterations, if not nil, fixes the iteration count of the
	// benchmarks it names instead of calibrating them: the second side of
	// a comparison runs what the first ran.
	Iterations map[document.BenchKey]int64
	// CPU and Timeout are as in Config.
	CPU     string
	Timeout time.Duration
	// Keep, if set, is the directory where the traces are kept as
	// NAME.trace (NAME as perfloop profile names its profiles).
	Keep string
}

// Trace traces every benchmark of the suite (see the package-level
// Trace).
func (s *Suite) Trace(ctx context.Context, opts TraceOptions, bar *progress.Bar, each func(*document.TraceBenchmark) error) (*document.Trace, error) {
	if opts.CPU == "" {
		opts.CPU = s.Config.CPU
	}
	if opts.Timeout == 0 {
		opts.Timeout = s.Config.Timeout
	}
	doc, err := Trace(ctx, s.Suite, opts, bar, each)
	if doc != nil {
		doc.Module, doc.GoVersion, doc.Commit, doc.Date = s.Env.Module, s.Env.GoVersion, s.Env.Commit, s.Env.Date
	}
	return doc, err
}

// Trace runs each benchmark of suite once under the execution tracer
// (-test.trace), for a fixed iteration count, and summarizes the trace
// with tracesum. A benchmark that fails, or whose trace cannot be read,
// is recorded with its error and the others are still traced. each, if
// not nil, is called with every benchmark as it finishes. On cancellation
// it returns what finished with ctx's error.
func Trace(ctx context.Context, suite *gotest.Suite, opts TraceOptions, bar *progress.Bar, each func(*document.TraceBenchmark) error) (*document.Trace, error) {
	defer bar.Done()
	doc := &document.Trace{Schema: document.TraceSchema, Benchmarks: []document.TraceBenchmark{}}
	for _, pe := range suite.Failed {
		doc.Failures = append(doc.Failures, fmt.Sprintf("%s: %v", pe.Package, pe.Err))
	}
	scratch, err := filepath.Abs(filepath.Join(suite.Dir(), "traces"))
	if err == nil {
		err = os.MkdirAll(scratch, 0o755)
	}
	if err != nil {
		return doc, fmt.Errorf("create trace directory: %w", err)
	}
	if opts.Keep != "" {
		if err := os.MkdirAll(opts.Keep, 0o755); err != nil {
			return doc, fmt.Errorf("create trace directory %s: %w", opts.Keep, err)
		}
	}
	names := ProfileNames(suite.Targets)
	bar.Start(len(suite.Targets), "")
	for i, t := range suite.Targets {
		bar.Describe(t.Name)
		tb, env, err := traceOne(ctx, suite, t, names[i], scratch, opts)
		if err != nil {
			return doc, err
		}
		if doc.GOOS == "" && env != nil {
			doc.GOOS, doc.GOARCH, doc.CPU = env.GOOS, env.GOARCH, env.CPU
		}
		if tb.Status != string(results.StatusOK) && tb.Status != string(results.StatusSkipped) {
			doc.Failures = append(doc.Failures, fmt.Sprintf("%s %s: %s", tb.Package, tb.Name, tb.Error))
			bar.Printf("%s %s: %s", tb.Package, tb.Name, tb.Error)
		}
		doc.Benchmarks = append(doc.Benchmarks, *tb)
		if each != nil {
			if err := each(tb); err != nil {
				return doc, err
			}
		}
		bar.Step("")
	}
	return doc, nil
}

// traceOne calibrates, traces and summarizes one benchmark. It returns an
// error only on cancellation, when the binary cannot be started or when
// the trace cannot be kept; a failure of the benchmark or of its trace is
// in the result.
func traceOne(ctx context.Context, suite *gotest.Suite, t gotest.Target, name, scratch string, opts TraceOptions) (*document.TraceBenchmark, *results.Env, error) {
	pkg := t.Binary.Package.ImportPath
	tb := &document.TraceBenchmark{Package: pkg, Name: t.Name, Status: string(results.StatusOK)}
	cfg := gotest.RunConfig{Name: t.Name, Sub: suite.Sub, CPU: opts.CPU, Timeout: opts.Timeout}
	fail := func(o *gotest.Outcome, what string) (*document.TraceBenchmark, *results.Env, error) {
		tb.Status, tb.Error = string(o.Status), what+o.Error
		return tb, nil, nil
	}
	if opts.Keep != "" {
		// No stale trace from an earlier run beside this run's error.
		if err := os.Remove(filepath.Join(opts.Keep, name+".trace")); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("keep trace: %w", err)
		}
	}
	n, ok := opts.Iterations[document.BenchKey{Package: pkg, Name: t.Name}]
	calibrated := !ok && !strings.HasSuffix(opts.TraceTime, "x")
	if !ok {
		var o *gotest.Outcome
		var err error
		if n, o, err = calibrateTrace(ctx, t, cfg, opts.TraceTime); err != nil {
			return nil, nil, err
		}
		if o != nil && o.Status != results.StatusOK {
			return fail(o, "")
		}
	}
	path := filepath.Join(scratch, name+".trace")
	cfg.Args = []string{"-test.trace=" + path}
	var env results.Env
	for retraced := !calibrated; ; retraced = true {
		tb.Iterations, tb.NsPerOp = n, 0
		cfg.Benchtime = strconv.FormatInt(n, 10) + "x"
		o, err := t.Binary.Run(ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
		if o.Status != results.StatusOK {
			return fail(o, "")
		}
		noteEnv(&env, o)
		for _, r := range o.Results {
			if v, ok := r.Value("sec/op"); ok {
				tb.NsPerOp += v * 1e9
			}
		}
		m, short := shortTrace(n, tb.NsPerOp/1e9, opts.TraceTime)
		if retraced || !short {
			break
		}
		n = m
	}
	if opts.Keep != "" {
		tb.Trace = filepath.Join(opts.Keep, name+".trace")
		if err := copyFile(path, tb.Trace); err != nil {
			return nil, nil, fmt.Errorf("keep trace: %w", err)
		}
	}
	sum, err := summarizeFile(path)
	if err != nil {
		tb.Status, tb.Error = string(results.StatusFailed), err.Error()
		return tb, &env, nil
	}
	if st, err := os.Stat(path); err == nil {
		tb.TraceBytes = st.Size()
	}
	fillTrace(tb, sum)
	_ = os.Remove(path) // traces are large; the next benchmark's may be too
	return tb, &env, nil
}

func summarizeFile(path string) (*tracesum.Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("no trace written: %w", err)
	}
	defer f.Close()
	return tracesum.Summarize(f)
}

// calibrateTrace returns the iteration count that makes one traced run
// cover about traceTime of the benchmark's work (all its sub-benchmarks
// and -cpu values: the process runs each of them N times). A traceTime
// of "Nx" is N; otherwise one untraced run of traceTime/10 (between 10ms
// and 100ms) gives the time per iteration, summed over the run's result
// lines, and N = traceTime / that, at least 1. The tracer slows a
// goroutine-heavy benchmark down, so a trace can take longer than
// traceTime. A failed calibration run is returned as the outcome.
func calibrateTrace(ctx context.Context, t gotest.Target, cfg gotest.RunConfig, traceTime string) (int64, *gotest.Outcome, error) {
	if traceTime == "" {
		traceTime = "1s"
	}
	if n, ok := strings.CutSuffix(traceTime, "x"); ok {
		v, err := strconv.ParseInt(n, 10, 64)
		if err != nil || v < 1 {
			return 0, nil, fmt.Errorf("trace time %q: want a duration or Nx", traceTime)
		}
		return v, nil, nil
	}
	d, err := time.ParseDuration(traceTime)
	if err != nil || d <= 0 {
		return 0, nil, fmt.Errorf("trace time %q: want a duration or Nx", traceTime)
	}
	cfg.Benchtime = min(max(d/10, 10*time.Millisecond), 100*time.Millisecond).String()
	o, err := t.Binary.Run(ctx, cfg)
	if err != nil || o.Status != results.StatusOK {
		return 0, o, err
	}
	var perOp float64
	for _, r := range o.Results {
		if v, ok := r.Value("sec/op"); ok {
			perOp += v
		}
	}
	if perOp <= 0 {
		return 1, o, nil
	}
	return int64(max(1, min(math.Round(d.Seconds()/perOp), 1e12))), o, nil
}

// shortTrace reports whether a traced run of n iterations at perOp
// seconds each covered under a quarter of traceTime, and the count that
// would cover it. The calibration run is one short run: a stall of the
// machine during it (a loaded CI runner) makes its time per iteration
// many times too long and the trace a few iterations, too short to show
// a collection. The traced run's own time per iteration, tracer included,
// errs the other way, towards a trace a little shorter than asked.
func shortTrace(n int64, perOp float64, traceTime string) (int64, bool) {
	if traceTime == "" {
		traceTime = "1s"
	}
	d, err := time.ParseDuration(traceTime)
	if err != nil || d <= 0 || perOp <= 0 || float64(n)*perOp >= d.Seconds()/4 {
		return n, false
	}
	m := int64(min(math.Round(d.Seconds()/perOp), 1e12))
	return m, m > n
}

// fillTrace puts a summary into the document's units (seconds).
func fillTrace(tb *document.TraceBenchmark, s *tracesum.Summary) {
	sec := func(d time.Duration) float64 { return d.Seconds() }
	tb.Events, tb.WallSeconds = s.Events, sec(s.Wall)
	g := s.GC
	tb.GC = &document.TraceGC{Cycles: g.Cycles, Forced: g.Forced, CPUSeconds: sec(g.CPU), CPUShare: g.Share,
		WorkerSeconds: sec(g.Workers), IdleWorkerSeconds: sec(g.IdleWorkers), AssistSeconds: sec(g.Assist), PauseSeconds: sec(g.Pause)}
	tb.STW = &document.TraceSTW{Count: s.STW.Count, TotalSeconds: sec(s.STW.Total), MaxSeconds: sec(s.STW.Max), Reasons: []document.TraceSTWReason{}}
	for _, r := range s.STW.Reasons {
		tb.STW.Reasons = append(tb.STW.Reasons, document.TraceSTWReason{Reason: r.Reason, Count: r.Count, TotalSeconds: sec(r.Total), MaxSeconds: sec(r.Max)})
	}
	l := s.SchedLatency
	tb.SchedLatency = &document.TraceSchedLatency{Count: l.Count, TotalSeconds: sec(l.Total), P50Seconds: sec(l.P50),
		P90Seconds: sec(l.P90), P99Seconds: sec(l.P99), MaxSeconds: sec(l.Max)}
	w := func(w tracesum.Wait) document.TraceWait {
		return document.TraceWait{Count: w.Count, Seconds: sec(w.Total)}
	}
	b := s.Blocked
	tb.Blocked = &document.TraceBlocked{Channel: w(b.Channel), Sync: w(b.Sync), Syscall: w(b.Syscall), Network: w(b.Network),
		GC: w(b.GC), Sleep: w(b.Sleep), Other: w(b.Other), TotalSeconds: sec(b.Total())}
	p := s.Peak
	tb.Peak = &document.TracePeak{Goroutines: p.Goroutines, Running: p.Running, Syscalls: p.Syscalls, Threads: p.Threads,
		GOMAXPROCS: p.GOMAXPROCS, HeapBytes: p.HeapBytes}
}
