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
	// Op says what one op of a benchmark entry is: OpIteration (empty),
	// an iteration of a benchmark's loop, or OpRun, one run of a program
	// (perfloop run), which findings and the report then say "per run"
	// of, never "/op".
	Op Op `json:"op,omitempty"`
	// Packages lists packages that could not be benchmarked (go list
	// errors, build failures).
	Packages []Package `json:"packages,omitempty"`
	// Hotspots, Categories and Allocations come from the benchmarks'
	// profiles (perfloop profile and report).
	Hotspots []Hotspot `json:"hotspots,omitempty"`
	// Lines are the CPU costs at the module's own lines, per benchmark.
	Lines []LineCost `json:"line_costs,omitempty"`
	// Phases are what a program's run fans out into (perfloop run), per
	// benchmark entry: see Phase.
	Phases []Phase `json:"phases,omitempty"`
	// NotInlined lists the module's hot functions the compiler did not
	// inline for their cost.
	NotInlined []NotInlined `json:"not_inlined,omitempty"`
	// MainPackages lists the module's main packages among those measured
	// or in the module: where profile-guided optimization applies.
	MainPackages []string `json:"main_packages,omitempty"`
	// TestSupport lists the module's packages that none of its other
	// packages import, only its tests and main programs (an example
	// decoder a benchmark runs): their costs are not the module's API.
	TestSupport []string `json:"test_support,omitempty"`
	// Lint holds the benchmark mistakes perfloop lint finds in the
	// measured packages' source.
	Lint []LintFinding `json:"lint,omitempty"`
	// PGO is what perfloop pgo last measured in this module, if it ran.
	PGO         *PGOSummary     `json:"pgo,omitempty"`
	Categories  []CategoryShare `json:"categories,omitempty"`
	Allocations []Allocation    `json:"allocations,omitempty"`
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
	// MeasureSeconds is the wall time of the benchmark and profile runs,
	// AnalysisSeconds the time spent after them (analysis, findings).
	MeasureSeconds  float64 `json:"measure_seconds,omitempty"`
	AnalysisSeconds float64 `json:"analysis_seconds,omitempty"`
	// Timing says where the report's time went, stage by stage.
	Timing *Timing `json:"timing,omitempty"`
	// SpareCores is how many of the machine's cores sat idle, on
	// average, while the benchmarks and their profiles ran (Linux's
	// /proc/stat; absent elsewhere). Near zero, other processes took
	// the cores: a benchmark's CPU profile sampling little of a core is
	// then no evidence that it waits.
	SpareCores *float64 `json:"spare_cores,omitempty"`
	// Commands are the exact commands that reproduce the report's
	// figures by hand.
	Commands []Command `json:"commands,omitempty"`
	// Run holds perfloop run's figures: the program's exits, times, peak
	// RSS and page faults per variant. Its variants are the benchmarks.
	Run *Run `json:"run,omitempty"`
	// Shapes are the shapes of code recognised at the module's hot lines
	// (internal/site): what the findings' advice comes from.
	Shapes []Shape `json:"shapes,omitempty"`
}

// Op is what one op of a benchmark entry is.
type Op string

// The ops a document's figures are per.
const (
	OpIteration Op = ""    // an iteration of a benchmark's loop: "/op"
	OpRun       Op = "run" // one run of a program: "per run"
)

