package gotest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/results"
)

// Binary is a built test binary of one package.
type Binary struct {
	Package Package
	Path    string
	Env     []string // extra environment for every run
}

// Benchmarks lists the top-level benchmarks of the binary whose names match
// the regular expression top (the first element of a -bench pattern; see
// SplitPattern).
func (b *Binary) Benchmarks(ctx context.Context, top string) ([]string, error) {
	cmd := b.command(ctx, "-test.list", top)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("list benchmarks of %s: %w: %s", b.Package.ImportPath, err,
			firstLines(strings.TrimSpace(stderr.String()), 3))
	}
	var names []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimSpace(line)
		if isBenchmarkName(line) {
			names = append(names, line)
		}
	}
	return names, nil
}

// isBenchmarkName reports whether name is a benchmark function's name as the
// testing package defines it: "Benchmark" followed by nothing or by a
// character that is not a lower-case letter.
func isBenchmarkName(name string) bool {
	rest, ok := strings.CutPrefix(name, "Benchmark")
	if !ok {
		return false
	}
	return rest == "" || !(rest[0] >= 'a' && rest[0] <= 'z')
}

func (b *Binary) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, b.Path, args...)
	// go test runs a package's tests in the package directory; so do we,
	// so that testdata/ paths work.
	cmd.Dir = b.Package.Dir
	cmd.Env = append(os.Environ(), b.Env...)
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// RunConfig says how to run one benchmark once.
type RunConfig struct {
	// Name is the top-level benchmark to run ("BenchmarkEncode").
	Name string
	// Sub is the rest of the user's -bench pattern after the top level
	// ("size=10$" from "Encode/size=10$"), or "".
	Sub       string
	Benchtime string // -test.benchtime, "" for the default
	CPU       string // -test.cpu, "" for the default
	// Count is -test.count: how many times the benchmark runs in the
	// process, one after another (0 is once).
	Count int
	// Timeout bounds the run: at the timeout the binary gets SIGQUIT (so
	// the Go runtime prints the benchmark's stack) and is killed shortly
	// after if it has not exited. Zero means no limit.
	Timeout time.Duration
	// Args are further test binary flags (-test.cpuprofile=…).
	Args []string
	// Pin, if not empty, runs the binary on these CPUs only (Linux; see
	// QuietCPU). The Go runtime then sets GOMAXPROCS to len(Pin).
	Pin []int
}

// Outcome is what one run of one benchmark produced.
type Outcome struct {
	Results []*benchfmt.Result
	Status  results.Status
	// Error explains a failure in one line: "panic: … (x_test.go:79)".
	Error   string
	Elapsed time.Duration
	// Stdout and Stderr are the binary's output, bounded: the first and
	// the last OutputLimit bytes of each stream. When a second,
	// diagnostic run was needed to learn why the benchmark died (see
	// Run), Stderr is that run's.
	Stdout, Stderr []byte
}

// Write writes the outcome of b's run to w: its results, and a failure
// line when it failed (a skip is no failure).
func (o *Outcome) Write(w *results.Writer, b *results.Benchmark) error {
	for _, r := range o.Results {
		if err := w.Result(r); err != nil {
			return fmt.Errorf("write results: %w", err)
		}
	}
	if o.Status != results.StatusOK && o.Status != results.StatusSkipped {
		return w.Failure(b)
	}
	return nil
}

