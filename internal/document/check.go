package document

// CheckSchema names version 1 of perfloop check's JSON contract.
const CheckSchema = "perfloop.check/v1"

// Verdicts of perfloop check.
const (
	CheckPass         = "pass"
	CheckFail         = "fail"
	CheckInconclusive = "inconclusive"
	// CheckInterrupted is the verdict of a check stopped by SIGINT or
	// SIGTERM: the rows hold what was decided until then.
	CheckInterrupted = "interrupted"
)

// Check is what perfloop check found comparing HEAD with BASE: the
// verdict, each regression with its causes, the budgets and the rows too
// noisy to rule a regression out.
type Check struct {
	Schema string `json:"schema"`
	// Verdict is pass, fail, inconclusive or interrupted.
	Verdict string `json:"verdict"`
	// Base and Head name the sides compared ("main 1ae5dc26f40b", "work tree").
	Base string `json:"base"`
	Head string `json:"head"`
	// Regressions are the rows that got worse beyond their threshold.
	Regressions []Regression `json:"regressions"`
	// Layout are time regressions of benchmarks that execute no function
	// the change touched: the same code, placed at other addresses by the
	// edit. They do not fail the check.
	Layout []Regression `json:"layout,omitempty"`
	// Improvements are the rows that got significantly better.
	Improvements []Change `json:"improvements,omitempty"`
	// Inconclusive are the rows the run could not rule a regression beyond
	// the threshold out for.
	Inconclusive []Change `json:"inconclusive,omitempty"`
	// Budgets are the limits checked on HEAD.
	Budgets []BudgetCheck `json:"budgets"`
	// Failures are builds and benchmarks that failed on a side.
	Failures []string `json:"failures,omitempty"`
	// Thresholds are the per-benchmark thresholds a calibration run set.
	Thresholds []Threshold `json:"thresholds,omitempty"`
	// Notes say what the run adapted or could not assess ("layout not
	// assessed: codec.go:12 changed outside functions").
	Notes []string `json:"notes,omitempty"`
	// Unaltered are the packages whose test binaries hold the same code
	// on both sides: not benchmarked, since only noise could differ.
	Unaltered []string `json:"unaltered,omitempty"`
	// Shard is "i/n" for the i-th of n shards of a check (check -shard),
	// whose rows are one share of the benchmarks; check -merge joins the
	// n shards into one verdict.
	Shard string `json:"shard,omitempty"`
	// Comparison is a shard's table of every compared row, as text, for
	// the merged verdict's pull request comment.
	Comparison string `json:"comparison,omitempty"`
	// Unchanged counts the rows with no significant change, or with one
	// within their threshold.
	Unchanged   int     `json:"unchanged"`
	Rounds      int     `json:"rounds"`
	WallSeconds float64 `json:"wall_seconds"`
	// ExplainSeconds is the time spent after the rounds profiling the
	// regressions and checking code layout.
	ExplainSeconds float64 `json:"explain_seconds,omitempty"`
}

// Regression is one benchmark and unit that got worse, and why.
type Regression struct {
	Package   string `json:"package,omitempty"`
	Benchmark string `json:"benchmark"`
	Unit      string `json:"unit"`
	// Delta is the relative change (HEAD/BASE − 1; for a count that was
	// zero, the difference). Old and New are the medians.
	Delta     float64 `json:"delta"`
	Old       float64 `json:"old"`
	New       float64 `json:"new"`
	Threshold float64 `json:"threshold"`
	// Causes say what changed in the code and the profiles, costliest
	// first.
	Causes []Cause `json:"causes"`
}

// Cause is one thing that changed between BASE and HEAD that explains a
// regression: a function or line whose CPU time grew ("cpu"), an
// allocation site that is new or allocates more ("alloc"), a line the
// compiler now puts on the heap ("escape"), a function it no longer
// inlines ("inline"), or the benchmark running no changed code ("layout",
// without a file).
type Cause struct {
	Kind     string `json:"kind"`
	File     string `json:"file"`
	Line     int64  `json:"line"`
	Function string `json:"function,omitempty"`
	// Message says what changed and by how much.
	Message string `json:"message"`
	// Flow is the compiler's flow for an escape.
	Flow []string `json:"flow,omitempty"`
	// Callee is the function, unchanged, whose time grew under a changed
	// line: the cause is charged to the changed line that reaches it
	// (the largest of several, which Message lists).
	Callee string `json:"callee,omitempty"`
	// Changed says the cause is at a line or in a function the change
	// touched, or is charged to one.
	Changed bool `json:"changed"`
	// Outside says the cause is in code the change did not touch and
	// that no changed line reaches on the profiled stacks: listed after
	// the causes in the change.
	Outside bool `json:"outside"`
}

// Change is a row's change, for improvements and inconclusive rows.
type Change struct {
	Package   string   `json:"package,omitempty"`
	Benchmark string   `json:"benchmark"`
	Unit      string   `json:"unit"`
	Delta     float64  `json:"delta"`
	Low       *float64 `json:"low,omitempty"`
	High      *float64 `json:"high,omitempty"`
	MDE       *float64 `json:"mde,omitempty"`
	// Layout, on an improvement of time, says the benchmark executes no
	// function the change touched, on either side: the same code at
	// other addresses, probably faster by code layout alone.
	Layout bool `json:"layout,omitempty"`
}

// BudgetCheck is one budget applied to one benchmark.
type BudgetCheck struct {
	// Budget is the budget as written: "BenchmarkX allocs/op == 0".
	Budget    string  `json:"budget"`
	Benchmark string  `json:"benchmark"`
	Unit      string  `json:"unit"`
	Op        string  `json:"op"`
	Limit     float64 `json:"limit"`
	Measured  float64 `json:"measured"`
	OK        bool    `json:"ok"`
}

// Threshold is the relative change above which a benchmark's unit counts
// as a regression.
type Threshold struct {
	Benchmark string  `json:"benchmark"`
	Unit      string  `json:"unit"`
	Value     float64 `json:"value"`
}
