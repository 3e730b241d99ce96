// Package cli implements perfloop's commands: one file per command, each an
// options struct filled from flags and a run function that takes the options
// and injected streams, so every command is testable without a terminal.
//
// Only Main turns errors into exit codes (see exit.go); nothing here calls
// os.Exit.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Streams carries a command's standard streams and what is known about them.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrIsTerminal reports whether Err is a terminal: progress is shown
	// only then.
	ErrIsTerminal bool
}

// command is one perfloop subcommand.
type command struct {
	name  string
	short string // one line for the command list
	// run parses args with its own FlagSet and does the work.
	run func(ctx context.Context, args []string, s Streams) error
}

// commands is the command table, in the order "perfloop help" lists them.
func commands() []command {
	return []command{
		{"bench", "run benchmarks, each isolated, and write benchfmt results", runBench},
		{"compare", "compare benchmark result files (benchstat's statistics, corrected for many rows)", runCompare},
		{"profile", "CPU and heap profiles per benchmark: hotspots, call paths, categories, allocation sites", runProfile},
		{"explain", "why each hot allocation happens: heap profile joined with the compiler's escape analysis", runExplain},
		{"report", "the whole loop: bench, profile, explain, findings → report.md, report.html, report.json", runReport},
		{"run", "profile a real run of a main package: the report's analysis with wall, user, sys, peak RSS and page faults; variants side by side", runRun},
		{"fix", "make the rewrite where the profile says it matters, in a scratch work tree; keep it only when tests pass and the A/B engine measures it better", runFix},
		{"diff", "did my change make it faster? interleaved BASE vs HEAD with an honest verdict", runDiff},
		{"check", "CI gate: fail on a regression or a broken budget, and say why (profiles and escape analysis of both sides)", runCheck},
		{"record", "run the report pipeline on a commit and store its results, report and profiles (SQLite or PostgreSQL)", runRecord},
		{"history", "every benchmark's series over commits, with the change points where it shifted", runHistory},
		{"serve", "a local, read-only dashboard of the history: trends, change points, each commit's report", runServe},
		{"pgo", "profile-guided optimization, measured: write default.pgo, then PGO off vs on, build cost, what the compiler did", runPGO},
		{"trace", "execution trace per benchmark: GC share, stop-the-world pauses, scheduler latency, blocked time by reason", runTrace},
		{"lint", "benchmarks that measure the wrong thing: b.N as a size, no loop, timed setup, dead code, no SetBytes, …", runLint},
		{"exec", "time whole commands (hyperfine-style), with rusage and syscall counts", runExec},
	}
}

// Main runs perfloop with the process's arguments (without the program name)
// and standard streams, and returns the exit code.
func Main(args []string) int {
	ctx, stop := notifySignals(context.Background())
	defer stop()
	s := Streams{
		In:            os.Stdin,
		Out:           os.Stdout,
		Err:           os.Stderr,
		ErrIsTerminal: term.IsTerminal(int(os.Stderr.Fd())),
	}
	return Run(ctx, args, s)
}

// Run runs perfloop with args and streams s, prints any error to s.Err as one
// line, and returns the exit code (see ExitCode).
func Run(ctx context.Context, args []string, s Streams) int {
	err := dispatch(ctx, args, s)
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(s.Err, "perfloop: interrupted; what finished was kept")
	default:
		fmt.Fprintf(s.Err, "perfloop: %v\n", err)
		var h hinted
		if errors.As(err, &h) {
			fmt.Fprintln(s.Err, h.hint)
		}
	}
	return ExitCode(err)
}

func dispatch(ctx context.Context, args []string, s Streams) error {
	if len(args) == 0 {
		// The error first, then a short usage: the command list is
		// perfloop help's.
		return hinted{usageErrorf("no command given"), `usage: perfloop <command> [flags] [arguments]; run "perfloop help" for the commands`}
	}
	name := strings.TrimLeft(args[0], "-")
	switch name {
	case "help", "h":
		if len(args) > 1 {
			return dispatch(ctx, []string{args[1], "-h"}, s)
		}
		usage(s.Out)
		return nil
	case "version":
		fmt.Fprintf(s.Out, "perfloop %s\n", Version())
		return nil
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args[1:], s)
		}
	}
	return usageErrorf("unknown command %q: run \"perfloop help\" for the commands", args[0])
}

// hinted is an error followed, on a line of its own, by a short hint (a
// usage line): Run prints the error first, so it is never lost under a
// screen of help.
type hinted struct {
	error
	hint string
}

func (h hinted) Unwrap() error { return h.error }

func usage(w io.Writer) {
	fmt.Fprint(w, `perfloop automates the Go performance loop: benchmark, profile, explain, fix, verify.

Usage:

	perfloop <command> [flags] [arguments]

Commands:

`)
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-10s %s\n", c.name, c.short)
	}
	fmt.Fprint(w, `
Flags take one or two dashes (-count 5 or --count 5) and may follow the
package arguments, as with the go command.

Run "perfloop help <command>" for a command's flags and examples.
`)
}

// newFlagSet returns a FlagSet that reports errors instead of exiting and
// prints the given usage text followed by the flags (see printFlags).
func newFlagSet(name, usageText string, s Streams) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.Err)
	fs.Usage = func() {
		fmt.Fprint(s.Err, strings.TrimLeft(usageText, "\n"))
		fmt.Fprintln(s.Err, "\nFlags:")
		printFlags(s.Err, fs)
	}
	return fs
}

// parseFlags parses args with fs, allowing flags after positional arguments
// as the go command does ("perfloop bench ./... -count 5"). A lone "--" ends
// flag parsing. It returns the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	// A bad flag is one line naming it, not the whole usage text: the
	// flag package's own printing goes nowhere, and -h prints the usage.
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	defer func() { fs.SetOutput(out); fs.Usage = usage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return nil, helpShown{fs}
			}
			return nil, usageError{fmt.Errorf("%s: %w (see perfloop help %s)", fs.Name(), err, fs.Name())}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// fs.Parse stops at the first non-flag or after "--". If the
		// argument before rest was "--", everything left is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