// Run runs one benchmark once in its own process and returns what it
// produced. It returns an error only when the run was cancelled or the
// binary could not be started; every failure of the benchmark itself is
// described in the Outcome. A cancelled run's Outcome holds the results
// printed before the cancellation.
//
// Only the testing package's lines for the benchmark being run count as
// results (see stdoutScanner); whatever else the benchmark prints is kept
// in the Outcome, bounded, to explain a failure.
//
// A benchmark that panics can lose its panic message: the testing package
// prints the benchmark's zero-iteration line and exits 0 while the
// panicking goroutine has not yet printed the panic (os.Exit does not wait
// for it), which happens on a loaded machine. The run is then a failure
// all the same, and Run runs the benchmark once more with GOMAXPROCS=1 to
// report the message and the benchmark's frame: there the goroutine that
// the testing package would exit from cannot run while the panicking one
// holds the only P, unless the scheduler preempts it in that short window
// (0 of 600 such runs lost the message on a loaded machine, against 5 of
// 300 with two Ps). If the message is still missing, the error says so.
func (b *Binary) Run(ctx context.Context, cfg RunConfig) (*Outcome, error) {
	r, err := b.runOnce(ctx, cfg, nil)
	o := &Outcome{Elapsed: r.elapsed, Stdout: r.stdout.Bytes(), Stderr: r.stderr.Bytes(), Status: results.StatusOK}
	o.Results = r.scan.results
	if err != nil {
		// Cancelled: the result lines printed before are complete
		// measurements (a sub-benchmark family's, or an earlier
		// -test.count round's).
		return o, err
	}
	crash := r.crash.section()
	if r.scan.zeroIters && !r.killed && panicMessage(crash) == "" {
		again := cfg
		again.CPU, again.Args = "", nil
		r2, err := b.runOnce(ctx, again, []string{"GOMAXPROCS=1"})
		if err != nil {
			return o, err
		}
		if c := r2.crash.section(); panicMessage(c) != "" {
			crash, o.Stderr = c, r2.stderr.Bytes()
		}
	}
	b.classify(o, cfg, r, crash)
	if o.Status == results.StatusFailed && len(o.Results) == 0 && r.err == nil && !r.killed && r.scan.summary != "" && len(r.scan.failLines) == 0 {
		// Passed with no results: without -test.v the testing package
		// does not say that a benchmark skipped. Ask it once.
		again := cfg
		again.Args = append(slices.Clone(cfg.Args), "-test.v=true")
		r2, err := b.runOnce(ctx, again, nil)
		if err != nil {
			return o, err
		}
		if len(r2.scan.results) == 0 {
			if why, ok := skipReason(r2.stdout.Bytes()); ok {
				o.Status, o.Error = results.StatusSkipped, why
			}
		}
	}
	return o, nil
}

// run is one process's output and end.
type run struct {
	scan           *stdoutScanner
	stdout, stderr *capture
	crash          *crashWriter
	err            error // from cmd.Wait
	killed         bool  // stopped at cfg.Timeout
	elapsed        time.Duration
}

// runOnce runs the benchmark once with env added to the environment. Its
// error is the context's, or a failure to start the binary.
func (b *Binary) runOnce(ctx context.Context, cfg RunConfig, env []string) (*run, error) {
	pattern := "^" + regexp.QuoteMeta(cfg.Name) + "$"
	if cfg.Sub != "" {
		pattern += "/" + cfg.Sub
	}
	// -test.paniconexit0 is what go test passes: a benchmark that calls
	// os.Exit(0) panics and so is named with its frame.
	args := []string{"-test.run=^$", "-test.bench=" + pattern, "-test.count=" + strconv.Itoa(max(cfg.Count, 1)), "-test.benchmem", "-test.paniconexit0"}
	if cfg.Benchtime != "" {
		args = append(args, "-test.benchtime="+cfg.Benchtime)
	}
	if cfg.CPU != "" {
		args = append(args, "-test.cpu="+cfg.CPU)
	}
	args = append(args, cfg.Args...)

	cmd := b.command(ctx, args...)
	cmd.Env = append(cmd.Env, env...)
	r := &run{
		scan:   newStdoutScanner(cfg.Name, b.Package.ImportPath+" "+cfg.Name),
		stdout: newCapture(OutputLimit),
		stderr: newCapture(OutputLimit),
		crash:  newCrashWriter(OutputLimit),
	}
	cmd.Stdout = io.MultiWriter(r.scan, r.stdout)
	cmd.Stderr = io.MultiWriter(r.crash, r.stderr)
	start := time.Now()
	startErr := error(nil)
	if len(cfg.Pin) > 0 {
		startErr = startOn(cmd, cfg.Pin)
	} else {
		startErr = cmd.Start()
	}
	if err := startErr; err != nil {
		return r, fmt.Errorf("start %s: %w", b.Path, err)
	}
	// The testing package's -test.timeout does not cover benchmarks, so
	// the timeout is ours: SIGQUIT first, which makes the Go runtime print
	// every goroutine (the benchmark's frame among them) and exit; a kill
	// if it has not exited after a grace period.
	var timedOut atomic.Bool
	if cfg.Timeout > 0 {
		timer := time.AfterFunc(cfg.Timeout, func() {
			timedOut.Store(true)
			if err := cmd.Process.Signal(syscall.SIGQUIT); err != nil {
				_ = cmd.Process.Kill()
				return
			}
			time.AfterFunc(killGrace, func() { _ = cmd.Process.Kill() })
		})
		defer timer.Stop()
	}
	r.err = cmd.Wait()
	r.elapsed = time.Since(start)
	// Wait has copied all output (or given up after WaitDelay): the last
	// partial lines are complete now.
	r.scan.finish()
	r.crash.flush()
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	r.killed = timedOut.Load()
	return r, nil
}

// killGrace is how long a timed-out binary has to print its goroutines and
// exit before it is killed.
const killGrace = 5 * time.Second

