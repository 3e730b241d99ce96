package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/cmdbench"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/progress"
)

const execUsage = `
usage: perfloop exec [flags] CMD...

Exec times whole commands, as hyperfine does, and reports what the kernel
saw. Each CMD is one argument, run through sh -c, or split into words as a
shell would (quotes and backslashes, no expansion) and run directly with
-no-shell. Each command runs -warmup times untimed, then -runs times timed
(by default at least 10 runs and about 3 seconds per command). Several
commands run interleaved, A B A B …, so machine noise hits them all.

Per command it reports the wall time (mean ± standard deviation, median,
min, max), user and system time and, from each run's rusage (wait4), the
peak resident set size, page faults and context switches; with -strace,
the system calls and their errors counted by strace -c -f in one extra run;
with -perf, the kernel's counters from perf stat in one extra run (cycles,
instructions, cache and branch misses where the machine exposes hardware
counters — a note says when it does not — and page faults, context
switches and CPU migrations everywhere). The Go tracer sees neither: page
faults of an mmap'd file, for one, show only here (docs/trace.md).
Runs far from the median are flagged. Through a shell, the shell's own
spawn time (the median of sh -c '' timed 50 times) is subtracted from every
run, as hyperfine does; the output says by how much.

With several commands each is compared with the reference (the first, or
-reference CMD): the ratio of mean wall times with the delta-method
standard deviation hyperfine prints, and a 95% bootstrap confidence
interval that resamples whole interleaved rounds.

The commands' output goes to /dev/null (-show-output sends it to stderr);
their input is /dev/null or the -input file. Each runs in a process group
of its own: -timeout, Ctrl-C and SIGTERM stop all of it.

Exit status: 0 when every run succeeded, 1 when a command exited non-zero
(unless -ignore-failure), ran over -timeout or a -cleanup command failed,
2 on bad flags, 130 when interrupted. In every case the runs that finished
are still reported, before the error.

Examples:

	perfloop exec 'sleep 0.05'
	perfloop exec -no-shell -warmup 3 -runs 60 true
	perfloop exec -warmup 3 'grep -r TODO .' 'rg TODO .'
	perfloop exec -parameter-list n=1,2,4 'xz -T{n} -k -c big.tar'
	perfloop exec -json -strace -runs 20 './old-build run' './new-build run'
`

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// execOutput says how to render the report.
type execOutput struct {
	json          bool
	markdown, csv string
}

func runExec(ctx context.Context, args []string, s Streams) error {
	var (
		r             cmdbench.Request
		out           execOutput
		names, params stringList
		showOutput    bool
	)
	o := &r.Options
	fs := newFlagSet("exec", execUsage, s)
	fs.IntVar(&o.Warmup, "warmup", 0, "run each command `n` times untimed first")
	fs.IntVar(&o.Runs, "runs", 0, "time each command `n` times (0: at least 10 runs and about 3s)")
	fs.DurationVar(&o.Timeout, "timeout", 0, "kill a run that takes longer than `d` and fail (0: no limit)")
	fs.StringVar(&r.Prepare, "prepare", "", "shell `command` run before every run, untimed")
	fs.StringVar(&r.Cleanup, "cleanup", "", "shell `command` run after a command's last run")
	fs.Var(&names, "name", "display `name` of a command (repeat: one per command, in order)")
	fs.StringVar(&o.Input, "input", "", "`file` every run reads as standard input (default /dev/null)")
	fs.Var(&params, "parameter-list", "run every command once per value of `NAME=v1,v2,…`, with {NAME} substituted (repeatable)")
	fs.BoolVar(&o.Interleave, "interleave", true, "with several commands, run them in rounds A B A B …")
	fs.StringVar(&r.Reference, "reference", "", "`command` to compare the others with (default: the first)")
	fs.BoolVar(&o.IgnoreFailure, "ignore-failure", false, "keep timing commands that exit non-zero")
	fs.BoolVar(&r.NoShell, "no-shell", false, "run commands directly, split into words, not through sh -c")
	alias(fs, "N", "no-shell")
	fs.BoolVar(&out.json, "json", false, "print perfloop.exec/v1 JSON to stdout")
	fs.StringVar(&out.markdown, "export-markdown", "", "also write a Markdown table to `file`")
	fs.StringVar(&out.csv, "export-csv", "", "also write CSV to `file`")
	fs.BoolVar(&o.Strace, "strace", false, "count each command's system calls with strace -c -f (one extra run)")
	fs.BoolVar(&o.Perf, "perf", false, "read the kernel's counters with perf stat: cycles, instructions, cache and branch misses, page faults (one extra run)")
	fs.BoolVar(&showOutput, "show-output", false, "send the commands' stdout and stderr to stderr instead of /dev/null")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	r.Commands, r.Names, r.Parameters = pos, names, params
	if f, ok := s.Err.(*os.File); ok && showOutput {
		o.Output = f
	}
	return execute(ctx, r, out, s)
}

