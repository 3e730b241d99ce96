package document

// TraceSchema names the perfloop trace document's format.
const TraceSchema = "perfloop.trace/v1"

// Trace is what perfloop trace measured: per benchmark, one execution
// trace of a fixed number of iterations, summarized. With two revisions
// (perfloop trace BASE HEAD) Benchmarks are HEAD's and Base holds BASE's,
// traced at the same iteration counts. Each side is a single trace: the
// differences are not tested for significance.
type Trace struct {
	Schema    string `json:"schema"`
	Module    string `json:"module,omitempty"`
	GoVersion string `json:"go_version,omitempty"`
	GOOS      string `json:"goos,omitempty"`
	GOARCH    string `json:"goarch,omitempty"`
	CPU       string `json:"cpu,omitempty"`
	// Revision is the side's label in a comparison ("HEAD 1ae5dc26f40b",
	// "work tree"); Commit the revision traced ("" outside git).
	Revision   string           `json:"revision,omitempty"`
	Commit     string           `json:"commit,omitempty"`
	Date       string           `json:"date,omitempty"`
	Benchmarks []TraceBenchmark `json:"benchmarks"`
	// Failures describes each failed benchmark and package in one line.
	Failures []string `json:"failures,omitempty"`
	// Base is BASE's side of a comparison, nil otherwise.
	Base *TraceSide `json:"base,omitempty"`
}

// TraceSide is one revision's summaries in a comparison.
type TraceSide struct {
	Revision   string           `json:"revision"`
	Commit     string           `json:"commit,omitempty"`
	Benchmarks []TraceBenchmark `json:"benchmarks"`
	Failures   []string         `json:"failures,omitempty"`
}

// TraceBenchmark is one benchmark's trace, summarized. The trace covers
// the whole test process: the testing package's one-iteration run, then
// Iterations iterations (of each sub-benchmark and -cpu value matched);
// the figures leave out what the testing package itself does (see
// docs/trace.md).
type TraceBenchmark struct {
	Package string `json:"package"`
	Name    string `json:"name"`
	// Status is "ok", "failed", "timeout" or "skipped"; Error says why
	// when it is not ok, and the summary fields are then absent.
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Iterations is the -benchtime Nx the trace ran.
	Iterations int64 `json:"iterations"`
	// Trace is where the raw trace was kept (-o), for go tool trace.
	Trace       string  `json:"trace,omitempty"`
	TraceBytes  int64   `json:"trace_bytes,omitempty"`
	Events      int     `json:"events,omitempty"`
	WallSeconds float64 `json:"wall_seconds"`
	// NsPerOp is the run's own result (the sum over its result lines).
	NsPerOp      float64            `json:"ns_per_op,omitempty"`
	GC           *TraceGC           `json:"gc,omitempty"`
	STW          *TraceSTW          `json:"stw,omitempty"`
	SchedLatency *TraceSchedLatency `json:"sched_latency,omitempty"`
	Blocked      *TraceBlocked      `json:"blocked,omitempty"`
	Peak         *TracePeak         `json:"peak,omitempty"`
}

// TraceGC is the collector's share of the run.
type TraceGC struct {
	// Cycles began in the trace, without the ones the testing package
	// forced (Forced).
	Cycles int `json:"cycles"`
	Forced int `json:"forced"`
	// CPUSeconds is the time integral of the Ps the collector held
	// (every P during its pauses, else those running dedicated and
	// fractional mark workers or mark assists); CPUShare is it over
	// GOMAXPROCS × wall, in [0, 1].
	CPUSeconds float64 `json:"cpu_seconds"`
	CPUShare   float64 `json:"cpu_share"`
	// WorkerSeconds is the dedicated and fractional mark workers' running
	// time, IdleWorkerSeconds the idle-priority workers' (not in CPU),
	// AssistSeconds the time goroutines ran mark assists, PauseSeconds
	// the collector's stop-the-world pauses.
	WorkerSeconds     float64 `json:"worker_seconds"`
	IdleWorkerSeconds float64 `json:"idle_worker_seconds"`
	AssistSeconds     float64 `json:"assist_seconds"`
	PauseSeconds      float64 `json:"pause_seconds"`
}

// TraceSTW is the program's stop-the-world pauses.
type TraceSTW struct {
	Count        int              `json:"count"`
	TotalSeconds float64          `json:"total_seconds"`
	MaxSeconds   float64          `json:"max_seconds"`
	Reasons      []TraceSTWReason `json:"reasons"`
}

// TraceSTWReason is the pauses of one runtime reason.
type TraceSTWReason struct {
	Reason       string  `json:"reason"`
	Count        int     `json:"count"`
	TotalSeconds float64 `json:"total_seconds"`
	MaxSeconds   float64 `json:"max_seconds"`
}

// TraceSchedLatency is the time the workload's goroutines waited runnable
// before running: Count waits, their total and nearest-rank percentiles.
type TraceSchedLatency struct {
	Count        int     `json:"count"`
	TotalSeconds float64 `json:"total_seconds"`
	P50Seconds   float64 `json:"p50_seconds"`
	P90Seconds   float64 `json:"p90_seconds"`
	P99Seconds   float64 `json:"p99_seconds"`
	MaxSeconds   float64 `json:"max_seconds"`
}

// TraceBlocked is the time the workload's goroutines spent blocked or in
// system calls, by reason.
type TraceBlocked struct {
	Channel TraceWait `json:"channel"`
	Sync    TraceWait `json:"sync"`
	Syscall TraceWait `json:"syscall"`
	Network TraceWait `json:"network"`
	GC      TraceWait `json:"gc"`
	Sleep   TraceWait `json:"sleep"`
	Other   TraceWait `json:"other"`
	// TotalSeconds is the sum over the reasons.
	TotalSeconds float64 `json:"total_seconds"`
}

// TraceWait is the intervals of one reason.
type TraceWait struct {
	Count   int     `json:"count"`
	Seconds float64 `json:"seconds"`
}

// TracePeak is the most of each resource at one time.
type TracePeak struct {
	Goroutines int    `json:"goroutines"`
	Running    int    `json:"running"`
	Syscalls   int    `json:"syscalls"`
	Threads    int    `json:"threads"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	HeapBytes  uint64 `json:"heap_bytes"`
}
