package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/results"
)

const benchUsage = `
usage: perfloop bench [flags] [packages]

Bench runs the benchmarks of the packages (default ./...) the way a careful
engineer runs go test -bench: each package's test binary is built once,
then every benchmark runs in a process of its own, round-robin over the
benchmarks for -count rounds, so machine drift spreads over all of them and
a benchmark that panics, calls b.Fatal or hangs loses only its own results.
A package that does not compile is reported with the compiler's error and
the others still run.

The results are written in the Go benchmark format that benchstat and
perfloop compare read (to stdout, or to -o FILE as they finish, so Ctrl-C
keeps everything finished so far). With -o, stdout gets a summary table:
each benchmark's median ± 95% confidence interval.

Exit status: 0 when every benchmark ran, 1 when any failed, timed out or
did not build (the others' results are still written), 2 on bad flags,
130 when interrupted.

Examples:

	perfloop bench ./...
	perfloop bench -bench 'Encode|Decode' -count 10 -o new.txt ./codec
	perfloop bench -benchtime 100x -cpu 1,4 -json ./... > bench.json
`

type benchOptions struct {
	benchConfig
	out             string
	json            bool
	shard, storeDSN string
}

// benchConfig holds the flags that bench, profile, report and diff share.
type benchConfig struct {
	bench     string
	count     int
	benchtime string
	cpu       string
	tags      string
	timeout   time.Duration
	patterns  []string
	// positional are the arguments after the flags as given (patterns
	// is "./..." when there are none): fix -run's program arguments.
	positional []string
}

// addBenchFlags defines the benchmark-selection flags, spelled as the go
// command spells them: addTargetFlags, -benchtime, and -count when
// defaultCount is not 0 (countReason must say why it is that).
func (c *benchConfig) addBenchFlags(fs *flag.FlagSet, defaultCount int) {
	c.addTargetFlags(fs)
	if defaultCount > 0 {
		usage := "run each benchmark `n` times, round-robin"
		if why := countReason(defaultCount); why != "" {
			usage += fmt.Sprintf(" (default %d: %s)", defaultCount, why)
		}
		fs.IntVar(&c.count, "count", defaultCount, usage)
	}
	fs.StringVar(&c.benchtime, "benchtime", "", "run each benchmark for duration `d` or Nx iterations (go test's default 1s)")
}

// addTargetFlags defines -bench, -cpu, -tags and -timeout: which
// benchmarks run, how they are built, and when a run is killed.
func (c *benchConfig) addTargetFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.bench, "bench", ".", "run only benchmarks matching `regexp` (as go test -bench)")
	fs.StringVar(&c.cpu, "cpu", "", "`list` of GOMAXPROCS values to run each benchmark with")
	fs.StringVar(&c.tags, "tags", "", "comma-separated build `tags`")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Minute, "kill one benchmark run after `d`")
}

// countReason says why a command runs each benchmark n times by default:
// the counts differ because the commands do different things with the
// samples.
func countReason(n int) string {
	switch n {
	case 10:
		// bench: results to compare with perfloop compare or benchstat.
		return "benchstat's documented count for comparing two result files"
	case 6:
		// report, fix: a median and its interval per benchmark, with a
		// profile and the compiler's analysis to run as well.
		return "the fewest runs with a 95% confidence interval of the median"
	case 5:
		// record: one commit of a series; a shift is found on the pooled
		// samples of at least two commits on each side.
		return "history pools the samples of the commits on each side of a shift"
	}
	return ""
}

// parse parses args with fs (whose flags include c's), takes the
// positional arguments as package patterns and validates c. Commands
// without -count run each benchmark once.
func (c *benchConfig) parse(fs *flag.FlagSet, args []string) error {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	c.patterns = pos
	c.positional = pos
	if fs.Lookup("count") == nil {
		c.count = 1
	}
	return c.validate()
}

func (c *benchConfig) validate() error {
	if err := gotest.CheckPattern(c.bench); err != nil {
		return usageErrorf("-bench %q: %v; give a regular expression as go test -bench takes it", c.bench, err)
	}
	if c.count < 1 {
		return usageErrorf("-count must be at least 1, got %d", c.count)
	}
	if c.timeout <= 0 {
		return usageErrorf("-timeout must be positive, got %v", c.timeout)
	}
	if c.benchtime != "" {
		d, err := time.ParseDuration(c.benchtime)
		switch n := strings.TrimSuffix(c.benchtime, "x"); {
		case err == nil && d <= 0:
			return usageErrorf("-benchtime %q: want a positive duration (1s, 500ms) or an iteration count (100x)", c.benchtime)
		case err == nil:
		case n == c.benchtime || !isDigits(n):
			return usageErrorf("-benchtime %q: want a duration (1s, 500ms) or an iteration count (100x)", c.benchtime)
		case strings.TrimLeft(n, "0") == "":
			return usageErrorf("-benchtime %q: want at least 1 iteration (1x)", c.benchtime)
		}
	}
	if c.cpu != "" {
		for _, f := range strings.Split(c.cpu, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err != nil || n < 1 {
				return usageErrorf("-cpu %q: want a comma-separated list of GOMAXPROCS values of at least 1, such as 1,2,4", c.cpu)
			}
		}
	}
	if len(c.patterns) == 0 {
		c.patterns = []string{"./..."}
	}
	return nil
}

