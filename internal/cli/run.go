package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/cmdbench"
	"github.com/perfloop/perfloop/internal/program"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/runprog"
)

const runUsage = `
usage: perfloop run [flags] PACKAGE [-- ARGS...]

Run profiles a real run of a Go main package: where does the program spend
its time on this input? It builds PACKAGE with profiling injected through
go build -overlay (a generated file wraps main; your files are never
changed), runs it once with ARGS, stdin, stdout and stderr passed through,
and exits with the program's exit status. perfloop's own messages go to
stderr.

It writes, in -out (default ./perfloop-run): cpu.pprof and heap.pprof
(allocation sites, sampled every -memprofilerate bytes), with -trace trace.out,
with -mutexprofile and -blockprofile mutex.pprof and block.pprof; then the
report's analysis of the run — hot spots at the module's lines, time by
category (gc and syscall included), allocation sites with the compiler's
escape verdicts, root causes, what to do first — as report.md,
report.html and report.json, with the kernel's figures beside them: wall,
user and system time, peak RSS, page faults. The directory is written
beside -out and takes its place when the run is done, so it holds that
run's files alone (no trace.out or variant directories of an earlier
run); a package that does not build leaves an earlier -out as it was, and
a -out that holds other files is refused.

The bytes and objects allocated are the runtime's exact count
(runtime.MemStats TotalAlloc and Mallocs, read at the program's end)
less perfloop's own. The sites come from the heap profile, which records
an allocation every -memprofilerate bytes on average: at the default
(512 KiB, the runtime's own rate, so the program runs at its usual speed)
a site of 50 MiB is within about 10%; -memprofilerate 1 records every
allocation (exact sites; a program that allocates much runs slower).
-memprofilerate 0 writes no heap profile: the bytes and objects
allocated are still the runtime's count, the sites are missing.

The runtime adds an allocation to the heap profile only at the end of
the second collection cycle after it, or after runtime.GC. A collection
before the final heap profile costs a program in proportion to the heap
it holds when it ends (a formatter holding 390 MB ran 15-20% longer in
CPU time), so by default (-finalgc auto) perfloop's wrapper estimates
that cost from the run's own cycles and collects when it is at most 3%
of the run's CPU time, or 5% when the profile would miss more than half
of the bytes allocated.
Without the collection the heap profile holds the run's completed
cycles, and the report says how much of the bytes allocated that is: the
sites' bytes are then shares of what it holds. -finalgc on always
collects, -finalgc off never (nor for the heap profile written at a
segment's end, below).

A return from main, os.Exit (or log.Fatal) in the module's own packages,
a panic, SIGINT and SIGTERM lose nothing: the build's copies of the
module's files that call os.Exit call a hook instead, which writes every
profile and then exits with the same status; the program still dies of
a signal it got, so the exit status is its own. For an os.Exit in
another module's code the CPU profile is also written in segments of
-segment (1s; the first ones shorter, from 100ms doubling): such an exit
loses at most the segment under way, and perfloop says how much of the
run's CPU time that was. A main package that starts its own
CPU profile gets none of perfloop's (-cpuprofile on to force it).

Variants: -rev BASE also builds the program as it is at git revision BASE
(in a scratch work tree) and runs both, side by side; -args given several
times runs each argument list (-runs times)
and shows time, CPU by category, allocation, GC share and page faults side
by side, with medians and intervals when -runs repeats them. Their output
is passed through as it comes; stdin is given only to a single run.

Run needs a Go main package; perfloop exec times any command.

Ctrl-C (SIGINT) or SIGTERM is passed on to the program; a program that
has not ended 2s later (it ignores or handles the signal) is killed, at
once on a second Ctrl-C. What the run collected is analysed and written
as above, and perfloop exits 130.

Exit status: the program's (128+N when it died of signal N); 2 on bad
flags or when PACKAGE is not a main package or does not build; 1 when
perfloop itself fails; 130 when interrupted.

Examples:

	perfloop run ./cmd/wc -- -mode lines big.txt
	perfloop run -out wc-run -memprofilerate 1 ./cmd/wc -- big.txt
	perfloop run -runs 5 -args '-mode lines big.txt' -args '-mode bytes big.txt' ./cmd/wc
	perfloop run -json ./cmd/wc -- big.txt > report.json
	perfloop run -rev HEAD -runs 5 ./cmd/wc -- big.txt
`

