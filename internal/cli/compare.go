package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

const compareUsage = `
usage: perfloop compare [flags] OLD NEW [MORE…]

Compare compares benchmark result files (go test -bench output, or
perfloop bench -o FILE) the way benchstat does: a table per unit (sec/op,
B/op, allocs/op, B/s and custom b.ReportMetric units) with each benchmark's
median ± 95% confidence interval per file, the change against the first
file, and the Mann-Whitney U p-value. Medians, intervals and p-values are
benchstat's own: the same golang.org/x/perf code computes them.

Unlike benchstat, a change is called significant only after the
Benjamini–Hochberg correction across the rows of each unit, so comparing
many benchmarks does not produce false alarms at a rate of 5% per row; and
every row says "faster", "slower" (or "better"/"worse" for B/op and
allocs/op) or "no significant change". Higher B/s is faster.

A file may be given as LABEL=PATH to name its column (each label names one
file); "-" reads standard input. A malformed line is reported with its
file and line, and the rest is still compared.

Exit status: 0 when the files were compared (whatever changed: perfloop
check is the gate), 2 on bad flags, a file that cannot be read or holds no
results (nothing is compared), or malformed lines (the rest is compared).

Examples:

	perfloop bench -o old.txt ./...
	# change the code
	perfloop bench -o new.txt ./...
	perfloop compare old.txt new.txt
	perfloop compare -json before=old.txt after=new.txt | jq '.rows[] | select(.significant)'
`

type compareOptions struct {
	files []string
	json  bool
	alpha float64
}

func runCompare(ctx context.Context, args []string, s Streams) error {
	var opts compareOptions
	fs := newFlagSet("compare", compareUsage, s)
	fs.BoolVar(&opts.json, "json", false, "print perfloop.compare/v1 JSON to stdout")
	fs.Float64Var(&opts.alpha, "alpha", stats.Alpha, "false discovery rate for the Benjamini–Hochberg correction")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	opts.files = files
	if len(opts.files) == 0 {
		return usageErrorf("compare: no result files given: give OLD and NEW result files (see perfloop help compare)")
	}
	if opts.alpha <= 0 || opts.alpha >= 1 {
		return usageErrorf("compare: -alpha must be between 0 and 1, got %g", opts.alpha)
	}
	return compare(opts, s)
}

func compare(opts compareOptions, s Streams) error {
	f, err := results.Read(opts.files)
	if err != nil {
		return usageError{err}
	}
	for _, e := range f.Errors {
		fmt.Fprintf(s.Err, "perfloop: %v\n", e)
	}
	if len(f.Empty) > 0 {
		return usageErrorf("compare: no benchmark results in %s (expected go test -bench output)", strings.Join(f.Empty, ", "))
	}
	tables, err := stats.Compare(f.Results, f.Units, stats.Options{Alpha: opts.alpha})
	if err != nil {
		return err
	}
	if opts.json {
		err = render.WriteJSON(s.Out, render.NewCompareJSON(tables))
	} else {
		err = render.CompareText(s.Out, tables, opts.alpha)
	}
	if err != nil {
		return err
	}
	if len(f.Errors) > 0 {
		return usageError{fmt.Errorf("%d malformed line(s) skipped; the first: %w", len(f.Errors), f.Errors[0])}
	}
	return nil
}