// Finding is one root cause: where in the code (File and Line, relative to
// the module root, and the Related lines of the same cause), what it costs
// in every benchmark it touches (Costs) and why (Message, Evidence), the
// fix that fits the code (Suggestion) and what removing it should buy
// (Gain).
type Finding struct {
	// Kind names the cause's family (the Kind* constants).
	Kind Kind `json:"kind"`
	// Rule names the rule that fired (the Rule* constants): what a
	// test or a program asks about a finding, never its Message.
	Rule Rule `json:"rule,omitempty"`
	// Severity is one of the Severity* constants.
	Severity Severity `json:"severity"`
	// Section is where the document shows it (the Section* constants).
	Section Section `json:"section,omitempty"`
	// Benchmark is the benchmark it costs most; Benchmarks all of them.
	Benchmark  string   `json:"benchmark"`
	Benchmarks []string `json:"benchmarks,omitempty"`
	Function   string   `json:"function"`
	File       string   `json:"file"`
	Line       int64    `json:"line"`
	// Related are the other lines of the same root cause.
	Related    []Location `json:"related,omitempty"`
	Message    string     `json:"message"`
	Suggestion string     `json:"suggestion"`
	// Shape names the code shape at the line the suggestion comes from
	// (a site matcher's name: "append-unsized", "regexp-twice"), when
	// one matched.
	Shape string `json:"shape,omitempty"`
	// Generic reports a suggestion that comes from the cost's category
	// (what such a call usually needs), not from the code at the line.
	Generic bool `json:"generic,omitempty"`
	// NoChange marks a root cause that names no change: its function's
	// own work on what it is given, or its own algorithm in its
	// category's words. Such causes follow every cause that names one,
	// under a heading of their own: where the rest of the time goes, not
	// a fix to make first.
	NoChange bool `json:"no_change,omitempty"`
	// Shapes are the shapes of code at the cause's lines that explain
	// its cost, the one the suggestion comes from first: perfloop fix
	// tries the rewrites among them.
	Shapes []ShapeRef `json:"shapes,omitempty"`
	// Costs are what the cause accounts for, per benchmark.
	Costs []Cost `json:"costs,omitempty"`
	// Impact is the estimated share of its costliest benchmark's CPU time
	// the cause accounts for: what ranks findings.
	Impact float64 `json:"impact,omitempty"`
	// ProductionShare is the share of a production profile's cost in the
	// cause's function (report -production): what ranks the findings
	// then, a share below the minimum marking the cause cold in
	// production.
	ProductionShare *float64 `json:"production_share,omitempty"`
	// Gain says in words what removing the cause should buy.
	Gain string `json:"gain,omitempty"`
	// Evidence lists the measurements the finding rests on.
	Evidence []string `json:"evidence,omitempty"`
	// Tried is what perfloop fix tried at the cause (report -from-fix):
	// empty when it tried nothing there.
	Tried []Tried `json:"tried,omitempty"`
}

// ConstructorNote begins the note of a built-per-op shape's related
// location, the declaration of the constructor a benchmark calls in its
// loop; the constructor's full name follows.
const ConstructorNote = "the constructor "

// SingleNodeNote marks, among a node-chunks shape's related lines, a call
// of the node constructor that makes one node per call of its function:
// outside any loop, in a function on no call cycle of the package (orb's
// newFeatureDoc wrapping one feature's geometry for its encoding). The
// nodes made there are trees of one: no chunk to share.
const SingleNodeNote = "one node per call of this function"

// Location is one more line of a finding's root cause.
type Location struct {
	File     string `json:"file"`
	Line     int64  `json:"line"`
	Function string `json:"function,omitempty"`
	// Note says what happens on this line.
	Note string `json:"note,omitempty"`
}

