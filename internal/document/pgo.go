package document

// PGOSchema names the perfloop pgo document's format.
const PGOSchema = "perfloop.pgo/v1"

// PGO is what perfloop pgo measured: the profile it wrote, the benchmarks
// with profile-guided optimization off and on, the cost in build time and
// binary size, and what the compiler did differently.
type PGO struct {
	Schema string `json:"schema"`
	Module string `json:"module"`
	// Commit is the revision measured ("" outside git), Date when (RFC
	// 3339, UTC); Dirty reports uncommitted changes.
	Commit string `json:"commit,omitempty"`
	Dirty  bool   `json:"dirty,omitempty"`
	Date   string `json:"date"`
	// Check reports a -check run: the existing profile against a fresh
	// one (Benchmarks compare them), nothing written.
	Check   bool       `json:"check,omitempty"`
	Profile PGOProfile `json:"profile"`
	// Written lists the default.pgo files written (or the -o file), and
	// the main packages each applies to.
	Written []PGOWritten `json:"written"`
	// AppliesTo says in a sentence which builds the profile changes.
	AppliesTo string `json:"applies_to"`
	// Sides name what was compared: "pgo off" and "pgo on", or "current
	// profile" and "fresh profile".
	Sides      [2]string      `json:"sides"`
	Benchmarks []PGOBenchmark `json:"benchmarks"`
	// Geomean is the geometric mean of the time rows' changes (on / off −
	// 1); Faster and Slower count the rows significantly changed,
	// Inconclusive those the run could neither show changed nor show
	// within ±1% of no change.
	Geomean      float64 `json:"geomean_delta"`
	Faster       int     `json:"faster"`
	Slower       int     `json:"slower"`
	Inconclusive int     `json:"inconclusive"`
	Rounds       int     `json:"rounds"`
	WallSeconds  float64 `json:"wall_seconds"`
	// BuildSeconds and BinaryBytes are measured from an empty build cache
	// (what a clean CI build pays); nil when not measured. BuildSeconds
	// is the mean of BuildRuns, two builds each, alternated (off, pgo,
	// pgo, off): one build is too noisy on a busy machine.
	BuildSeconds *PGOPair      `json:"build_seconds,omitempty"`
	BuildRuns    *PGOBuildRuns `json:"build_runs,omitempty"`
	BinaryBytes  *PGOPair      `json:"binary_bytes,omitempty"`
	// BuildOf says what was built for them: the main packages, or the
	// test binaries when the module has none.
	BuildOf  []string      `json:"build_of,omitempty"`
	Compiler []PGODecision `json:"compiler"`
	// Stale is set by -check: how much of the existing profile still
	// matches the code.
	Stale    *PGOStale `json:"stale,omitempty"`
	Failures []string  `json:"failures,omitempty"`
	Notes    []string  `json:"notes,omitempty"`
}

// PGOProfile describes the profile used.
type PGOProfile struct {
	Path string `json:"path"`
	// Source is "benchmarks" or "command: PKG ARGS".
	Source string `json:"source"`
	// Samples is its number of CPU samples; Bytes its size on disk;
	// RawBytes the size of the profiles it was merged from.
	Samples  int64 `json:"samples"`
	Bytes    int64 `json:"size"`
	RawBytes int64 `json:"raw_size,omitempty"`
	// Profiles is how many profiles were merged into it.
	Profiles int `json:"profiles"`
	// SHA256 identifies the profile: each run profiles afresh, and rows
	// near their noise can change with the profile.
	SHA256 string `json:"sha256"`
}

// PGOWritten is one profile file written, and the main packages whose
// default builds (-pgo=auto) read it.
type PGOWritten struct {
	Path     string   `json:"path"`
	Packages []string `json:"packages,omitempty"`
	Replaced bool     `json:"replaced,omitempty"`
	// Kept reports a profile perfloop did not write, left as it was
	// (-replace overwrites it); then Path is where it is.
	Kept bool `json:"kept,omitempty"`
	// SHA256 is the content written, so that the next run knows the file
	// is its own to replace.
	SHA256 string `json:"sha256,omitempty"`
}

