package results

import (
	"golang.org/x/perf/benchfmt"
)

// Status says how a benchmark run ended.
type Status string

// The statuses of a benchmark.
const (
	StatusOK      Status = "ok"      // every run produced results
	StatusFailed  Status = "failed"  // panicked, called b.Fatal, exited non-zero or did not build
	StatusTimeout Status = "timeout" // killed at the time limit
	StatusSkipped Status = "skipped" // called b.Skip
)

// Benchmark is one top-level benchmark function of one package and everything
// measured for it across rounds.
type Benchmark struct {
	Package string // import path
	Name    string // top-level name, with the Benchmark prefix: "BenchmarkEncode"
	Status  Status
	// Error is the first failure, as one line: the panic message or the
	// b.Fatal text, with the file:line of the benchmark frame.
	Error string
	// Results holds every result line the benchmark produced, sub-benchmarks
	// and -cpu variants included, in the order measured.
	Results []*benchfmt.Result
}

// Fail records a failure of b: the first failure's error is kept, and a
// timeout is not downgraded to a plain failure.
func (b *Benchmark) Fail(status Status, msg string) {
	if b.Status == StatusOK || b.Status == StatusSkipped || b.Status == "" {
		b.Status = status
		b.Error = msg
	}
}

// Env describes where and from what a set of results was measured.
type Env struct {
	Module    string // main module path
	GoVersion string // toolchain that built the benchmarks, e.g. "go1.26.8"
	GOOS      string
	GOARCH    string
	CPU       string
	// Build is how the benchmarks were built, as far as that changes
	// their machine code ("-race=true CGO_ENABLED=0"; see
	// gotest.Toolchain.CodeSettings): "" for a plain build.
	Build    string
	Commit   string // VCS revision of the module, "" outside a repository
	Dirty    bool   // the work tree had uncommitted changes
	Date     string // RFC 3339, when the run started
	Perfloop string // perfloop's version
}
