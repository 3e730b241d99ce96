package document

import "github.com/perfloop/perfloop/internal/stats"

// Schema names version 1 of the report JSON contract.
const Schema = "perfloop.report/v1"

// Report is the perfloop.report/v1 document (report.json): the
// environment, the benchmarks with their metrics, and, from profile and
// report, where time and memory go and what to do about it. Field names are
// a contract: add fields, never rename them.
type Report struct {
	Schema     string      `json:"schema"`
	Module     string      `json:"module"`
	GoVersion  string      `json:"go_version"`
	GOOS       string      `json:"goos"`
	GOARCH     string      `json:"goarch"`
	CPU        string      `json:"cpu"`
	Commit     string      `json:"commit"`
	Date       string      `json:"date,omitempty"`
	Benchmarks []Benchmark `json:"benchmarks"`
	// Packages lists packages that could not be benchmarked (go list
	// errors, build failures).
	Packages []Package `json:"packages,omitempty"`
	// Hotspots, Categories and Allocations come from the benchmarks'
	// profiles (perfloop profile and report).
	Hotspots    []Hotspot    `json:"hotspots,omitempty"`
	Categories  []Category   `json:"categories,omitempty"`
	Allocations []Allocation `json:"allocations,omitempty"`
	// GOMAXPROCS, Count and Benchtime say how the benchmarks were run:
	// the -cpu value, the runs per benchmark and -benchtime.
	GOMAXPROCS int    `json:"gomaxprocs,omitempty"`
	Count      int    `json:"count,omitempty"`
	Benchtime  string `json:"benchtime,omitempty"`
	// Findings are what the rules found, most severe first; set by report.
	Findings []Finding `json:"findings,omitempty"`
	// Gate is the decision gate: what to optimize first, what to
	// consider, and what not to touch; set by report.
	Gate []Gate `json:"gate,omitempty"`
	// Scaling holds the fitted growth of benchmarks measured at several
	// sizes (sub-benchmarks named param=value).
	Scaling []Scaling `json:"scaling,omitempty"`
	// Commands are the exact commands that reproduce the report's
	// figures by hand.
	Commands []Command `json:"commands,omitempty"`
}

// Severities of a finding, most severe first.
const (
	SeverityHigh   = "high"
	SeverityMedium = "medium"
	SeverityLow    = "low"
	SeverityInfo   = "info"
)

// Finding is one thing a rule found: where in the code (File and Line,
// relative to the module root), what it costs (Message) and the fix
// pattern that usually removes it (Suggestion).
type Finding struct {
	// Kind names the rule's family: "escape", "alloc", "maps", "gc",
	// "test-code", …
	Kind string `json:"kind"`
	// Severity is one of the Severity* constants.
	Severity   string `json:"severity"`
	Benchmark  string `json:"benchmark"`
	Function   string `json:"function"`
	File       string `json:"file"`
	Line       int64  `json:"line"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion"`
}

// Verdicts of the decision gate.
const (
	// VerdictFirst: optimize this first; the measurement says it pays.
	VerdictFirst = "first"
	// VerdictConsider: worth a look once the firsts are done.
	VerdictConsider = "consider"
	// VerdictDontTouch: below the threshold; changing it buys nothing
	// measurable and costs clarity.
	VerdictDontTouch = "don't touch"
)

// Gate is one decision of the gate: a rule compared a measured value
// with its threshold and gave a verdict.
type Gate struct {
	Rule      string `json:"rule"`
	Benchmark string `json:"benchmark,omitempty"`
	// Metric is what was measured: a CPU category ("gc", "maps"), a unit
	// ("allocs/op", "B/op") or a share ("test_alloc_share").
	Metric string `json:"metric"`
	// Unit is the unit of Measured and Threshold: "share" for fractions
	// 0..1, otherwise a benchmark unit such as "sec/op" or "allocs/op".
	Unit      string  `json:"unit,omitempty"`
	Measured  float64 `json:"measured"`
	Threshold float64 `json:"threshold"`
	// Verdict is one of the Verdict* constants.
	Verdict string `json:"verdict"`
	// Message says why, in a sentence.
	Message string `json:"message"`
}

// Scaling is how a benchmark's time grows with a parameter of its
// sub-benchmarks ("BenchmarkSort/n=10", "…/n=1000"): a power law
// time ≈ c·n^Exponent fitted over the sizes measured.
type Scaling struct {
	Benchmark string `json:"benchmark"`
	Parameter string `json:"parameter"`
	// Growth is the nearest familiar order: "~1", "~log n", "~√n", "~n",
	// "~n log n", "~n²", "~n³".
	Growth   string  `json:"growth"`
	Exponent float64 `json:"exponent"`
	// R2 is the fit's coefficient of determination on log-log axes.
	R2 float64 `json:"r2"`
}

