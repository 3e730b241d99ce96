package lint

import (
	"bytes"
	"fmt"
	"go/printer"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// Twins reports a benchmark whose body is another benchmark's, call for
// call: BenchmarkEchoStaticRoutesMisses running
// benchmarkEchoRoutes(b, staticRoutes), as BenchmarkEchoStaticRoutes does.
// Two names, one measurement: the second does not measure what its name
// says (the misses it names are never routed), and its numbers read as a
// result they are not.
var Twins = newAnalyzer("twins", "report a benchmark whose body is another benchmark's", func(pass *analysis.Pass, bn bench) {
	if len(bn.callers) > 0 || len(bn.body.List) == 0 || strings.Contains(bn.name, "/") {
		return
	}
	if name, _, _ := strings.Cut(strings.TrimPrefix(bn.name, "Benchmark"), "_"); name != "" {
		// Named for a function it never calls: misnamed says so.
		if target, ok := testedPackage(pass).Scope().Lookup(name).(*types.Func); ok && target.Exported() && !reaches(pass, bn.body, target, funcDeclsOf(pass), 2) {
			return
		}
	}
	bodies := benchBodies(pass)
	text := bodyText(pass, bn)
	first, ok := bodies[text]
	if !ok || first.name == bn.name {
		return
	}
	report(pass, bn.body, bn, fmt.Sprintf("its body is %s's, call for call", first.name),
		fmt.Sprintf("it measures what %s measures, whatever its name says: two names, one number", first.name),
		fmt.Sprintf("give it the input or the path its name names, or delete it and keep %s", first.name))
})

// twinBodies remembers per pass the first benchmark with each body.
var twinBodies sync.Map // *analysis.Pass → map[string]bench

// benchBodies returns the first top-level benchmark, in source order, of
// each body text in the pass.
func benchBodies(pass *analysis.Pass) map[string]bench {
	if v, ok := twinBodies.Load(pass); ok {
		return v.(map[string]bench)
	}
	out := map[string]bench{}
	for _, bn := range benchmarks(pass) {
		if len(bn.callers) > 0 || len(bn.body.List) == 0 || strings.Contains(bn.name, "/") {
			continue
		}
		if _, ok := out[bodyText(pass, bn)]; !ok {
			out[bodyText(pass, bn)] = bn
		}
	}
	twinBodies.Store(pass, out)
	return out
}

// bodyText prints a benchmark's body (comments left out).
func bodyText(pass *analysis.Pass, bn bench) string {
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, pass.Fset, bn.body); err != nil {
		return bn.name // unprintable: no twin
	}
	return buf.String()
}
