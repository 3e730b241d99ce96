package document

// FixSchema names version 1 of perfloop fix's JSON document.
const FixSchema = "perfloop.fix/v1"

// Fix is what a fix run kept and rejected.
type Fix struct {
	Schema   string        `json:"schema"`
	Module   string        `json:"module"`
	Commit   string        `json:"commit"`
	Kept     []FixKept     `json:"kept"`
	Rejected []FixRejected `json:"rejected"`
	// Together says whether the kept patches (not for review) apply
	// together and pass the tests: "" when there are none.
	Together string `json:"together,omitempty"`
	// Failures are the benchmarks that failed in the report (package,
	// name and error, one line each): their sites were not tried.
	Failures []string `json:"failures,omitempty"`
	// BaselineFailures are the tests that already fail at the commit,
	// before any edit ("PACKAGE TestName: reason", one line each): a
	// candidate fails its tests only on failures the commit does not have.
	BaselineFailures []string `json:"baseline_failures,omitempty"`
	// Applied reports that -apply applied them to the work tree.
	Applied bool `json:"applied,omitempty"`
	// WallSeconds is the run's duration.
	WallSeconds float64 `json:"wall_seconds"`
	// Rounds is how many rounds fix -rounds ran (0 for a run of one):
	// each round tries the root causes of a report measured with the
	// earlier rounds' kept patches made.
	Rounds int `json:"rounds,omitempty"`
	// Cumulative is the A/B comparison of the tree with every kept
	// patch of every round made against the commit itself, one row per
	// benchmark and unit the kept patches were measured on: measured,
	// not summed from the rounds. Set by fix -rounds when a round kept
	// a patch.
	Cumulative []FixMeasured `json:"cumulative,omitempty"`
	// ReportSeconds is the duration of the report fix measured first
	// (0 when it read one with -from), and ReportTiming where its time
	// went.
	ReportSeconds float64 `json:"report_seconds,omitempty"`
	ReportTiming  *Timing `json:"report_timing,omitempty"`
}

// FixCause is the root cause of the report a candidate answers: its
// line (File and Line as the report's finding has them) and message.
type FixCause struct {
	File    string `json:"file"`
	Line    int64  `json:"line"`
	Message string `json:"message,omitempty"`
}

// FixTiming is what one candidate cost, in seconds: the build of the
// packages it reaches, go vet of the edited one, their tests, and the
// A/B comparison. A stage the candidate did not reach is 0.
type FixTiming struct {
	Build float64 `json:"build"`
	Vet   float64 `json:"vet"`
	Tests float64 `json:"tests"`
	AB    float64 `json:"ab"`
}

// FixKept is a candidate that measured better: its patch, and what it bought.
type FixKept struct {
	File        string        `json:"file"`
	Line        int           `json:"line"`
	Rewrite     string        `json:"rewrite"`
	Description string        `json:"description"`
	Patch       string        `json:"patch"`
	Review      bool          `json:"review"`
	Benchmarks  []FixMeasured `json:"benchmarks"`
	// Tests are the packages whose tests passed with the edit.
	Tests []string `json:"tests"`
	// Finding is the root cause's message.
	Finding string `json:"finding,omitempty"`
	// Round is the round of fix -rounds that kept it (1 and on; 0 for
	// a run of one round).
	Round int `json:"round,omitempty"`
	// Cause is the root cause it answers.
	Cause FixCause `json:"cause"`
	// Seconds is what trying it cost.
	Seconds FixTiming `json:"seconds"`
	// Output says what fix -run compared of the program's output besides
	// the measures ("stdout and exit status identical on all 16 runs").
	Output string `json:"output,omitempty"`
}

// FixMeasured is one benchmark row of a candidate's A/B comparison.
type FixMeasured struct {
	Name string `json:"name"`
	Unit string `json:"unit"`
	// Delta is the median per-round change (new/old − 1); CI its 95%
	// interval.
	Delta       float64    `json:"delta"`
	CI          [2]float64 `json:"ci"`
	Significant bool       `json:"significant"`
}

// FixRejected is a candidate that was not kept, and why.
type FixRejected struct {
	File        string `json:"file"`
	Line        int    `json:"line"`
	Rewrite     string `json:"rewrite"`
	Description string `json:"description,omitempty"`
	Reason      string `json:"reason"`
	// Round is the round of fix -rounds that tried it (0 for a run of
	// one round).
	Round int `json:"round,omitempty"`
	// Cause is the root cause it answers.
	Cause FixCause `json:"cause"`
	// Seconds is what trying it cost (zero for a candidate not tried,
	// such as one cold in production).
	Seconds FixTiming `json:"seconds"`
}

// Tried is what perfloop fix tried at a root cause, as report -from-fix
// puts it beside the finding: a kept patch with its best measured gain,
// or a candidate not kept with the reason.
type Tried struct {
	Rewrite string `json:"rewrite"`
	// File and Line are the site the rewrite edited.
	File string `json:"file"`
	Line int    `json:"line"`
	Kept bool   `json:"kept"`
	// Review marks a kept patch that changes a type's fields or an
	// exported signature.
	Review bool `json:"review,omitempty"`
	// Gain is a kept patch's significant improvement, sec/op first, then
	// allocs/op, then B/op; nil when no row improved significantly.
	Gain *FixMeasured `json:"gain,omitempty"`
	// Patch is the kept patch's file, under the directory given to
	// -from-fix.
	Patch string `json:"patch,omitempty"`
	// Reason is why a candidate was not kept.
	Reason string `json:"reason,omitempty"`
}
