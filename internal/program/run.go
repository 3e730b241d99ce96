package program

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"time"
)

// RunOptions say how Run runs the wrapped program once.
type RunOptions struct {
	// Binary is the program Build built; Args its arguments.
	Binary string
	Args   []string
	// Stdin, Stdout and Stderr are the program's streams (nil: the null
	// device). An *os.File is handed to the program as it is.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Profiles is the directory the wrapper writes its profiles into; it
	// must exist and be empty.
	Profiles string
	// MemProfileRate is runtime.MemProfileRate for the program (0: the
	// runtime's default, one sample per 512 KiB).
	MemProfileRate int
	// NoHeap leaves the heap profile out (runtime.MemProfileRate 0): no
	// allocation sites, and no collection at the program's end, which
	// the heap profile needs (the runtime publishes allocations to it
	// only at a collection) and which costs the program in proportion to
	// the heap it holds then. The allocation count stays exact.
	NoHeap bool
	// FinalGC forces the collection before the final heap profile:
	// FinalGCOn always, FinalGCOff never; "" (auto) lets the wrapper
	// decide by its cost (see the wrapper's perfloopFinalGC).
	FinalGC string
	// Segment is the length of a CPU profile segment (0: one second).
	Segment time.Duration
	// NoCPU turns the wrapper's CPU profile off (the program runs its
	// own).
	NoCPU bool
	// Trace writes an execution trace; Mutex and Block turn the mutex
	// and block profiles on at these rates (0: off).
	Trace        bool
	Mutex, Block int
	// Grace is how long the program has to end by itself after ctx is
	// done (a Ctrl-C at a terminal reaches it directly) before it is
	// sent the signal that ended ctx (see Run).
	Grace time.Duration
	// KillAfter is how long the program has to end after that signal
	// before it is killed (0: DefaultKillAfter).
	KillAfter time.Duration
	// Kill, when closed after ctx is done, kills the program at once: the
	// user asked again.
	Kill <-chan struct{}
}

// DefaultKillAfter is how long a program has to end after perfloop
// forwarded it a signal before it is killed.
const DefaultKillAfter = 2 * time.Second

// Usage is what the kernel says one run of the program cost.
type Usage struct {
	Wall, User, Sys time.Duration
	// MaxRSS is the program's peak resident set in bytes: its own VmHWM
	// on Linux (see watchPeakRSS), the rusage figure elsewhere.
	MaxRSS                   int64
	MinorFaults, MajorFaults int64
}

// Result is one run of the program: its exit, its cost and its profiles.
type Result struct {
	Usage
	// ExitCode is the program's exit status, 128+N when it died of
	// signal N; Signal names that signal.
	ExitCode int
	Signal   string
	// Killed says why perfloop killed the program ("" when it did not):
	// it had not ended KillAfter after the forwarded signal, or Kill was
	// closed.
	Killed string
	*Collected
}

// Run runs the program once, waits for it and collects its profiles.
//
// When ctx is done the program has Grace to end by itself, then it is
// sent the signal that ended ctx — the cause's, when context.Cause(ctx)
// has a Signal() os.Signal method, else an interrupt — and KillAfter
// later, or as soon as Kill is closed, it is killed: a program that
// ignores signals does not keep perfloop waiting. What it collected until
// then is still returned.
func Run(ctx context.Context, opts RunOptions) (*Result, error) {
	cmd := exec.Command(opts.Binary, opts.Args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = opts.Stdin, opts.Stdout, opts.Stderr
	env := append(os.Environ(), "PERFLOOP_RUN_DIR="+opts.Profiles)
	if opts.MemProfileRate > 0 {
		env = append(env, "PERFLOOP_MEMPROFILERATE="+strconv.Itoa(opts.MemProfileRate))
	}
	if opts.NoHeap {
		env = append(env, "PERFLOOP_HEAP=0")
	}
	if opts.FinalGC != "" {
		env = append(env, "PERFLOOP_FINALGC="+opts.FinalGC)
	}
	if opts.Segment > 0 {
		env = append(env, "PERFLOOP_SEGMENT="+opts.Segment.String())
	}
	if opts.NoCPU {
		env = append(env, "PERFLOOP_CPU=0")
	}
	if opts.Trace {
		env = append(env, "PERFLOOP_TRACE=1")
	}
	if opts.Mutex > 0 {
		env = append(env, "PERFLOOP_MUTEX="+strconv.Itoa(opts.Mutex))
	}
	if opts.Block > 0 {
		env = append(env, "PERFLOOP_BLOCK="+strconv.Itoa(opts.Block))
	}
	cmd.Env = env
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", opts.Binary, err)
	}
	exited := make(chan struct{})
	peakRSS := watchPeakRSS(cmd.Process.Pid, exited)
	killed := make(chan string, 1)
	go func() { killed <- stop(ctx, cmd.Process, exited, opts) }()
	err := cmd.Wait()
	wall := time.Since(start)
	close(exited)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return nil, fmt.Errorf("run %s: %w", opts.Binary, err)
	}
	r := &Result{Usage: usage(cmd.ProcessState)}
	r.Wall = wall
	r.ExitCode, r.Signal = exitStatus(cmd.ProcessState)
	r.Killed = <-killed
	polled := peakRSS()
	c, err := Collect(opts.Profiles)
	if err != nil {
		return r, fmt.Errorf("collect the profiles: %w", err)
	}
	r.Collected = c
	// The program's own peak (see watchPeakRSS), where it is known; the
	// rusage figure is at least its parent's.
	if own := max(polled, c.PeakRSS); own > 0 {
		r.MaxRSS = own
	}
	return r, nil
}

// stop waits for the program to exit or ctx to be done; then it stops the
// program as Run says and returns why it killed it, or "".
func stop(ctx context.Context, p *os.Process, exited <-chan struct{}, opts RunOptions) string {
	select {
	case <-exited:
		return ""
	case <-ctx.Done():
	}
	sig := causeSignal(ctx)
	select {
	case <-exited:
		return ""
	case <-opts.Kill:
		_ = p.Kill()
		return "perfloop killed the program at the second interrupt"
	case <-time.After(opts.Grace):
	}
	_ = p.Signal(sig)
	wait := cmp.Or(opts.KillAfter, DefaultKillAfter)
	select {
	case <-exited:
		return ""
	case <-opts.Kill:
		_ = p.Kill()
		return "perfloop killed the program at the second interrupt"
	case <-time.After(wait):
		_ = p.Kill()
		return fmt.Sprintf("the program did not end within %v of the %s perfloop forwarded: perfloop killed it", wait, signalName(sig))
	}
}

// causeSignal is the signal that ended ctx, when its cause names one, or
// an interrupt.
func causeSignal(ctx context.Context) os.Signal {
	var s interface{ Signal() os.Signal }
	if errors.As(context.Cause(ctx), &s) {
		return s.Signal()
	}
	return os.Interrupt
}
