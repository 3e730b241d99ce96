package document

// Run is what perfloop run measured: a main package run as a program,
// once per variant (or -runs times), with the kernel's figures beside the
// profiles. Each variant is also an entry of Benchmarks (named by Name),
// whose profile sections — hotspots, line costs, categories, allocations
// — are the variant's, and whose "op" is one run of the program.
type Run struct {
	// Package is the main package's import path.
	Package string `json:"package"`
	// Variants are the argument lists run, in the order given.
	Variants []RunVariant `json:"variants"`
	// Segment is the length of a CPU profile segment, in seconds.
	SegmentSeconds float64 `json:"segment_seconds"`
	// MemProfileRate is the heap profile's sampling rate in bytes (1:
	// every allocation; 0: no heap profile).
	MemProfileRate int `json:"mem_profile_rate"`
}

// RunVariant is one argument list of a run, measured Runs times: the
// figures are medians over the runs, the profiles merged over them.
type RunVariant struct {
	// Name is the variant's entry in Benchmarks ("run", or "run -mode
	// lines big.txt" when there are several).
	Name string   `json:"name"`
	Args []string `json:"args"`
	// Revision is the git revision the variant was built from, when
	// variants are revisions.
	Revision string `json:"revision,omitempty"`
	Runs     int    `json:"runs"`
	// ExitCode is the program's exit status in the last run (128+N when
	// it died of signal N, named by Signal).
	ExitCode int    `json:"exit_code"`
	Signal   string `json:"signal,omitempty"`
	// End says how the last run ended: "return" (main returned), "panic",
	// "signal" (caught, profiles written) or "exit" (os.Exit: through the
	// exit hook in the module's code, nothing lost; in another module's
	// code, or a death the wrapper could not see, the segment under way
	// is lost and LostSegments counts it).
	End string `json:"end"`
	// WallSeconds, UserSeconds and SysSeconds are the medians of the
	// runs' wall-clock, user and system CPU times; Wall has the interval
	// when there are enough runs.
	WallSeconds float64 `json:"wall_seconds"`
	UserSeconds float64 `json:"user_seconds"`
	SysSeconds  float64 `json:"sys_seconds"`
	Wall        *Metric `json:"wall,omitempty"`
	// MaxRSSBytes is the median peak resident set size (the program's
	// own VmHWM on Linux); MinorFaults and MajorFaults the median page
	// faults.
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	MinorFaults int64 `json:"minor_faults"`
	MajorFaults int64 `json:"major_faults"`
	// CPUSeconds is the CPU time the profile sampled, per run.
	CPUSeconds float64 `json:"cpu_seconds"`
	// FinalCollectionSeconds is how long the collection the wrapper runs
	// before the final heap profile took in the program, median of the
	// runs (wall time; absent without a heap profile).
	FinalCollectionSeconds float64 `json:"final_collection_seconds,omitempty"`
	// FinalGC is what the wrapper did before the final heap profile:
	// "collected" (its estimated cost was small), "skipped" (too costly),
	// "on" or "off" (forced by -finalgc); a run without the collection
	// makes it the variant's; absent without a heap profile. FinalGCCost is its estimate of what that collection
	// costs, as a share of the run's CPU time (median of the runs).
	FinalGC     string  `json:"final_gc,omitempty"`
	FinalGCCost float64 `json:"final_gc_cost,omitempty"`
	// HeapProfileBytes is what the heap profile holds of the bytes
	// allocated, per run: AllocBytes within the profile's sampling after
	// a final collection, less without one (the runtime publishes an
	// allocation to the profile only at the end of the second cycle after
	// it). The allocation sites' bytes are shares of it.
	HeapProfileBytes int64 `json:"heap_profile_bytes,omitempty"`
	// AllocBytes and AllocObjects are what the program allocated per run:
	// the runtime's exact count (TotalAlloc, Mallocs) less perfloop's own
	// allocations, or the heap profile's estimate when a run wrote no
	// count.
	AllocBytes   int64 `json:"alloc_bytes"`
	AllocObjects int64 `json:"alloc_objects"`
	// ProfilerAllocBytes and ProfilerAllocObjects are what was taken off
	// the runtime's count, per run: perfloop's own allocations and the
	// CPU profile writer's, which grow with the number of segments (a
	// run a busy machine slows down writes more). Absent when the count
	// is the heap profile's estimate.
	ProfilerAllocBytes   int64 `json:"profiler_alloc_bytes,omitempty"`
	ProfilerAllocObjects int64 `json:"profiler_alloc_objects,omitempty"`
	// GCShare and SyscallShare are the CPU profile's shares in the gc and
	// syscall categories (the rest is in categories).
	GCShare      float64 `json:"gc_share"`
	SyscallShare float64 `json:"syscall_share"`
	// Segments is how many CPU profile segments were kept over the runs;
	// LostSegments how many were lost (one per run that ended in os.Exit).
	Segments     int `json:"segments"`
	LostSegments int `json:"lost_segments"`
	// Notes say what is missing and why, one sentence each.
	Notes []string `json:"notes,omitempty"`
}

// HeapCoverage is the share of the bytes allocated under which a heap
// profile written without a final collection is partial (HeapPartial);
// one written after a collection holds them all, within its sampling.
const HeapCoverage = 0.9

// HeapPartial reports whether the variant's heap profile was written
// without a final collection and holds less than HeapCoverage of the
// bytes allocated: its allocation sites' bytes are then shares of what
// it holds, not the run's.
func (v RunVariant) HeapPartial() bool {
	switch v.FinalGC {
	case "", "collected", "on":
		return false
	}
	return v.AllocBytes > 0 && float64(v.HeapProfileBytes) < HeapCoverage*float64(v.AllocBytes)
}
