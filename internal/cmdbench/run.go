package cmdbench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"syscall"
	"time"

	"github.com/perfloop/perfloop/internal/document"
)

// Defaults of the automatic run count, as hyperfine's.
const (
	// DefaultMinRuns is the fewest timed runs of a command.
	DefaultMinRuns = 10
	// DefaultMinTime is about how long the timed runs of a command last.
	DefaultMinTime = 3 * time.Second
	// ShellCalibrationRuns is how many times the empty shell command runs
	// to measure the shell's spawn time.
	ShellCalibrationRuns = 50
	// FastCommand is the wall time under which the shell spawn
	// correction is as large as what it corrects.
	FastCommand = 5 * time.Millisecond
)

// Options control how commands are timed.
type Options struct {
	// Warmup is the number of untimed runs of each command first.
	Warmup int
	// Runs is the number of timed runs of each command; 0 chooses it as
	// hyperfine does: at least MinRuns and about MinTime per command,
	// estimated from the first timed run.
	Runs    int
	MinRuns int           // 0 means DefaultMinRuns
	MinTime time.Duration // 0 means DefaultMinTime
	// Interleave runs several commands in rounds, A B A B …, instead of
	// all runs of A then all of B.
	Interleave bool
	// IgnoreFailure keeps timing a command that exits non-zero.
	IgnoreFailure bool
	// Input is a file every run reads as its standard input; the empty
	// string means /dev/null.
	Input string
	// Output receives the commands' standard output and error; nil means
	// /dev/null.
	Output *os.File
	// Shell runs prepare and cleanup commands ("sh" when empty). The
	// spawn correction calibrates the shell the commands themselves use.
	Shell string
	// Reference is the index of the command the others are compared to.
	Reference int
	// Strace, when set, runs each command once more under strace -c -f
	// after its timed runs and records the system calls.
	Strace bool
	// Perf, when set, runs each command once more under perf stat for the
	// kernel's counters (hardware where the machine exposes them).
	Perf bool
	// Timeout, when positive, limits every timed and warm-up run of a
	// command: a run over it is killed and fails the benchmark.
	Timeout time.Duration
	// Progress, when set, is called before every run.
	Progress func(Progress)
}

// Progress says where a benchmark is.
type Progress struct {
	Phase   string // "shell" (spawn calibration), "warmup", "run", "strace" or "perf"
	Command string // the name of the command that runs next
	// Done and Total count the runs of this phase; Total is 0 while the
	// automatic run count is not known yet.
	Done, Total int
	// Estimate is the mean wall time so far of Command, shell spawn time
	// subtracted (0 before any run).
	Estimate time.Duration
}

// ExitError says that a command, or its prepare or cleanup command, exited
// with a non-zero status or was killed at the time limit.
type ExitError struct {
	Role    string // "command", "prepare command" or "cleanup command"
	Command string
	Code    int
	Signal  syscall.Signal // the signal that killed it, or 0
	// Timeout is the time limit the command was killed at, or 0.
	Timeout time.Duration
}

// Error says who exited how: `command "false" exited with code 1`.
func (e *ExitError) Error() string {
	if e.Timeout > 0 {
		return fmt.Sprintf("%s %q timed out after %v (-timeout)", e.Role, e.Command, e.Timeout)
	}
	if e.Signal != 0 {
		return fmt.Sprintf("%s %q was killed by signal %d (%v), exit code %d", e.Role, e.Command, int(e.Signal), e.Signal, e.Code)
	}
	return fmt.Sprintf("%s %q exited with code %d", e.Role, e.Command, e.Code)
}

// bench is one command being timed.
type bench struct {
	cmd      Command
	proc     *process
	prepare  *process // nil without a prepare command
	runs     []Measurement
	wallSum  time.Duration          // of runs, for progress
	prep     time.Duration          // the last prepare command's wall time
	syscalls *document.ExecSyscalls // from the strace run, with Options.Strace
	counters *document.ExecCounters // from the perf stat run, with Options.Perf
}

// engine holds what every run shares.
type engine struct {
	opts    Options
	io      *stdio
	auxIO   *stdio // prepare and cleanup: /dev/null stdin
	spawn   *document.ExecShellSpawn
	benches []*bench
	ctl     *control
}

