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
	// ReportSeconds is the duration of the report fix measured first
	// (0 when it read one with -from), and ReportTiming where its time
	// went.
	ReportSeconds float64 `json:"report_seconds,omitempty"`
	ReportTiming  *Timing `json:"report_timing,omitempty"`
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
}
