package document

// Timing is where a report's wall time went, in seconds, and how much
// evidence it bought beyond the benchmark rounds: what a user weighs
// against running go test alone.
type Timing struct {
	// PrepareSeconds is listing the packages and building the test
	// binaries; AnalysesSeconds the compiler's escape analysis, the
	// source load and lint.
	PrepareSeconds  float64 `json:"prepare_seconds"`
	AnalysesSeconds float64 `json:"analyses_seconds"`
	// Analyses says when the analyses ran (the Analyses* constants).
	Analyses string `json:"analyses"`
	// RoundsSeconds is the benchmark rounds; CPUProfileSeconds and
	// HeapProfileSeconds the extra CPU-profile and the heap-profile
	// runs; ScalingSeconds the concurrent benchmarks' runs at other core
	// counts.
	RoundsSeconds      float64 `json:"rounds_seconds"`
	CPUProfileSeconds  float64 `json:"cpu_profile_seconds"`
	HeapProfileSeconds float64 `json:"heap_profile_seconds"`
	ScalingSeconds     float64 `json:"scaling_seconds"`
	// CPUProfileRuns and HeapProfiled count the benchmarks that got an
	// extra CPU-profile run and those whose allocations were profiled
	// (the others allocate nothing in their loop); Calibrated those
	// whose rounds after the first ran at a fixed iteration count.
	CPUProfileRuns int `json:"cpu_profile_runs"`
	HeapProfiled   int `json:"heap_profiled"`
	Calibrated     int `json:"calibrated"`
}

// When a report's compiler analyses ran (Timing.Analyses).
const (
	// AnalysesBefore: while the test binaries built, and the benchmark
	// rounds waited for them, so no benchmark shared its cores with
	// them (the benchmarks were not pinned apart).
	AnalysesBefore = "before"
	// AnalysesBeside: while the benchmarks ran pinned to other cores.
	AnalysesBeside = "beside"
)