// PGOBuildRuns are the build times of each build, in the order run.
type PGOBuildRuns struct {
	Off []float64 `json:"off"`
	PGO []float64 `json:"pgo"`
}

// PGOPair is one measure without and with the profile.
type PGOPair struct {
	Off float64 `json:"off"`
	PGO float64 `json:"pgo"`
}

// PGOBenchmark is one benchmark's time without and with the profile.
type PGOBenchmark struct {
	Package string `json:"package,omitempty"`
	// Name is the full name without -GOMAXPROCS: "BenchmarkTotal".
	Name string `json:"name"`
	Unit string `json:"unit"`
	// Off and PGO are the medians; Delta the median per-round change
	// (PGO/off − 1) and Low, High its 95% interval.
	Off         float64 `json:"off"`
	PGO         float64 `json:"pgo"`
	Delta       float64 `json:"delta"`
	Low         float64 `json:"low"`
	High        float64 `json:"high"`
	Significant bool    `json:"significant"`
	// Verdict is "faster", "slower", "no significant change" or
	// "inconclusive".
	Verdict string `json:"verdict"`
	// Decisions index the compiler's changes (PGO.Compiler) at call
	// sites this benchmark's profile passes through.
	Decisions []int `json:"decisions"`
}

// PGODecision is a call site the compiler treated differently with the
// profile.
type PGODecision struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
	// Kind is "inline", "devirtualize" or "not-inlined".
	Kind    string `json:"kind"`
	Callee  string `json:"callee"`
	Message string `json:"message"`
	// Share is the largest share of a benchmark's CPU samples whose stack
	// passes through this line.
	Share float64 `json:"share"`
	// Benchmarks are those whose profile passes through the line.
	Benchmarks []string `json:"benchmarks"`
}

// PGOStale is how much of an existing profile still matches the code:
// shares of its samples in the module's code.
type PGOStale struct {
	Path string `json:"path"`
	// Module is the share of the profile's samples in the module's
	// code; Missing the share in functions that no longer exist; Shifted
	// in functions that moved or changed around the sampled lines.
	Module       float64  `json:"module_share"`
	Missing      float64  `json:"missing_share"`
	Shifted      float64  `json:"shifted_share"`
	MissingFuncs []string `json:"missing_functions,omitempty"`
	ShiftedFuncs []string `json:"shifted_functions,omitempty"`
}

// PGOSummary is what perfloop report says of a perfloop pgo run.
type PGOSummary struct {
	Commit     string  `json:"commit,omitempty"`
	Date       string  `json:"date"`
	Benchmarks int     `json:"benchmarks"`
	Faster     int     `json:"faster"`
	Slower     int     `json:"slower"`
	Geomean    float64 `json:"geomean_delta"`
	// Best is the benchmark PGO sped up most, if any significantly.
	Best         *PGOBenchmark `json:"best,omitempty"`
	BuildSeconds *PGOPair      `json:"build_seconds,omitempty"`
}

// Summary returns what a report says of the run; nil for a -check run
// or one that compared nothing.
func (p *PGO) Summary() *PGOSummary {
	if p == nil || p.Check || len(p.Benchmarks) == 0 {
		return nil
	}
	s := &PGOSummary{Commit: p.Commit, Date: p.Date, Benchmarks: len(p.Benchmarks), Faster: p.Faster, Slower: p.Slower,
		Geomean: p.Geomean, BuildSeconds: p.BuildSeconds}
	for i, b := range p.Benchmarks {
		if b.Significant && b.Delta < 0 && (s.Best == nil || b.Delta < s.Best.Delta) {
			s.Best = &p.Benchmarks[i]
		}
	}
	return s
}
