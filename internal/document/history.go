package document

// HistorySchema names version 1 of perfloop history's JSON contract.
const HistorySchema = "perfloop.history/v1"

// History is every benchmark's series over commits, from the runs a store
// holds for one module and one machine fingerprint, with the commits
// where the series shifted.
type History struct {
	Schema string `json:"schema"`
	Module string `json:"module"`
	// Fingerprint is the machine and toolchain the points were measured
	// on (a store's key): points of other fingerprints are not compared.
	Fingerprint string `json:"fingerprint"`
	// Others counts the runs of other fingerprints left out.
	Others int `json:"other_fingerprints_runs,omitempty"`
	// Commits are the commits with points, oldest first (git order).
	Commits    []HistoryCommit    `json:"commits"`
	Benchmarks []HistoryBenchmark `json:"benchmarks"`
}

// HistoryCommit is a commit with runs.
type HistoryCommit struct {
	Commit  string `json:"commit"`
	Subject string `json:"subject,omitempty"`
	// Runs are the store's run IDs of this commit and fingerprint.
	Runs []int64 `json:"runs"`
}

// HistoryBenchmark is one benchmark and unit over commits.
type HistoryBenchmark struct {
	Package string `json:"package,omitempty"`
	// Name is the full name with the Benchmark prefix and without
	// -GOMAXPROCS: "BenchmarkEncode/size=1k".
	Name   string         `json:"name"`
	Procs  int            `json:"procs,omitempty"`
	Unit   string         `json:"unit"`
	Points []HistoryPoint `json:"points"`
	// ChangePoints are the commits where the series shifted, oldest
	// first.
	ChangePoints []ChangePoint `json:"change_points"`
}

// HistoryPoint is one commit's measurements of a benchmark.
type HistoryPoint struct {
	Commit string `json:"commit"`
	// Value is the median of the samples; N how many there are (runs ×
	// -count); Low and High their range.
	Value float64 `json:"value"`
	N     int     `json:"n"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// Run is the store's run that holds this commit's report.
	Run int64 `json:"run"`
}

// ChangePoint is a shift of a series at a commit.
type ChangePoint struct {
	Commit string `json:"commit"`
	// Delta is the relative change of the median from the segment before
	// to the segment after (after/before − 1).
	Delta  float64 `json:"delta"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Confidence is 1 − the permutation test's p-value.
	Confidence float64 `json:"confidence"`
}
