package report

// ReportSchema names version 1 of the report JSON contract.
const ReportSchema = "perfloop.report/v1"

// ReportJSON is the perfloop.report/v1 document (report.json): the
// environment, the benchmarks with their metrics, and, from profile and
// report, where time and memory go and what to do about it. Field names are
// a contract: add fields, never rename them.
type ReportJSON struct {
	Schema     string          `json:"schema"`
	Module     string          `json:"module"`
	GoVersion  string          `json:"go_version"`
	GOOS       string          `json:"goos"`
	GOARCH     string          `json:"goarch"`
	CPU        string          `json:"cpu"`
	Commit     string          `json:"commit"`
	Date       string          `json:"date,omitempty"`
	Benchmarks []BenchmarkJSON `json:"benchmarks"`
	// Packages lists packages that could not be benchmarked (go list
	// errors, build failures).
	Packages []PackageJSON `json:"packages,omitempty"`
}

// BenchmarkJSON is one benchmark (one full name: sub-benchmarks are their
// own entries) with its metrics.
type BenchmarkJSON struct {
	Package string `json:"package"`
	// Name keeps the Benchmark prefix and drops the -GOMAXPROCS suffix,
	// which is in Procs.
	Name    string             `json:"name"`
	Procs   int                `json:"procs,omitempty"`
	Status  string             `json:"status"`
	Error   string             `json:"error,omitempty"`
	Metrics map[string]*Metric `json:"metrics"`
	// TestAllocShare is the share of allocated bytes whose allocating
	// frame is in a _test.go file; set by profile.
	TestAllocShare *float64 `json:"test_alloc_share,omitempty"`
}

// PackageJSON is a package that could not be benchmarked.
type PackageJSON struct {
	Package string `json:"package"`
	Status  string `json:"status"`
	Error   string `json:"error"`
}