// classify sets o's status and error from the process's end, the testing
// package's lines on stdout and the crash report on stderr.
func (b *Binary) classify(o *Outcome, cfg RunConfig, r *run, crash []byte) {
	frame := b.benchmarkFrame(crash, cfg.Name)
	where := ""
	if frame != "" {
		where = " (" + frame + ")"
	}
	scan := r.scan
	// A run that exited 0 after the testing package's PASS succeeded,
	// whatever the benchmark itself wrote to stderr.
	passed := r.err == nil && scan.summary == "PASS"
	switch msg := panicMessage(crash); {
	case r.killed:
		o.Status = results.StatusTimeout
		o.Error = fmt.Sprintf("timed out after %v (-timeout)%s", cfg.Timeout, where)
	case msg == "panic: "+exit0Panic:
		o.Status = results.StatusFailed
		o.Error = "the benchmark called os.Exit(0)" + where
	case msg != "" && (!passed || scan.zeroIters):
		o.Status = results.StatusFailed
		o.Error = msg + where
	case scan.zeroIters:
		o.Status = results.StatusFailed
		o.Error = "the benchmark function did not return: it panicked or called runtime.Goexit, and the process exited before printing why"
	case len(scan.failLines) > 0 && !passed:
		o.Status = results.StatusFailed
		o.Error = scan.failMessage()
	case r.err != nil:
		o.Status = results.StatusFailed
		var ee *exec.ExitError
		if errors.As(r.err, &ee) {
			o.Error = fmt.Sprintf("exit status %d", ee.ExitCode())
		} else {
			o.Error = r.err.Error()
		}
		if tail := lastLines(o.Stderr, 2); tail != "" {
			o.Error += ": " + tail
		}
	case scan.summary == "":
		o.Status = results.StatusFailed
		o.Error = "the benchmark or TestMain called os.Exit (the process ended without the testing package's summary)"
	case len(o.Results) == 0 && len(scan.skipLines) > 0:
		o.Status = results.StatusSkipped
		o.Error = scan.skipMessage()
	case len(o.Results) == 0 && cfg.Sub != "":
		// go test prints nothing for a benchmark none of whose
		// sub-benchmarks match: not a failure, nothing to run.
		o.Status = results.StatusSkipped
		o.Error = fmt.Sprintf("no sub-benchmark matches %q", cfg.Sub)
	case len(o.Results) == 0:
		o.Status = results.StatusFailed
		o.Error = "produced no results (does the -bench pattern match its sub-benchmarks?)"
	}
}

// exit0Panic is the panic of a test binary run with -test.paniconexit0
// when the code calls os.Exit(0) (os/proc.go).
const exit0Panic = "unexpected call to os.Exit(0) during test"

// crashWriter keeps the part of a test binary's stderr that explains a
// crash: from the first line the runtime starts a crash report with
// ("panic: ", "fatal error: ", "SIGQUIT: quit") on, bounded.
type crashWriter struct {
	lines *lineWriter
	limit int
	buf   []byte
	on    bool
}

func newCrashWriter(limit int) *crashWriter {
	c := &crashWriter{limit: limit}
	c.lines = newLineWriter(limit, c.line)
	return c
}

func (c *crashWriter) Write(p []byte) (int, error) { return c.lines.Write(p) }

func (c *crashWriter) flush() { c.lines.flush() }

func (c *crashWriter) line(line []byte, _ bool) {
	if !c.on {
		for _, p := range []string{"panic: ", "fatal error: ", "SIGQUIT: quit"} {
			if bytes.HasPrefix(line, []byte(p)) {
				c.on = true
			}
		}
	}
	if c.on && len(c.buf)+len(line) < c.limit {
		c.buf = append(append(c.buf, line...), '\n')
	}
}

// section returns the crash report, or nil.
func (c *crashWriter) section() []byte { return c.buf }

// panicMessage returns the first "panic: …" line of a test binary's stderr,
// without the "[recovered]" marker the testing package adds.
func panicMessage(stderr []byte) string {
	for _, line := range strings.Split(string(stderr), "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			line = strings.TrimSuffix(strings.TrimSpace(line), " [recovered]")
			line = strings.TrimSuffix(line, " [recovered, repanicked]")
			return line
		}
	}
	return ""
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "; "))
}