// Cost is what a root cause accounts for in one benchmark: a share of its
// CPU time, and the bytes and allocations per op of its sites.
type Cost struct {
	Benchmark   string  `json:"benchmark"`
	CPUShare    float64 `json:"cpu_share,omitempty"`
	SecPerOp    float64 `json:"sec_per_op,omitempty"`
	BytesPerOp  float64 `json:"bytes_per_op,omitempty"`
	AllocsPerOp float64 `json:"allocs_per_op,omitempty"`
	// AllocShare is the larger of the cause's shares of the benchmark's
	// allocated bytes and objects.
	AllocShare float64 `json:"alloc_share,omitempty"`
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

// Scaling is how a benchmark's time grows with a parameter. Parameter
// "cpu" is a concurrent benchmark run at several core counts (-cpu 1, 2,
// …, GOMAXPROCS): CPU, NsPerOp and Efficiency, with the lock sites and the
// lines whose cost grows with the cores. Any other parameter is a
// sub-benchmark parameter ("BenchmarkSort/n=10", "…/n=1000"): a power law
// time ≈ c·n^Exponent fitted over the sizes measured.
type Scaling struct {
	Benchmark string `json:"benchmark"`
	Package   string `json:"package,omitempty"`
	Parameter string `json:"parameter"`
	// Growth is the nearest familiar order: "~1", "~log n", "~√n", "~n",
	// "~n log n", "~n²", "~n³"; for cores, "linear" (efficiency at least
	// 0.8), "sublinear", "flat" (adding cores adds nothing) or "negative"
	// (more cores, less work done).
	Growth   string  `json:"growth"`
	Exponent float64 `json:"exponent"`
	// R2 is the fit's coefficient of determination on log-log axes
	// (Exponent and R2 are 0 for cores).
	R2 float64 `json:"r2"`
	// CPU are the core counts measured (-cpu), NsPerOp the median ns/op
	// at each, and NsPerOpLow/NsPerOpHigh their 95% intervals.
	CPU         []int     `json:"cpu,omitempty"`
	NsPerOp     []float64 `json:"ns_per_op,omitempty"`
	NsPerOpLow  []float64 `json:"ns_per_op_low,omitempty"`
	NsPerOpHigh []float64 `json:"ns_per_op_high,omitempty"`
	// Runs is how many measurements each median of NsPerOp is of.
	Runs []int `json:"runs,omitempty"`
	// Efficiency is ns(1) / (N × ns(N)) at the largest N measured: 1 is
	// perfect scaling, below 1/N is negative scaling. Efficiencies holds
	// it for every entry of CPU.
	Efficiency   float64   `json:"efficiency,omitempty"`
	Efficiencies []float64 `json:"efficiencies,omitempty"`
	// CoresUsed is the CPU time per second of wall time of the profiled
	// run at the largest N: below N when the goroutines waited or the
	// machine was busy.
	CoresUsed float64 `json:"cores_used,omitempty"`
	// Locks are the lock and channel sites goroutines waited at in the
	// benchmark at the largest N, most delay first (the mutex and block
	// profiles); the testing harness's own waits are left out and
	// HarnessBlockShare says what share of the block profile's delay they
	// were.
	Locks             []LockSite `json:"locks,omitempty"`
	HarnessBlockShare *float64   `json:"harness_block_share,omitempty"`
	// Growing are the module lines whose CPU time per op grows with the
	// cores (CPU profiles at 1 and N cores compared), most growth first.
	Growing []LineGrowth `json:"growing,omitempty"`
	// Atomics are the module lines at N cores that write with an atomic
	// read-modify-write or store, with their share of the CPU (a sample
	// lands on the instruction after the costly one, so a line just after
	// an atomic write counts for it when it does no call of its own).
	Atomics []LineInside `json:"atomics,omitempty"`
	// Shared are the variables the benchmark's goroutines call methods on
	// that are declared outside the goroutines' function (from the
	// source): the state they all use.
	Shared []string `json:"shared,omitempty"`
	// NotMeasured says why a concurrent benchmark's scaling was not
	// measured (one core, a failed run).
	NotMeasured string `json:"not_measured,omitempty"`
}

// LockSite is a line of code goroutines waited at: a Lock or RLock call
// (the block profile), the Unlock that ended the wait of others (the
// mutex profile), or a channel operation. Times are per benchmark op,
// summed over the goroutines.
type LockSite struct {
	File     string `json:"file"`
	Line     int64  `json:"line"`
	Function string `json:"function"`
	// Op is what waited: "sync.(*Mutex).Lock", "sync.(*RWMutex).RLock",
	// "chan receive", "select", "sync.(*Cond).Wait"…
	Op string `json:"op"`
	// Profile is "block" (where the waiters waited) or "mutex" (where
	// the holder released the lock others waited for).
	Profile string `json:"profile"`
	// DelayPerOp is the waiting time per op in ns; ContentionsPerOp the
	// waits per op; DelayShare the site's share of the profile's delay
	// outside the harness.
	DelayPerOp       float64 `json:"delay_ns_per_op"`
	ContentionsPerOp float64 `json:"contentions_per_op"`
	DelayShare       float64 `json:"delay_share"`
	// InTest reports a site in the benchmark's own _test.go code.
	InTest bool `json:"in_test,omitempty"`
	// HeldTo is the line where the critical section a Lock call opens
	// ends (the Unlock, or the function's end for a deferred Unlock);
	// Inside are the CPU costs of the module lines between, costliest
	// first, and CPUInside their share of the benchmark's CPU.
	HeldTo    int64   `json:"held_to,omitempty"`
	CPUInside float64 `json:"cpu_inside,omitempty"`
	// LockCPU is the share of the benchmark's CPU in the lock operations
	// themselves at this section's Lock and Unlock lines: the atomic
	// updates of the lock word (an RWMutex's reader count) and spinning.
	LockCPU float64      `json:"lock_cpu,omitempty"`
	Inside  []LineInside `json:"inside,omitempty"`
	Source  string       `json:"source,omitempty"`
}

// LineInside is a line of a critical section (or an atomic write) and
// its share of the benchmark's CPU, with the call it makes.
type LineInside struct {
	File     string   `json:"file,omitempty"`
	Function string   `json:"function,omitempty"`
	Line     int64    `json:"line"`
	Callee   string   `json:"callee,omitempty"`
	Category Category `json:"category,omitempty"`
	Share    float64  `json:"share"`
	Source   string   `json:"source,omitempty"`
}

// LineGrowth is a module line whose CPU time per op grows with the cores:
// NsPerOp1 at one core, NsPerOpN at the largest N (CPU time per op over
// all goroutines), from Samples1 and SamplesN profile samples.
type LineGrowth struct {
	File     string  `json:"file"`
	Line     int64   `json:"line"`
	Function string  `json:"function"`
	Callee   string  `json:"callee,omitempty"`
	NsPerOp1 float64 `json:"ns_per_op_1"`
	NsPerOpN float64 `json:"ns_per_op_n"`
	Samples1 int64   `json:"samples_1"`
	SamplesN int64   `json:"samples_n"`
	// Mechanism names why its cost grows: "reader-count" (an RWMutex's
	// RLock/RUnlock), "atomic" (an atomic read-modify-write of a shared
	// word), "mutex-spin", "pool", "channel", or "" when the profile
	// does not say.
	Mechanism Mechanism `json:"mechanism,omitempty"`
	Source    string    `json:"source,omitempty"`
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
	// SkipAt is the line a skipped benchmark's message names
	// ("x_test.go:12: dict missing"), relative to the package.
	SkipAt *Location `json:"skip_at,omitempty"`
	// ModuleCPUShare is the share of the CPU profile's samples with a
	// frame of the module's own code outside _test.go files; CalleeCPUShare
	// the share in which the benchmark function runs anything but its own
	// code and the runtime. Both near zero: the benchmark measures nothing.
	ModuleCPUShare *float64 `json:"module_cpu_share,omitempty"`
	CalleeCPUShare *float64 `json:"callee_cpu_share,omitempty"`
	// CPUSamples is the number of CPU profile samples the benchmark's
	// shares are fractions of: a share p has the binomial standard error
	// sqrt(p(1−p)/CPUSamples), which ranking uses to tell a real
	// difference from the profile's sampling noise.
	CPUSamples int64 `json:"cpu_samples,omitempty"`
	// CPUBusy is the CPU time the profile sampled over the time it ran:
	// 1 is one core busy throughout; well under 1, the benchmark spends
	// its time waiting (a sleep, a channel, a lock, I/O), which a CPU
	// profile does not see.
	CPUBusy *float64 `json:"cpu_busy,omitempty"`
	// SetupAllocShare is the share of the bytes a profiling run allocated
	// that do not scale with the iteration count: setup before the timed
	// loop and the testing package's own.
	SetupAllocShare *float64 `json:"setup_alloc_share,omitempty"`
	// Parallel reports that the benchmark runs goroutines (b.RunParallel or
	// a go statement in its source).
	Parallel bool `json:"parallel,omitempty"`
	// BytesByIters are the runs' iteration counts and B/op: the evidence
	// findings judges drift from (B/op that moves with b.N).
	BytesByIters []IterSample `json:"bytes_by_iters,omitempty"`
	// BytesDrift is the ratio of the largest to the smallest B/op over the
	// runs when B/op follows the iteration count: above 1 when it grows
	// with it, below 1 (the inverse ratio) when it falls. Documents from
	// before BytesByIters carry it instead.
	BytesDrift float64 `json:"bytes_drift,omitempty"`
	// LoopBytesPerOp is what the timed loop allocates per op, measured as
	// the difference of two heap profiles at different iteration counts
	// (per iteration of every sub-benchmark). A B/op metric well above it
	// means a one-time cost inside the timed region.
	LoopBytesPerOp *float64 `json:"loop_bytes_per_op,omitempty"`
	// HeapBytesByIters are the two heap-profile runs' iteration counts
	// and the bytes each allocated per iteration over its whole run,
	// setup included: a one-time cost inside the timer makes the smaller
	// count's the larger; an iteration that does more than the one
	// before (rows appended to a table never cleared) the larger
	// count's.
	HeapBytesByIters []IterSample `json:"heap_bytes_by_iters,omitempty"`
	// HeapTimedBytes are the same two runs' iteration counts and the
	// B/op the testing package reported for each (summed over
	// sub-benchmarks): what the timer saw. A one-time cost that makes
	// HeapBytesByIters fall but not these is outside the timer (a
	// package's initialization, setup before b.ResetTimer).
	HeapTimedBytes []IterSample `json:"heap_timed_bytes,omitempty"`
}

// NotInlined is a hot function of the module, or of a dependency that the
// module's lines call, the compiler did not inline because its cost is
// over the inlining budget.
type NotInlined struct {
	Function string `json:"function"`
	File     string `json:"file"`
	Line     int64  `json:"line"`
	Cost     int    `json:"cost"`
	Budget   int    `json:"budget"`
	// Dependency marks a function of another module that a line of the
	// module calls; File is then as the profile names it (module path
	// and version), Line its declaration's.
	Dependency bool `json:"dependency,omitempty"`
}

// LineCost is the CPU time a line of the module's own code decides (the
// module frontier): Self is the share of samples whose innermost module
// frame is the line, calling into Callee ("" for the line's own code);
// Cum the share with the line calling Callee anywhere on the stack,
// callbacks into the module included. Category is the category of the
// time below the line.
type LineCost struct {
	Benchmark string   `json:"benchmark"`
	Package   string   `json:"package,omitempty"`
	Function  string   `json:"function"`
	File      string   `json:"file"`
	Line      int64    `json:"line"`
	InTest    bool     `json:"in_test,omitempty"`
	Callee    string   `json:"callee,omitempty"`
	Category  Category `json:"category"`
	Self      float64  `json:"self"`
	Cum       float64  `json:"cum"`
	// Alloc is the part of Self in the runtime's allocator and collector
	// (categories memory and gc), whatever Category most of it is in.
	Alloc float64 `json:"alloc,omitempty"`
	// Source is the line's source text, trimmed.
	Source string `json:"source,omitempty"`
}

// Phase is a part of a program's run that its dominant call path fans
// out into (a module function called from a frame on the path), or a
// module function many parts of it call, with a share of its own that no
// single line of the module carries most of (profiles.Phase).
type Phase struct {
	Benchmark string `json:"benchmark"`
	Package   string `json:"package,omitempty"`
	// Function is the phase's function, Caller the path frame that calls
	// it, File and Line the call's line in Caller.
	Function string `json:"function"`
	Caller   string `json:"caller"`
	File     string `json:"file"`
	Line     int64  `json:"line"`
	// Share is its share of the run's CPU time; MemoryShare the share of
	// that in allocation and garbage collection.
	Share       float64 `json:"share"`
	MemoryShare float64 `json:"memory_share"`
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

// CategoryShare is the share of a benchmark's CPU samples in one
// category.
type CategoryShare struct {
	Benchmark string   `json:"benchmark"`
	Package   string   `json:"package,omitempty"`
	Category  Category `json:"category"`
	Share     float64  `json:"share"`
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
	CallerFile string `json:"caller_file,omitempty"`
	CallerLine int64  `json:"caller_line,omitempty"`
	// Alloc is the runtime function under the site that allocated
	// ("runtime.growslice", "internal/runtime/maps.newTable").
	Alloc string `json:"alloc,omitempty"`
	// Parent is the module function that called the site's function on
	// most of its allocations; ParentFile and ParentLine the line of its
	// heaviest call.
	Parent       string  `json:"parent,omitempty"`
	ParentFile   string  `json:"parent_file,omitempty"`
	ParentLine   int64   `json:"parent_line,omitempty"`
	Via          string  `json:"via,omitempty"`
	Bytes        int64   `json:"bytes"`
	Objects      int64   `json:"objects"`
	BytesShare   float64 `json:"bytes_share"`
	ObjectsShare float64 `json:"objects_share"`
	InTest       bool    `json:"in_test"`
	// BytesPerOp and AllocsPerOp are what the site allocates per
	// iteration of the timed loop (report only: measured as the difference
	// of two heap profiles at different iteration counts).
	BytesPerOp  float64 `json:"bytes_per_op,omitempty"`
	AllocsPerOp float64 `json:"allocs_per_op,omitempty"`
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
	Cause EscapeCause `json:"cause,omitempty"`
	// Reason says it in one line of plain words; Name is the variable or
	// expression that allocates; Fix is the advice for the site
	// (findings.SiteAdvice: the shape of code at the line, or the fix that
	// fits the compiler's reason), the same that report and explain give.
	Reason string `json:"reason,omitempty"`
	Name   string `json:"name,omitempty"`
	Fix    string `json:"fix,omitempty"`
	// Param reports that Name is a parameter of the enclosing function:
	// appending to it grows the caller's buffer.
	Param bool `json:"param,omitempty"`
	// Sink says where the value goes, from the compiler's flow
	// ("return", "closure", "interface", "call", "heap"); Into is the
	// call it is passed to when it leaves as a call's parameter
	// ("w.Write", "fmt.Sprintf").
	Sink string `json:"sink,omitempty"`
	Into string `json:"into,omitempty"`
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

// IterSample is one run of a benchmark: its iteration count and a value
// per op (B/op).
type IterSample struct {
	Iters float64 `json:"iters"`
	Value float64 `json:"value"`
}
