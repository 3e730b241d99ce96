package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/render"
)

// traceUsage is perfloop trace's help text.
const traceUsage = `
usage: perfloop trace [flags] [packages]
       perfloop trace [flags] BASE [HEAD] [packages]

Trace runs every benchmark of the packages (default ./...) once under the
Go execution tracer (go test -trace), each in a process of its own, for a
fixed number of iterations — calibrated from a short first run so that
the trace covers about -tracetime of the benchmark's work (traced again
at the traced run's own pace when a stalled calibration made it cover
under a quarter of that), or -tracetime Nx — and summarizes the trace
with the public trace parser (golang.org/x/exp/trace): what a CPU
profile cannot say.

  - gc: collections, and the share of the Ps (GOMAXPROCS × wall) the
    collector took: mark workers, mark assists, stop-the-world pauses;
  - stw pauses: count, total and longest, by the runtime's reason;
  - sched latency: how long goroutines waited runnable before they ran
    (p50, p90, p99, max);
  - blocked: time goroutines spent blocked, by reason — channel, sync
    (mutexes, WaitGroup, Cond), syscall, network, gc, sleep, other;
  - peak: goroutines, running, in syscalls, threads, heap.

The testing package's own work (its forced collections before each run,
ReadMemStats pauses, waiting for the benchmark's goroutine) is left out;
docs/trace.md says how each figure is computed. -out DIR keeps the raw
traces as DIR/NAME.trace for go tool trace, written in a directory beside
DIR that takes its place once something was traced (as perfloop profile
-out does).

With a revision (BASE, and HEAD, which defaults to the work tree), both
revisions are checked out and built as perfloop diff does, each benchmark
is traced on both at BASE's iteration count, and a table shows each
figure on both sides with its change. Each side is one trace: the changes
are measurements, not verdicts (perfloop diff tests time for
significance).

Exit status: 0 when every benchmark was traced, 1 when any failed or a
package did not build, 2 on bad flags or revisions, 130 when interrupted.

Examples:

	perfloop trace ./...
	perfloop trace -json -bench Encode -tracetime 200ms ./codec
	perfloop trace -out traces -bench 'Pool$' ./... && go tool trace traces/BenchmarkPool.trace
	perfloop trace main ./...        # the work tree against branch main
`

type traceOptions struct {
	benchConfig
	traceTime  string
	out        string
	json       bool
	base, head string
}

func runTrace(ctx context.Context, args []string, s Streams) error {
	var opts traceOptions
	fs := newFlagSet("trace", traceUsage, s)
	opts.addTargetFlags(fs)
	fs.StringVar(&opts.traceTime, "tracetime", "1s", "trace about `d` of each benchmark's work (calibrated into a fixed iteration count), or Nx iterations")
	// Each benchmark runs once, for about -tracetime: what -benchtime
	// says in the other commands.
	alias(fs, "benchtime", "tracetime")
	fs.StringVar(&opts.out, "out", "", "keep the traces in `dir` as NAME.trace (for go tool trace)")
	alias(fs, "o", "out")
	fs.BoolVar(&opts.json, "json", false, "print perfloop.trace/v1 JSON to stdout")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if d, err := time.ParseDuration(opts.traceTime); err != nil && !isDigits(trimX(opts.traceTime)) || err == nil && d <= 0 || trimX(opts.traceTime) != "" && strings.TrimLeft(trimX(opts.traceTime), "0") == "" {
		return usageErrorf("-tracetime %q: want a positive duration (1s, 200ms) or an iteration count (1000x)", opts.traceTime)
	}
	// A revision comes first when the first argument is not a package
	// pattern; a second non-pattern argument is HEAD.
	if len(pos) > 0 && !looksLikePattern(pos[0]) {
		opts.base, pos = pos[0], pos[1:]
		if len(pos) > 0 && !looksLikePattern(pos[0]) {
			opts.head, pos = pos[0], pos[1:]
		}
	}
	opts.patterns, opts.count = pos, 1
	if err := opts.validate(); err != nil {
		return err
	}
	// The traces are kept in a directory beside -out that takes its place
	// once something was traced (see outputDir).
	var out *outputDir
	if opts.out != "" {
		if out, err = newOutputDir("-out", opts.out, traceFile); err != nil {
			return err
		}
		defer out.discard()
	}
	if opts.base != "" {
		return traceRevisions(ctx, opts, out, s)
	}
	return traceHere(ctx, opts, out, s)
}

// traceFile says whether a name in a trace -out directory is one perfloop
// trace writes there: NAME.trace, and base/ and head/ with revisions.
func traceFile(name string, isDir bool) bool {
	if isDir {
		return name == "base" || name == "head"
	}
	return strings.HasSuffix(name, ".trace")
}

// keepTraces ends the -out directory (keepOutput) and shows the traces'
// paths under it in doc.
func keepTraces(s Streams, out *outputDir, doc *document.Trace, err error) error {
	if out == nil {
		return nil
	}
	if doc != nil {
		for _, bs := range [][]document.TraceBenchmark{doc.Benchmarks, baseBenchmarks(doc)} {
			for i := range bs {
				bs[i].Trace = out.shown(bs[i].Trace)
			}
		}
	}
	return keepOutput(s, out, err, "traces")
}