// benchmarkFrame finds the benchmark function's frame (or a closure inside
// it) in a goroutine dump and returns its file:line, relative to the module
// root. It falls back to the first frame in a _test.go file.
func (b *Binary) benchmarkFrame(stderr []byte, name string) string {
	lines := strings.Split(string(stderr), "\n")
	suffix := "." + name
	var fallback string
	for i := 0; i+1 < len(lines); i++ {
		fn := lines[i]
		loc := lines[i+1]
		if !strings.HasPrefix(loc, "\t") {
			continue
		}
		// "example.com/m.BenchmarkX(0xc000…)" or "….BenchmarkX.func1(…)"
		if p := strings.LastIndexByte(fn, '('); p > 0 {
			fn = fn[:p]
		}
		file, line := splitLocation(loc)
		if file == "" {
			continue
		}
		if strings.HasSuffix(fn, suffix) || strings.Contains(fn, suffix+".func") {
			return b.relative(file) + ":" + line
		}
		if fallback == "" && strings.HasSuffix(file, "_test.go") {
			fallback = b.relative(file) + ":" + line
		}
	}
	return fallback
}

// splitLocation parses "\t/abs/file.go:79 +0x1d".
func splitLocation(loc string) (file, line string) {
	loc = strings.TrimSpace(loc)
	if i := strings.LastIndex(loc, " +0x"); i >= 0 {
		loc = loc[:i]
	}
	i := strings.LastIndexByte(loc, ':')
	if i < 0 || !strings.HasSuffix(loc[:i], ".go") {
		return "", ""
	}
	return loc[:i], loc[i+1:]
}

// relative returns file relative to the package's module root, with
// forward slashes, or its base name when it lies outside.
func (b *Binary) relative(file string) string {
	root := b.Package.ModuleDir
	if root == "" {
		root = b.Package.Dir
	}
	if rel, ok := strings.CutPrefix(file, root+string(os.PathSeparator)); ok {
		return strings.ReplaceAll(rel, string(os.PathSeparator), "/")
	}
	if i := strings.LastIndexAny(file, `/\`); i >= 0 {
		return file[i+1:]
	}
	return file
}

// SplitPattern splits a -bench regular expression into its top-level
// element and the rest, as the testing package splits on slashes outside
// brackets and parentheses: "Encode/size=10$" → ("Encode", "size=10$").
func SplitPattern(pattern string) (top, sub string) {
	depth := 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '\\':
			i++
		case '[', '(':
			depth++
		case ']', ')':
			if depth > 0 {
				depth--
			}
		case '/':
			if depth == 0 {
				return pattern[:i], pattern[i+1:]
			}
		}
	}
	return pattern, ""
}

// CheckPattern reports whether pattern is a -bench (or -run) pattern the
// testing package accepts, checking it as the testing package does: split
// into elements at the slashes and bars outside brackets and parentheses,
// each element compiled as a regular expression. A bad element of several
// is named by its position ("element 2 ("["): …"). Checked up front, a
// bad pattern is the user's mistake, not a test binary that "did not
// build" after every package was compiled.
func CheckPattern(pattern string) error {
	var elems []string
	brackets, parens := 0, 0
	for i := 0; i < len(pattern); i++ {
		switch pattern[i] {
		case '[':
			brackets++
		case ']':
			if brackets > 0 { // an unmatched ']' is a literal
				brackets--
			}
		case '(':
			if brackets == 0 {
				parens++
			}
		case ')':
			if brackets == 0 {
				parens--
			}
		case '\\':
			i++
		case '/', '|':
			if brackets == 0 && parens == 0 {
				elems = append(elems, pattern[:i])
				pattern, i = pattern[i+1:], -1
			}
		}
	}
	elems = append(elems, pattern)
	for i, e := range elems {
		if _, err := regexp.Compile(e); err != nil {
			if len(elems) == 1 {
				return err
			}
			return fmt.Errorf("element %d (%q): %w", i+1, e, err)
		}
	}
	return nil
}

// skipReason reads
// skipReason reads a -test.v run's output for a skipped benchmark: with
// -test.v the testing package prints the benchmark's name, its log lines
// (the b.Skip message among them), then "--- SKIP: name".
func skipReason(stdout []byte) (string, bool) {
	lines := strings.Split(string(stdout), "\n")
	for i, l := range lines {
		if !strings.Contains(l, "--- SKIP: ") {
			continue
		}
		var msgs []string
		// The log lines above the marker, back to the benchmark's name.
		for j := i - 1; j >= 0 && strings.HasPrefix(lines[j], "    "); j-- {
			msgs = append([]string{strings.TrimSpace(lines[j])}, msgs...)
		}
		// And any below it (older toolchains print them after).
		for j := i + 1; j < len(lines) && strings.HasPrefix(lines[j], "    "); j++ {
			msgs = append(msgs, strings.TrimSpace(lines[j]))
		}
		if len(msgs) == 0 {
			return "skipped", true
		}
		return "skipped: " + strings.Join(msgs, "; "), true
	}
	return "", false
}