// Run times cmds as opts say and returns the report. On a failing command
// (without IgnoreFailure), a run over the time limit or a failing cleanup
// command it stops and returns an *ExitError; when ctx is cancelled it
// stops the running command (SIGINT to its process group, SIGKILL a second
// later) and returns ctx's error. In both cases the report holds the runs
// that finished (see document.Exec.Error), or is nil when none did.
func Run(ctx context.Context, cmds []Command, opts Options) (*document.Exec, error) {
	if len(cmds) == 0 {
		return nil, errors.New("no command to run")
	}
	if opts.MinRuns <= 0 {
		opts.MinRuns = DefaultMinRuns
	}
	if opts.MinTime <= 0 {
		opts.MinTime = DefaultMinTime
	}
	if opts.Shell == "" {
		opts.Shell = "sh"
	}
	if opts.Reference < 0 || opts.Reference >= len(cmds) {
		return nil, fmt.Errorf("reference %d out of range", opts.Reference)
	}
	if len(cmds) < 2 {
		opts.Interleave = false
	}
	e := &engine{opts: opts, ctl: newControl()}
	defer context.AfterFunc(ctx, e.ctl.cancel)()
	var err error
	if e.io, err = openStdio(opts.Input, opts.Output); err != nil {
		return nil, err
	}
	defer e.io.close()
	if e.auxIO, err = openStdio("", opts.Output); err != nil {
		return nil, err
	}
	defer e.auxIO.close()
	for _, c := range cmds {
		b := &bench{cmd: c}
		if b.proc, err = newProcess(c.Argv, e.io); err != nil {
			return nil, fmt.Errorf("run %q: %w", c.Line, err)
		}
		if c.Prepare != "" {
			if b.prepare, err = newProcess([]string{opts.Shell, "-c", c.Prepare}, e.auxIO); err != nil {
				return nil, fmt.Errorf("prepare %q: %w", c.Prepare, err)
			}
		}
		e.benches = append(e.benches, b)
	}
	if i := slices.IndexFunc(cmds, func(c Command) bool { return c.Shell }); i >= 0 {
		if e.spawn, err = e.calibrate(ctx, cmds[i].Argv[0]); err != nil {
			return nil, err
		}
	}
	if opts.Interleave {
		err = e.interleaved(ctx)
	} else {
		err = e.sequential(ctx)
	}
	if err == nil && opts.Strace {
		for _, b := range e.benches {
			e.progress("strace", b, 0, 0)
			if b.syscalls, err = e.strace(b); err != nil {
				break
			}
		}
	}
	if err == nil && opts.Perf {
		for _, b := range e.benches {
			e.progress("perf", b, 0, 0)
			if b.counters, err = e.perf(b); err != nil {
				break
			}
		}
	}
	rep := e.report()
	if err != nil {
		rep.Error = err.Error()
		if len(rep.Results) == 0 {
			rep = nil
		}
	}
	return rep, err
}

// calibrate times the shell's empty command, which is then subtracted from
// every shell-run measurement (see document.ExecShellSpawn).
func (e *engine) calibrate(ctx context.Context, shell string) (*document.ExecShellSpawn, error) {
	p, err := newProcess([]string{shell, "-c", ""}, e.io)
	if err != nil {
		return nil, fmt.Errorf("find shell %q: %w", shell, err)
	}
	const warm = 3
	var wall, user, sys []float64
	for i := range warm + ShellCalibrationRuns {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if e.opts.Progress != nil {
			e.opts.Progress(Progress{Phase: "shell", Command: shell + " -c ''", Done: i, Total: warm + ShellCalibrationRuns})
		}
		if err := e.io.rewind(); err != nil {
			return nil, err
		}
		m, err := p.run(e.ctl, 0)
		if err != nil {
			return nil, fmt.Errorf("measure shell spawn time: %w", err)
		}
		if e.ctl.isCanceled() {
			return nil, context.Canceled
		}
		if m.ExitCode != 0 {
			return nil, fmt.Errorf("measure shell spawn time: %s -c '' exited with code %d", shell, m.ExitCode)
		}
		if i < warm {
			continue
		}
		wall = append(wall, m.Wall.Seconds())
		user = append(user, m.User.Seconds())
		sys = append(sys, m.Sys.Seconds())
	}
	return &document.ExecShellSpawn{
		Shell: shell,
		Runs:  ShellCalibrationRuns,
		Wall:  Summarize(wall),
		User:  Mean(user),
		Sys:   Mean(sys),
	}, nil
}

func (e *engine) progress(phase string, b *bench, done, total int) {
	if e.opts.Progress == nil {
		return
	}
	p := Progress{Phase: phase, Command: b.cmd.Name, Done: done, Total: total}
	if n := len(b.runs); n > 0 {
		p.Estimate = b.wallSum / time.Duration(n)
		if b.cmd.Shell && e.spawn != nil {
			p.Estimate = max(0, p.Estimate-time.Duration(e.spawn.Wall.Median*1e9))
		}
	}
	e.opts.Progress(p)
}

