package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/lint"
	"github.com/perfloop/perfloop/internal/render"
	"github.com/perfloop/perfloop/internal/results"
)

const lintUsage = `
usage: perfloop lint [flags] [packages]

Lint reads the benchmarks in the packages' _test.go files and reports the
mistakes that distort their numbers without showing in them: b.N used as a
size, a benchmark that never loops, setup timed before a b.N loop, a
result discarded in a b.N loop (the compiler may delete the call), a byte
buffer processed with no b.SetBytes, timer calls inside b.Loop, a
RunParallel body without pb.Next, b.Run inside a b.N loop, workers split
from b.N by hand, a benchmark named for a function it never calls, a
package variable left set for later benchmarks, the same slice handed
every iteration to a function that changes it in place, an input slice
made with a length and then appended to, a reader or request body made
once and drained by the first iteration, a container the first
iteration empties (removed from, never refilled), a benchmark whose body
is another's. Each finding says why it distorts the number and how to
fix it; where the fix is mechanical (a b.N loop whose counter is unused
→ for b.Loop()) it is offered as a suggested fix, which go vet -fix and
gopls apply.

-results FILE adds what the numbers themselves show (benchfmt results,
such as perfloop bench -o or go test -bench output): time per op below a
nanosecond, and bytes per op that fall as b.N grows.

The same analyzers run as a vet tool:

	go install github.com/perfloop/perfloop/cmd/perfloop-vet@latest
	go vet -vettool=$(which perfloop-vet) ./...

docs/lint.md lists each analyzer with an example.

Exit status: 0 when nothing is found, 1 when something is, 2 on bad flags,
a package that does not compile, or a results file that cannot be read or
holds no results.

Examples:

	perfloop lint ./...
	perfloop lint -json ./codec | jq '.diagnostics[].message'
	perfloop bench -count 5 -o new.txt ./... && perfloop lint -results new.txt ./...
`

func runLint(ctx context.Context, args []string, s Streams) error {
	fs := newFlagSet("lint", lintUsage, s)
	jsonOut := fs.Bool("json", false, "print perfloop.lint/v1: diagnostics[] with analyzer, benchmark, file, line, message, why, fix")
	tags := fs.String("tags", "", "comma-separated build `tags`")
	var resultFiles []string
	fs.Func("results", "also check the benchmark results in `file` (benchfmt; repeatable)", func(v string) error {
		resultFiles = append(resultFiles, v)
		return nil
	})
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	// The results files are input: read them before the analysis, so a
	// bad one is named at once.
	var evidence []document.LintDiagnostic
	if len(resultFiles) > 0 {
		f, err := results.Read(resultFiles)
		if err != nil {
			return usageError{err}
		}
		if len(f.Errors) > 0 {
			return usageErrorf("%v", f.Errors[0])
		}
		if len(f.Empty) > 0 {
			return usageErrorf("lint: no benchmark results in %s (expected go test -bench output)", strings.Join(f.Empty, ", "))
		}
		evidence = lint.Evidence(f.Results)
	}
	diags, broken, err := lint.Run(ctx, lint.Options{Tags: *tags}, nil, pos...)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return usageError{err}
	}
	for _, e := range broken {
		fmt.Fprintf(s.Err, "perfloop: %v (not analyzed)\n", e)
	}
	diags = append(diags, evidence...)
	if diags == nil {
		diags = []document.LintDiagnostic{}
	}
	if *jsonOut {
		err = render.WriteJSON(s.Out, document.Lint{Schema: document.LintSchema, Diagnostics: diags})
	} else {
		err = render.LintText(s.Out, diags)
	}
	if err != nil {
		return err
	}
	switch {
	case len(diags) > 0:
		return failedError{fmt.Sprintf("%d benchmark mistake(s) found", len(diags))}
	case len(broken) > 0:
		return failedError{fmt.Sprintf("%d package(s) not analyzed", len(broken))}
	}
	return nil
}