type runOptions struct {
	out            string
	json           bool
	tags           string
	variants       stringList
	runs           int
	memProfileRate int
	segment        time.Duration
	trace          bool
	mutex, block   bool
	cpu            string
	finalGC        string
	rev            string
}

// programExit is the program's exit status, which perfloop run exits
// with.
type programExit struct{ code int }

func (e programExit) Error() string { return fmt.Sprintf("the program exited with status %d", e.code) }

func runRun(ctx context.Context, args []string, s Streams) error {
	var opts runOptions
	fs := newFlagSet("run", runUsage, s)
	fs.StringVar(&opts.out, "out", "perfloop-run", "write the profiles and the report into `dir`")
	fs.BoolVar(&opts.json, "json", false, "print report.json to stdout (the program's stdout then goes to stderr)")
	fs.StringVar(&opts.tags, "tags", "", "build `tags`")
	fs.StringVar(&opts.rev, "rev", "", "also build and run the program as it is at git revision `rev` (a scratch work tree), side by side with the work tree")
	fs.Var(&opts.variants, "args", "run the program with these `arguments` (split as a shell would); repeat for variants side by side")
	fs.IntVar(&opts.runs, "runs", 1, "run each variant `n` times: medians, intervals, profiles merged")
	fs.IntVar(&opts.memProfileRate, "memprofilerate", 512*1024, "record an allocation every `bytes` bytes allocated, on average; 1 records every one, 0 none (no heap profile and no final collection) (default 524288: the Go runtime's own rate, so the program runs at its usual speed)")
	fs.StringVar(&opts.finalGC, "finalgc", "auto", "collect garbage before writing the final heap profile: `mode` auto (when its estimated cost is small), on or off")
	fs.DurationVar(&opts.segment, "segment", time.Second, "write the CPU profile in segments of `d`: an os.Exit outside the module's code loses at most one")
	fs.BoolVar(&opts.trace, "trace", false, "also write an execution trace, trace.out")
	fs.BoolVar(&opts.mutex, "mutexprofile", false, "also write a mutex contention profile, mutex.pprof")
	fs.BoolVar(&opts.block, "blockprofile", false, "also write a blocking profile, block.pprof")
	fs.StringVar(&opts.cpu, "cpuprofile", runprog.CPUAuto, "perfloop's CPU profile `mode`: auto (off when the program starts its own), on or off")
	// -cpu is a list of GOMAXPROCS values in every other command.
	deprecatedAlias(fs, "cpu", "cpuprofile", "-cpu is GOMAXPROCS values in the other commands", s.Err)
	pos, err := parseFlags(fs, args)
	if err != nil {
		if undefinedFlag(fs, args) {
			return usageErrorf("%v; the program's own flags go after --: perfloop run PACKAGE -- ARGS", err)
		}
		return err
	}
	if len(pos) == 0 {
		return usageErrorf("run: no package given (usage: perfloop run [flags] PACKAGE [-- ARGS...])")
	}
	switch {
	case opts.runs < 1:
		return usageErrorf("-runs must be at least 1, got %d", opts.runs)
	case opts.memProfileRate < 0:
		return usageErrorf("-memprofilerate must be 0 (no heap profile) or more, got %d", opts.memProfileRate)
	case opts.segment < 10*time.Millisecond:
		return usageErrorf("-segment must be at least 10ms, got %v", opts.segment)
	case opts.finalGC != "auto" && opts.finalGC != "on" && opts.finalGC != "off":
		return usageErrorf("-finalgc must be auto, on or off, got %q", opts.finalGC)
	case opts.cpu != runprog.CPUAuto && opts.cpu != runprog.CPUOn && opts.cpu != runprog.CPUOff:
		if strings.Trim(opts.cpu, "0123456789,") == "" {
			return usageErrorf("-cpuprofile must be auto, on or off, got %q; to run the program with GOMAXPROCS=N, set it in the environment", opts.cpu)
		}
		return usageErrorf("-cpuprofile must be auto, on or off, got %q", opts.cpu)
	}
	variants := [][]string{pos[1:]}
	if len(opts.variants) > 0 {
		if len(pos) > 1 {
			return usageErrorf("run: give the program's arguments after -- or with -args, not both")
		}
		variants = variants[:0]
		for _, a := range opts.variants {
			words, err := cmdbench.Split(a)
			if err != nil {
				return usageErrorf("-args %q: %v", a, err)
			}
			variants = append(variants, words)
		}
	}
	// The profiles and the report are written in a directory beside -out
	// that takes its place when the run is done (see outputDir).
	out, err := newOutputDir("-out", opts.out, runFile)
	if err != nil {
		return err
	}
	defer out.discard()
	cfg := runprog.Config{
		Package: pos[0], Tags: opts.tags, Variants: variants, Runs: opts.runs, Out: out.path(), Base: opts.rev,
		Stdin: s.In, Stdout: s.Out, Stderr: s.Err,
		MemProfileRate: opts.memProfileRate, NoHeap: opts.memProfileRate == 0, FinalGC: opts.finalGC, Segment: opts.segment, Trace: opts.trace, CPU: opts.cpu,
		Stage: func(msg string) { fmt.Fprintf(s.Err, "perfloop: %s\n", msg) },
		Kill:  interruptedAgain(ctx),
	}
	if opts.json {
		cfg.Stdout = s.Err
	}
	if opts.mutex {
		cfg.Mutex = 1
	}
	if opts.block {
		cfg.Block = 1
	}
	// An interrupted run returns what it collected with ctx's error: the
	// report is written, then perfloop exits 130.
	run, err := runprog.Run(ctx, cfg)
	if err != nil && (run == nil || run.Doc == nil) {
		var nm *program.NotMainError
		var be *program.BuildError
		if errors.As(err, &nm) || errors.As(err, &be) {
			return usageError{err}
		}
		return err
	}
	for _, n := range run.Notes {
		fmt.Fprintf(s.Err, "perfloop: %s\n", n)
	}
	if run.EscapeErr != nil {
		fmt.Fprintf(s.Err, "perfloop: escape analysis: %v (the report has no compiler verdicts)\n", run.EscapeErr)
	}
	for i := range run.Doc.Benchmarks {
		b := &run.Doc.Benchmarks[i]
		b.CPUProfile, b.HeapProfile = out.shown(b.CPUProfile), out.shown(b.HeapProfile)
	}
	for i := range run.Doc.Commands {
		run.Doc.Commands[i].Command = out.shown(run.Doc.Commands[i].Command)
	}
	title := "Run of " + run.Doc.Run.Package
	if _, err := render.WriteFiles(out.path(), run.Doc, render.Options{Flames: run.Flames, Title: title}); err != nil {
		return out.shownErr(err)
	}
	if _, err := out.commit(); err != nil {
		return err
	}
	if opts.json {
		if err := render.WriteJSON(s.Out, run.Doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(s.Err, "perfloop: wrote %s (also report.html, report.json, %s)\n", filepath.Join(opts.out, "report.md"), strings.Join(keptProfiles(run), ", "))
		if err := render.RunText(s.Err, run.Doc); err != nil {
			return err
		}
		if err := render.Summary(s.Err, run.Doc); err != nil {
			return err
		}
	}
	if err != nil {
		return err
	}
	if run.ExitCode != 0 {
		return programExit{run.ExitCode}
	}
	return nil
}

// runFile says whether a name in a run -out directory is one perfloop run
// writes there: the profiles, the trace, the report and the variants'
// numbered directories.
func runFile(name string, isDir bool) bool {
	if isDir {
		return isDigits(name)
	}
	switch name {
	case "cpu.pprof", "heap.pprof", "trace.out", "mutex.pprof", "block.pprof", "report.md", "report.html", "report.json":
		return true
	}
	return false
}

// keptProfiles names the profiles a run kept, under -out.
func keptProfiles(run *runprog.Result) []string {
	var out []string
	for _, b := range run.Doc.Benchmarks {
		for _, p := range []string{b.CPUProfile, b.HeapProfile} {
			if p != "" {
				out = append(out, p)
			}
		}
	}
	if len(out) == 0 {
		return []string{"no profiles"}
	}
	return out
}

// undefinedFlag reports whether args, before a "--", hold a flag fs does
// not define: most often the program's own flag, given before the "--".
func undefinedFlag(fs *flag.FlagSet, args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name != "" && name != "h" && name != "help" && fs.Lookup(name) == nil {
			return true
		}
	}
	return false
}