// Command is a command that reproduces one of the report's figures
// by hand, with the standard tools.
type Command struct {
	// What says which figure: "CPU profile of BenchmarkCount".
	What    string `json:"what"`
	Command string `json:"command"`
}

// Benchmark is one benchmark (one full name: sub-benchmarks are their
// own entries) with its metrics.
type Benchmark struct {
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
	// CallPath is the dominant call path of the CPU profile; set by
	// profile.
	CallPath *CallPath `json:"call_path,omitempty"`
	// CPUProfile and HeapProfile are where profile -out kept the
	// profiles.
	CPUProfile  string `json:"cpu_profile,omitempty"`
	HeapProfile string `json:"heap_profile,omitempty"`
	// ProfileError says why a benchmark that ran has no profile.
	ProfileError string `json:"profile_error,omitempty"`
}

// Package is a package that could not be benchmarked.
type Package struct {
	Package string `json:"package"`
	Status  string `json:"status"`
	Error   string `json:"error"`
}

// Hotspot is one function's share of a benchmark's CPU profile, as
// `go tool pprof -top` computes flat and cum.
type Hotspot struct {
	Benchmark string `json:"benchmark"`
	Package   string `json:"package,omitempty"`
	Function  string `json:"function"`
	// File and Line are the function's hottest line.
	File string  `json:"file"`
	Line int64   `json:"line"`
	Flat float64 `json:"flat"`
	Cum  float64 `json:"cum"`
}

// Category is the share of a benchmark's CPU samples in one category
// (gc, scheduler, syscall, memory, maps, strings, fmt, reflect, encoding,
// compression, crypto, regexp, sort, application, other).
type Category struct {
	Benchmark string  `json:"benchmark"`
	Package   string  `json:"package,omitempty"`
	Category  string  `json:"category"`
	Share     float64 `json:"share"`
}

// Allocation is a line that allocates, from a benchmark's heap
// profile: what it allocated over the whole run and its shares of the
// benchmark's bytes and objects.
type Allocation struct {
	Benchmark string `json:"benchmark"`
	Package   string `json:"package,omitempty"`
	Function  string `json:"function"`
	File      string `json:"file"`
	Line      int64  `json:"line"`
	// Via is the function the line calls that allocated, when the
	// allocation is in a callee outside the runtime ("fmt.Sprintf").
	// CallerFile and CallerLine are the line the site's function was
	// inlined into, when it was.
	CallerFile   string  `json:"caller_file,omitempty"`
	CallerLine   int64   `json:"caller_line,omitempty"`
	Via          string  `json:"via,omitempty"`
	Bytes        int64   `json:"bytes"`
	Objects      int64   `json:"objects"`
	BytesShare   float64 `json:"bytes_share"`
	ObjectsShare float64 `json:"objects_share"`
	InTest       bool    `json:"in_test"`
	// Escape is the compiler's escape-analysis verdict for the line; set
	// by explain and report.
	Escape *Escape `json:"escape,omitempty"`
}

// Escape is the compiler's escape-analysis verdict for a line and the
// flow that led to it.
type Escape struct {
	// Verdict is the compiler's words ("moved to heap: hdr"), or the
	// plain-words reason when the compiler says nothing on the line.
	Verdict string   `json:"verdict"`
	Flow    []string `json:"flow,omitempty"`
	// Cause names why the line allocates (escape.Cause: "moved-to-heap",
	// "interface", "variable-make", "append", "concat", "conversion",
	// "map", "closure", "escapes", "callee", "unknown").
	Cause string `json:"cause,omitempty"`
	// Reason says it in one line of plain words; Name is the variable or
	// expression that allocates; Fix is the usual fix pattern.
	Reason string `json:"reason,omitempty"`
	Name   string `json:"name,omitempty"`
	Fix    string `json:"fix,omitempty"`
}

// CallPath is the dominant call path of a benchmark: from the benchmark
// function down to its hottest leaf.
type CallPath struct {
	// Text is the path as a person writes it: "Build → Find → rank".
	Text string `json:"text"`
	// Functions are the frames' full names, outermost first.
	Functions []string `json:"functions"`
	// Share is the share of the CPU samples that run the whole path.
	Share float64 `json:"share"`
}

// Metric is a summary of one metric: the median and its confidence
// interval. Low and High are null when there are too few values for an
// interval.
type Metric struct {
	Median float64  `json:"median"`
	Low    *float64 `json:"low"`
	High   *float64 `json:"high"`
	N      int      `json:"n"`
}

// NewMetric converts a stats.Summary for JSON, where infinities have no
// encoding.
func NewMetric(s stats.Summary) *Metric {
	m := &Metric{Median: s.Median, N: s.N}
	if s.Finite() {
		lo, hi := s.Low, s.High
		m.Low, m.High = &lo, &hi
	}
	return m
}
