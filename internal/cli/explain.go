package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/report"
)

const explainUsage = `
usage: perfloop explain [flags] [packages]

Explain says why each hot allocation happens. It profiles every benchmark's
heap (every allocation recorded), runs the compiler's escape analysis on the
packages (go build -gcflags=-m=2, parsed), and joins each allocation site
(file:line) with the compiler's verdict for that line and its flow — "moved
to heap: hdr" because hdr[:] is passed to w.Write — or, where the compiler
says nothing in words, with the cause it can see in the code and the
profile: a make whose size is not a constant, append growth, string
concatenation, []byte↔string conversion, boxing into an interface for
fmt, map growth, closures. Each comes with the usual fix.

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
	fs.Float64Var(&opts.share, "min-share", 0.05, "explain sites with at least this `fraction` of a benchmark's bytes or objects")
	if err := opts.parse(fs, args); err != nil {
		return err
	}
	if !(opts.share >= 0 && opts.share <= 1) {
		return usageErrorf("-min-share must be a fraction between 0 and 1 (0.05 is 5%%), got %g", opts.share)
	}
	popts := loop.ProfileOptions{MemRate: 1, Hotspots: 10, Sites: 10}
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
	if opts.json {
		if err := report.WriteJSON(s.Out, run.Doc); err != nil {
			return err
		}
	} else {
		printExplanations(s, run.Doc, opts.share)
	}
	return profileStatus(s, opts.benchConfig, run, nil, "the others were explained")
}

func printExplanations(s Streams, doc *document.Report, minShare float64) {
	last := ""
	for _, a := range doc.Allocations {
		if a.BytesShare < minShare && a.ObjectsShare < minShare {
			continue
		}
		// Two packages may have benchmarks of one name: each gets its
		// own header.
		if key := a.Package + " " + a.Benchmark; key != last {
			if last != "" {
				fmt.Fprintln(s.Out)
			}
			fmt.Fprintf(s.Out, "%s  %s\n", a.Benchmark, a.Package)
			last = key
		}
		where := fmt.Sprintf("%s:%d", filepath.ToSlash(a.File), a.Line)
		fmt.Fprintf(s.Out, "  %s  %.0f%% of bytes, %.0f%% of objects  %s\n", where, 100*a.BytesShare, 100*a.ObjectsShare, shortFunc(a.Function))
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
}

func shortFunc(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[i+1:]
	}
	return name
}
