package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/render"
)

const explainUsage = `
usage: perfloop explain [flags] [packages]

Explain says why each hot allocation happens. It measures what every
benchmark's timed loop allocates per op — two heap profiles at fixed
iteration counts, every allocation recorded, subtracted, so the setup's
allocations and the testing package's own cancel out — runs the compiler's
escape analysis on the packages (go build -gcflags=-m=2, parsed), and
joins each allocation site in the module's code (file:line) with the
compiler's verdict for that line and its flow — "moved to heap: hdr"
because hdr[:] is passed to w.Write — or, where the compiler says nothing
in words, with the cause it can see in the code and the profile: a make
whose size is not a constant, append growth, string concatenation,
[]byte↔string conversion, boxing into an interface for fmt, map growth,
closures. Each comes with the advice perfloop report gives for the same
site: what the code at the line does and the fix that fits it, when one of
the matchers of internal/site recognises its shape (an append that grows a
slice whose length is known, a Sprintf of plain integers, a constant
regexp compiled per call, a buffer made per iteration), otherwise the fix
that fits the compiler's reason. A benchmark at 0 allocs/op is said to
allocate nothing per op.

Exit status: 0 when every benchmark ran, 1 when any failed, 2 on bad
flags, 130 when interrupted.

Examples:

	perfloop explain ./...
	perfloop explain -bench Encode -json ./codec
`

type explainOptions struct {
	benchConfig
	json  bool
	share float64
}

func runExplain(ctx context.Context, args []string, s Streams) error {
	var opts explainOptions
	fs := newFlagSet("explain", explainUsage, s)
	opts.addBenchFlags(fs, 0)
	fs.BoolVar(&opts.json, "json", false, "print perfloop.report/v1 JSON (benchmarks and allocations with escape verdicts)")
	opts.share = 0.05
	fs.Var((*shareValue)(&opts.share), "min-share", "explain sites with at least this `share` of a benchmark's per-op bytes or objects (0.05 or 5%)")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	popts := loop.ProfileOptions{HeapPerOp: true, Sites: 10}
	run, err := profileSuite(ctx, opts.benchConfig, popts, s, nil)
	if run == nil {
		return err
	}
	if err != nil {
		return err
	}
	ix, err := loop.Escapes(ctx, opts.loopConfig())
	if err == nil {
		err = loop.Explain(ctx, "", run.Doc, ix)
	}
	if err != nil {
		return fmt.Errorf("escape analysis: %w", err)
	}
	// The advice for each site is the report's: the shape of code at its
	// line, or the fix that fits the compiler's reason.
	run.Doc.Shapes = loop.Shapes(ctx, opts.loopConfig(), run.Doc)
	loop.AdviseSites(run.Doc)
	if opts.json {
		if err := render.WriteJSON(s.Out, run.Doc); err != nil {
			return err
		}
	} else {
		printExplanations(s, run.Doc, opts.share)
	}
	return profileStatus(s, opts.benchConfig, run, nil, "the others were explained")
}

func printExplanations(s Streams, doc *document.Report, minShare float64) {
	type key struct{ pkg, name string }
	sites := map[key][]document.Allocation{}
	for _, a := range doc.Allocations {
		if a.BytesShare >= minShare || a.ObjectsShare >= minShare {
			k := key{a.Package, a.Benchmark}
			sites[k] = append(sites[k], a)
		}
	}
	n := 0
	for _, b := range doc.Benchmarks {
		// Two packages may have benchmarks of one name: each gets its
		// own header.
		as := sites[key{b.Package, b.Name}]
		nothing := len(as) == 0 && b.LoopBytesPerOp != nil && *b.LoopBytesPerOp == 0
		if len(as) == 0 && !nothing {
			continue
		}
		if n > 0 {
			fmt.Fprintln(s.Out)
		}
		n++
		fmt.Fprintf(s.Out, "%s  %s\n", b.Name, b.Package)
		if nothing {
			allocs := "0"
			if m := b.Metrics["allocs/op"]; m != nil {
				allocs = fmt.Sprintf("%.4g", m.Median)
			}
			fmt.Fprintf(s.Out, "  nothing allocated per op (%s allocs/op); the run's allocations are setup, outside the timed loop\n", allocs)
		}
		for _, a := range as {
			printSite(s, a)
		}
	}
}

// printSite prints one allocation site and why it allocates.
func printSite(s Streams, a document.Allocation) {
	where := fmt.Sprintf("%s:%d", filepath.ToSlash(a.File), a.Line)
	perOp := ""
	// Bytes only: the profile counts tiny objects (under 16 B, no
	// pointers) by the 16-byte blocks that hold them, so its objects per
	// op can be a fraction of the benchmark's allocs/op.
	if a.BytesPerOp > 0 {
		perOp = fmt.Sprintf(" (%s B per op)", perOpNumber(a.BytesPerOp))
	}
	fmt.Fprintf(s.Out, "  %s  %.0f%% of bytes, %.0f%% of objects%s  %s\n", where, 100*a.BytesShare, 100*a.ObjectsShare, perOp, document.ShortFunc(a.Function))
	if e := a.Escape; e != nil {
		if e.Reason != "" {
			fmt.Fprintf(s.Out, "    why: %s\n", e.Reason)
		}
		if e.Verdict != "" && e.Verdict != e.Reason {
			fmt.Fprintf(s.Out, "    compiler: %s\n", e.Verdict)
		}
		for _, f := range e.Flow {
			fmt.Fprintf(s.Out, "      %s\n", strings.TrimSpace(f))
		}
		if e.Fix != "" {
			fmt.Fprintf(s.Out, "    fix: %s\n", e.Fix)
		}
	}
}

// perOpNumber prints a per-op figure with three significant digits, a
// large one whole: 0.5, 4, 256, 199808.
func perOpNumber(v float64) string {
	if v >= 1000 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}