func baseBenchmarks(doc *document.Trace) []document.TraceBenchmark {
	if doc.Base == nil {
		return nil
	}
	return doc.Base.Benchmarks
}

func (o *traceOptions) traceOptions(keep string) loop.TraceOptions {
	return loop.TraceOptions{TraceTime: o.traceTime, CPU: o.cpu, Timeout: o.timeout, Keep: keep}
}

// traceHere traces the module in the current directory, printing each
// benchmark as it finishes (or the JSON at the end).
func traceHere(ctx context.Context, opts traceOptions, out *outputDir, s Streams) error {
	bar := bar(s)
	defer bar.Done()
	suite, err := loop.Prepare(ctx, opts.loopConfig(), bar)
	if err != nil {
		return err
	}
	defer suite.Close()
	n := 0
	each := func(tb *document.TraceBenchmark) error {
		if opts.json {
			return nil
		}
		if n > 0 {
			fmt.Fprintln(s.Out)
		}
		n++
		shown := *tb
		if out != nil {
			shown.Trace = out.shown(shown.Trace)
		}
		return render.TraceBenchmarkText(s.Out, &shown)
	}
	keep := ""
	if out != nil {
		keep = out.path()
	}
	doc, err := suite.Trace(ctx, opts.traceOptions(keep), bar, each)
	bar.Done()
	if kerr := keepTraces(s, out, doc, err); kerr != nil && err == nil {
		err = kerr
	}
	if opts.json && doc != nil {
		if jerr := render.WriteJSON(s.Out, doc); jerr != nil && err == nil {
			err = fmt.Errorf("write JSON: %w", jerr)
		}
	}
	return traceStatus(s, opts, doc, len(suite.Targets), len(suite.Failed), err)
}

// traceRevisions traces BASE, then HEAD at BASE's iteration counts, and
// prints the comparison.
func traceRevisions(ctx context.Context, opts traceOptions, out *outputDir, s Streams) error {
	bar := bar(s)
	defer bar.Done()
	revs, err := buildRevisions(ctx, opts.base, opts.head, opts.tags, opts.patterns, opts.bench, bar)
	if err != nil {
		return err
	}
	defer revs.close()
	keep := func(side string) string {
		if out == nil {
			return ""
		}
		return out.path(side)
	}
	base, berr := loop.Trace(ctx, revs.sides[0].Suite, opts.traceOptions(keep("base")), bar, nil)
	if berr != nil && base == nil {
		return berr
	}
	to := opts.traceOptions(keep("head"))
	to.Iterations = map[document.BenchKey]int64{}
	for _, tb := range base.Benchmarks {
		if tb.Iterations > 0 {
			to.Iterations[document.BenchKey{Package: tb.Package, Name: tb.Name}] = tb.Iterations
		}
	}
	var doc *document.Trace
	err = berr
	if err == nil {
		doc, err = loop.Trace(ctx, revs.sides[1].Suite, to, bar, nil)
	}
	bar.Done()
	if doc == nil {
		doc = &document.Trace{Schema: document.TraceSchema, Benchmarks: []document.TraceBenchmark{}}
	}
	doc.Revision, doc.Commit = revs.sides[1].Label, revs.commits[1]
	doc.Date = time.Now().UTC().Format(time.RFC3339)
	doc.Base = &document.TraceSide{Revision: revs.sides[0].Label, Commit: revs.commits[0], Benchmarks: base.Benchmarks, Failures: base.Failures}
	if kerr := keepTraces(s, out, doc, err); kerr != nil && err == nil {
		err = kerr
	}
	var rerr error
	if opts.json {
		rerr = render.WriteJSON(s.Out, doc)
	} else {
		rerr = render.TraceCompareText(s.Out, doc)
	}
	if rerr != nil && err == nil {
		err = fmt.Errorf("write output: %w", rerr)
	}
	targets := len(revs.sides[0].Suite.Targets) + len(revs.sides[1].Suite.Targets)
	broken := len(revs.sides[0].Suite.Failed) + len(revs.sides[1].Suite.Failed)
	all := *doc
	all.Failures = append(append([]string{}, base.Failures...), doc.Failures...)
	return traceStatus(s, opts, &all, targets, broken, err)
}

// traceStatus prints a trace run's failures and decides the exit status.
func traceStatus(s Streams, opts traceOptions, doc *document.Trace, targets, broken int, err error) error {
	if doc != nil {
		for _, f := range doc.Failures {
			fmt.Fprintf(s.Err, "perfloop: %s\n", f)
		}
	}
	switch {
	case err != nil:
		return err
	case targets == 0 && broken == 0:
		return usageErrorf("no benchmarks match -bench %q in %s", opts.bench, strings.Join(opts.patterns, " "))
	case doc != nil && len(doc.Failures) > 0:
		return failedError{fmt.Sprintf("%d benchmark(s) or package(s) failed; the others were traced", len(doc.Failures))}
	}
	return nil
}
