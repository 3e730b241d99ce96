package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/cmdbench"
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
the system calls and their errors counted by strace -c -f in one extra run.
Runs far from the median are flagged. Through a shell, the shell's own
spawn time (the median of sh -c '' timed 50 times) is subtracted from every
run, as hyperfine does; the output says by how much.

With several commands each is compared with the reference (the first, or
-reference CMD): the ratio of mean wall times with the delta-method
standard deviation hyperfine prints, and a 95% bootstrap confidence
interval that resamples whole interleaved rounds.

The commands' output goes to /dev/null (-show-output sends it to stderr);
their input is /dev/null or the -input file.

Exit status: 0 when every run succeeded, 1 when a command exited non-zero
(unless -ignore-failure), 2 on bad flags, 130 when interrupted (the runs so
far are still reported).

Examples:

	perfloop exec 'sleep 0.05'
	perfloop exec -no-shell -warmup 3 -runs 60 true
	perfloop exec -warmup 3 'grep -r TODO .' 'rg TODO .'
	perfloop exec -parameter-list n=1,2,4 'xz -T{n} -k -c big.tar'
	perfloop exec -json -strace -runs 20 './old-build run' './new-build run'
`

type execOptions struct {
	warmup, runs     int
	prepare, cleanup string
	names            stringList
	input            string
	params           stringList
	interleave       bool
	reference        string
	ignoreFailure    bool
	noShell          bool
	json             bool
	exportMarkdown   string
	exportCSV        string
	strace           bool
	showOutput       bool
	commands         []string
}

// stringList is a flag that may be given several times.
type stringList []string

func (l *stringList) String() string { return strings.Join(*l, ",") }

func (l *stringList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

func runExec(ctx context.Context, args []string, s Streams) error {
	var o execOptions
	fs := newFlagSet("exec", execUsage, s)
	fs.IntVar(&o.warmup, "warmup", 0, "run each command `n` times untimed first")
	fs.IntVar(&o.runs, "runs", 0, "time each command `n` times (0: at least 10 runs and about 3s)")
	fs.StringVar(&o.prepare, "prepare", "", "shell `command` run before every run, untimed")
	fs.StringVar(&o.cleanup, "cleanup", "", "shell `command` run after a command's last run")
	fs.Var(&o.names, "name", "display `name` of a command (repeat: one per command, in order)")
	fs.StringVar(&o.input, "input", "", "`file` every run reads as standard input (default /dev/null)")
	fs.Var(&o.params, "parameter-list", "run every command once per value of `NAME=v1,v2,…`, with {NAME} substituted (repeatable)")
	fs.BoolVar(&o.interleave, "interleave", true, "with several commands, run them in rounds A B A B …")
	fs.StringVar(&o.reference, "reference", "", "`command` to compare the others with (default: the first)")
	fs.BoolVar(&o.ignoreFailure, "ignore-failure", false, "keep timing commands that exit non-zero")
	fs.BoolVar(&o.noShell, "no-shell", false, "run commands directly, split into words, not through sh -c")
	fs.BoolVar(&o.noShell, "N", false, "short for -no-shell")
	fs.BoolVar(&o.json, "json", false, "print perfloop.exec/v1 JSON to stdout")
	fs.StringVar(&o.exportMarkdown, "export-markdown", "", "also write a Markdown table to `file`")
	fs.StringVar(&o.exportCSV, "export-csv", "", "also write CSV to `file`")
	fs.BoolVar(&o.strace, "strace", false, "count each command's system calls with strace -c -f (one extra run)")
	fs.BoolVar(&o.showOutput, "show-output", false, "send the commands' stdout and stderr to stderr instead of /dev/null")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	o.commands = pos
	return execute(ctx, o, s)
}

func execute(ctx context.Context, o execOptions, s Streams) error {
	cmds, opts, err := o.plan(s)
	if err != nil {
		return err
	}
	p := newExecProgress(s)
	opts.Progress = p.update
	rep, err := cmdbench.Run(ctx, cmds, opts)
	p.done()
	var exitErr *cmdbench.ExitError
	switch {
	case errors.As(err, &exitErr) && exitErr.Role == "command":
		return failedError{fmt.Sprintf("%v (use -ignore-failure to keep timing it)", exitErr)}
	case errors.As(err, &exitErr):
		return failedError{fmt.Sprintf("%v (append ' || true' to it if that is expected)", exitErr)}
	case errors.Is(err, exec.ErrNotFound):
		return usageError{err}
	case err != nil && !errors.Is(err, context.Canceled):
		return err
	}
	// From here err is nil or the interruption: report what finished.
	if rep == nil || len(rep.Results) == 0 {
		return err
	}
	if werr := o.write(rep, s); werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("interrupted: reported the runs that finished: %w", err)
	}
	return nil
}

// plan checks the options and turns them into commands and engine options.
func (o execOptions) plan(s Streams) ([]cmdbench.Command, cmdbench.Options, error) {
	var opts cmdbench.Options
	if len(o.commands) == 0 && o.reference == "" {
		return nil, opts, usageErrorf("no command given: perfloop exec [flags] CMD...")
	}
	if len(o.commands) == 0 {
		return nil, opts, usageErrorf("-reference needs at least one command to compare with it")
	}
	if o.warmup < 0 {
		return nil, opts, usageErrorf("-warmup must be 0 or more, got %d", o.warmup)
	}
	if o.runs < 0 {
		return nil, opts, usageErrorf("-runs must be 0 (automatic) or more, got %d", o.runs)
	}
	if len(o.names) > len(o.commands) {
		return nil, opts, usageErrorf("%d -name flags for %d commands: give at most one per command", len(o.names), len(o.commands))
	}
	spec := cmdbench.Spec{
		Lines:   o.commands,
		Names:   o.names,
		NoShell: o.noShell,
		Prepare: o.prepare,
		Cleanup: o.cleanup,
	}
	for _, p := range o.params {
		l, err := cmdbench.ParseParameterList(p)
		if err != nil {
			return nil, opts, usageError{fmt.Errorf("-parameter-list: %w", err)}
		}
		spec.Lists = append(spec.Lists, l)
	}
	cmds, err := spec.Commands()
	if err != nil {
		return nil, opts, usageError{err}
	}
	if o.reference != "" {
		ref := spec
		ref.Lines, ref.Names, ref.Lists = []string{o.reference}, nil, nil
		rc, err := ref.Commands()
		if err != nil {
			return nil, opts, usageError{fmt.Errorf("-reference: %w", err)}
		}
		cmds = append(rc, cmds...)
	}
	if o.input != "" {
		if _, err := os.Stat(o.input); err != nil {
			return nil, opts, usageError{fmt.Errorf("-input: %w", err)}
		}
	}
	if o.strace {
		if _, err := cmdbench.LookStrace(); err != nil {
			return nil, opts, usageError{err}
		}
	}
	opts = cmdbench.Options{
		Warmup:        o.warmup,
		Runs:          o.runs,
		Interleave:    o.interleave,
		IgnoreFailure: o.ignoreFailure,
		Input:         o.input,
		Strace:        o.strace,
	}
	if o.showOutput {
		if f, ok := s.Err.(*os.File); ok {
			opts.Output = f
		}
	}
	return cmds, opts, nil
}

// write prints the report and writes the export files.
func (o execOptions) write(rep *cmdbench.Report, s Streams) error {
	if o.json {
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
	} else if err := cmdbench.WriteText(s.Out, rep); err != nil {
		return err
	}
	exports := []struct {
		path  string
		write func(io.Writer, *cmdbench.Report) error
	}{
		{o.exportMarkdown, cmdbench.WriteMarkdown},
		{o.exportCSV, cmdbench.WriteCSV},
	}
	for _, e := range exports {
		if e.path == "" {
			continue
		}
		if err := writeFile(e.path, rep, e.write); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path string, rep *cmdbench.Report, write func(io.Writer, *cmdbench.Report) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := write(f, rep); err != nil {
		f.Close()
		return fmt.Errorf("export %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("export %s: %w", path, err)
	}
	return nil
}

// execProgress shows one status line on a terminal: phase, count, the
// current estimate and an ETA. It redraws at most ten times a second so
// that drawing stays out of the way of short runs.
type execProgress struct {
	p          *progress
	on         bool
	phase      string
	phaseStart time.Time
	lastDone   int
	last       time.Time
}

func newExecProgress(s Streams) *execProgress {
	return &execProgress{p: newProgress(s), on: s.ErrIsTerminal}
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
	e.p.status(msg)
}

func (e *execProgress) done() { e.p.done() }