// loopConfig is c as the loop package takes it.
func (c *benchConfig) loopConfig() loop.Config {
	return loop.Config{Patterns: c.patterns, Bench: c.bench, Count: c.count, Benchtime: c.benchtime,
		CPU: c.cpu, Tags: c.tags, Timeout: c.timeout, Version: Version()}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func runBench(ctx context.Context, args []string, s Streams) error {
	var opts benchOptions
	fs := newFlagSet("bench", benchUsage, s)
	opts.addBenchFlags(fs, 10)
	fs.StringVar(&opts.out, "o", "", "write results to `file` instead of stdout")
	fs.BoolVar(&opts.json, "json", false, "print a perfloop.report/v1 JSON summary to stdout")
	fs.StringVar(&opts.shard, "shard", "", "run only part `i/n` of the benchmarks, balanced by the durations in -store")
	fs.StringVar(&opts.storeDSN, "store", "", "read past durations for -shard from `dsn` (default .perfloop/history.db, when it exists)")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	return bench(ctx, opts, s)
}

func bench(ctx context.Context, opts benchOptions, s Streams) (err error) {
	// Results go where asked as they finish; the summary and JSON come at
	// the end.
	var resultsOut io.Writer = s.Out
	if opts.out != "" {
		// Written beside -o and renamed over it only once something ran:
		// an earlier results file survives a failed build or a -bench
		// pattern that matches nothing.
		f, err := newAtomicFile(opts.out)
		if err != nil {
			return usageError{fmt.Errorf("create results file: %w", err)}
		}
		defer func() {
			if cerr := f.finish(f.written > 0); cerr != nil && err == nil {
				err = fmt.Errorf("write %s: %w", opts.out, cerr)
			}
		}()
		resultsOut = f
	} else if opts.json {
		resultsOut = io.Discard
	}
	w := results.NewWriter(resultsOut)

	bar := bar(s)
	defer bar.Done()
	cfg := opts.loopConfig()
	if cfg.Shard, err = shardOf(ctx, opts.shard, opts.storeDSN); err != nil {
		return err
	}
	suite, err := loop.Prepare(ctx, cfg, bar)
	if err != nil {
		return err
	}
	defer suite.Close()
	run, err := suite.Bench(ctx, loop.BenchOptions{Each: writeEach(w)}, bar)
	if len(suite.Targets) == 0 && suite.Matched > 0 && err == nil && len(run.BuildErrors) == 0 {
		// A CI matrix may have more shards than benchmarks.
		fmt.Fprintf(s.Err, "perfloop: shard %s has no benchmarks (the %d that -bench %q selects fall in the other shards)\n",
			cfg.Shard, suite.Matched, opts.bench)
		return nil
	}
	if len(suite.Targets) == 0 {
		return benchStatus(s, opts.benchConfig, run, err, "")
	}
	if werr := w.Trailer(run.Env); werr != nil && err == nil {
		err = fmt.Errorf("write results: %w", werr)
	}
	switch {
	case opts.json:
		if jerr := render.WriteJSON(s.Out, run.Document()); jerr != nil && err == nil {
			err = jerr
		}
	case opts.out != "":
		if terr := render.BenchSummary(s.Out, run.Document()); terr != nil && err == nil {
			err = terr
		}
	}
	return benchStatus(s, opts.benchConfig, run, err, "the others' results were written")
}

// benchStatus prints a bench run's failures and decides the exit status;
// others says what became of the rest.
func benchStatus(s Streams, cfg benchConfig, run *loop.BenchRun, err error, others string) error {
	for _, line := range run.FailureLines() {
		fmt.Fprintf(s.Err, "perfloop: %s\n", line)
	}
	if err != nil {
		return err
	}
	if n := run.Failed(); n > 0 {
		return failedError{fmt.Sprintf("%d of %d benchmarks failed; %s", n, len(run.Benchmarks), others)}
	}
	if len(run.Benchmarks) == 0 && len(run.BuildErrors) == 0 {
		return usageErrorf("no benchmarks match -bench %q in %s", cfg.bench, strings.Join(cfg.patterns, " "))
	}
	if len(run.BuildErrors) > 0 {
		return failedError{fmt.Sprintf("%d package(s) did not build", len(run.BuildErrors))}
	}
	return nil
}

// writeEach returns a callback that writes each run's results, and a
// failure line for a run that failed, to w as they arrive.
func writeEach(w *results.Writer) func(*results.Benchmark, *gotest.Outcome) error {
	return func(b *results.Benchmark, o *gotest.Outcome) error { return o.Write(w, b) }
}