func execute(ctx context.Context, r cmdbench.Request, out execOutput, s Streams) error {
	p := newExecProgress(s)
	r.Options.Progress = p.update
	rep, err := cmdbench.Execute(ctx, r)
	p.done()
	var reqErr *cmdbench.RequestError
	if errors.As(err, &reqErr) {
		return usageError{err}
	}
	// What finished is reported whatever stopped the runs.
	if rep != nil {
		if werr := out.write(rep, s); werr != nil {
			return werr
		}
	}
	var exitErr *cmdbench.ExitError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted: reported the runs that finished: %w", err)
	case errors.As(err, &exitErr) && exitErr.Timeout > 0:
		return failedError{fmt.Sprintf("%v", exitErr)}
	case errors.As(err, &exitErr) && exitErr.Role == "command":
		return failedError{fmt.Sprintf("%v (use -ignore-failure to keep timing it)", exitErr)}
	case errors.As(err, &exitErr):
		return failedError{fmt.Sprintf("%v (append ' || true' to it if that is expected)", exitErr)}
	}
	return err
}

// write prints the report and writes the export files.
func (out execOutput) write(rep *document.Exec, s Streams) error {
	if !out.json {
		if err := cmdbench.WriteText(s.Out, rep); err != nil {
			return err
		}
		return cmdbench.Export(rep, out.markdown, out.csv)
	}
	if err := cmdbench.WriteJSON(s.Out, rep); err != nil {
		return err
	}
	// The text summary carries the warnings; with -json they go to
	// stderr so stdout stays JSON.
	for _, r := range rep.Results {
		for _, w := range r.Warnings {
			fmt.Fprintf(s.Err, "perfloop: warning: %q: %s\n", r.Name, w)
		}
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(s.Err, "perfloop: warning: %s\n", w)
	}
	return cmdbench.Export(rep, out.markdown, out.csv)
}

// execProgress shows one status line on a terminal: phase, count, the
// current estimate and an ETA. It redraws at most ten times a second so
// that drawing stays out of the way of short runs.
type execProgress struct {
	p          *progress.Bar
	on         bool
	phase      string
	phaseStart time.Time
	lastDone   int
	last       time.Time
}

func newExecProgress(s Streams) *execProgress {
	return &execProgress{p: bar(s), on: s.ErrIsTerminal}
}

func (e *execProgress) update(p cmdbench.Progress) {
	if !e.on {
		return
	}
	now := time.Now()
	if p.Phase != e.phase || p.Done < e.lastDone {
		// A new phase, or the next command of a sequential run.
		e.phase, e.phaseStart = p.Phase, now
	} else if now.Sub(e.last) < 100*time.Millisecond {
		e.lastDone = p.Done
		return
	}
	e.lastDone = p.Done
	e.last = now
	var msg string
	switch p.Phase {
	case "shell":
		msg = fmt.Sprintf("measuring shell spawn time (%s) %d/%d", p.Command, p.Done, p.Total)
	case "strace":
		msg = fmt.Sprintf("strace -c -f: %s", p.Command)
	case "perf":
		msg = fmt.Sprintf("perf stat: %s", p.Command)
	default:
		msg = p.Phase
		if p.Total > 0 {
			msg += fmt.Sprintf(" %d/%d", p.Done, p.Total)
		}
		msg += ": " + p.Command
		if p.Estimate > 0 {
			msg += fmt.Sprintf("  (mean so far %v)", p.Estimate.Round(10*time.Microsecond))
		}
		if p.Total > 0 && p.Done > 0 {
			eta := time.Duration(float64(now.Sub(e.phaseStart)) / float64(p.Done) * float64(p.Total-p.Done))
			msg += fmt.Sprintf("  ETA %v", eta.Round(time.Second))
		}
	}
	e.p.Status(msg)
}

func (e *execProgress) done() { e.p.Done() }