// once runs b's prepare command, if any, then b itself, and checks the
// exit status.
func (e *engine) once(ctx context.Context, b *bench) (Measurement, error) {
	if err := ctx.Err(); err != nil {
		return Measurement{}, err
	}
	if b.prepare != nil {
		m, err := b.prepare.run(e.ctl, 0)
		if err != nil {
			return Measurement{}, fmt.Errorf("prepare %q: %w", b.cmd.Prepare, err)
		}
		if m.Signal == syscall.SIGINT || e.ctl.isCanceled() {
			return Measurement{}, context.Canceled
		}
		if m.ExitCode != 0 {
			return Measurement{}, &ExitError{Role: "prepare command", Command: b.cmd.Prepare, Code: m.ExitCode, Signal: m.Signal}
		}
		b.prep = m.Wall
	}
	if err := e.io.rewind(); err != nil {
		return Measurement{}, err
	}
	m, err := b.proc.run(e.ctl, e.opts.Timeout)
	if err != nil {
		return Measurement{}, fmt.Errorf("run %q: %w", b.cmd.Line, err)
	}
	if m.Signal == syscall.SIGINT || e.ctl.isCanceled() {
		// Ctrl-C, or perfloop was told to stop.
		return Measurement{}, context.Canceled
	}
	if m.TimedOut {
		return Measurement{}, &ExitError{Role: "command", Command: b.cmd.Line, Code: m.ExitCode, Signal: m.Signal, Timeout: e.opts.Timeout}
	}
	if m.ExitCode != 0 && !e.opts.IgnoreFailure {
		return Measurement{}, &ExitError{Role: "command", Command: b.cmd.Line, Code: m.ExitCode, Signal: m.Signal}
	}
	return m, nil
}

// timed runs b once and records the measurement.
func (e *engine) timed(ctx context.Context, b *bench) error {
	m, err := e.once(ctx, b)
	if err != nil {
		return err
	}
	b.runs = append(b.runs, m)
	b.wallSum += m.Wall
	return nil
}

// autoRuns is hyperfine's rule: enough runs of the first run's length
// (prepare and shell spawn included) to fill about MinTime per command,
// and at least MinRuns.
func (e *engine) autoRuns(bs []*bench) int {
	if e.opts.Runs > 0 {
		return e.opts.Runs
	}
	var round time.Duration
	for _, b := range bs {
		round += b.runs[0].Wall + b.prep
	}
	if round <= 0 {
		round = time.Nanosecond
	}
	n := int(time.Duration(len(bs)) * e.opts.MinTime / round)
	return max(n, e.opts.MinRuns)
}

func (e *engine) sequential(ctx context.Context) error {
	for _, b := range e.benches {
		for i := range e.opts.Warmup {
			e.progress("warmup", b, i, e.opts.Warmup)
			if _, err := e.once(ctx, b); err != nil {
				return err
			}
		}
		e.progress("run", b, 0, e.opts.Runs)
		if err := e.timed(ctx, b); err != nil {
			return err
		}
		n := e.autoRuns([]*bench{b})
		for i := 1; i < n; i++ {
			e.progress("run", b, i, n)
			if err := e.timed(ctx, b); err != nil {
				return err
			}
		}
		if err := e.cleanup(b); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) interleaved(ctx context.Context) error {
	k := len(e.benches)
	for i := range e.opts.Warmup {
		for j, b := range e.benches {
			e.progress("warmup", b, i*k+j, e.opts.Warmup*k)
			if _, err := e.once(ctx, b); err != nil {
				return err
			}
		}
	}
	total := e.opts.Runs * k
	for j, b := range e.benches {
		e.progress("run", b, j, total)
		if err := e.timed(ctx, b); err != nil {
			return err
		}
	}
	n := e.autoRuns(e.benches)
	for r := 1; r < n; r++ {
		for j, b := range e.benches {
			e.progress("run", b, r*k+j, n*k)
			if err := e.timed(ctx, b); err != nil {
				return err
			}
		}
	}
	for _, b := range e.benches {
		if err := e.cleanup(b); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) cleanup(b *bench) error {
	if b.cmd.Cleanup == "" {
		return nil
	}
	p, err := newProcess([]string{e.opts.Shell, "-c", b.cmd.Cleanup}, e.auxIO)
	if err != nil {
		return fmt.Errorf("cleanup %q: %w", b.cmd.Cleanup, err)
	}
	m, err := p.run(e.ctl, 0)
	if err != nil {
		return fmt.Errorf("cleanup %q: %w", b.cmd.Cleanup, err)
	}
	if e.ctl.isCanceled() {
		return context.Canceled
	}
	if m.ExitCode != 0 {
		return &ExitError{Role: "cleanup command", Command: b.cmd.Cleanup, Code: m.ExitCode, Signal: m.Signal}
	}
	return nil
}
