package document

import "math"

// ExecSchema names version 1 of perfloop exec's JSON document.
const ExecSchema = "perfloop.exec/v1"

// Exec is the outcome of timing one or more commands; it marshals to
// perfloop.exec/v1 JSON.
type Exec struct {
	Schema      string           `json:"schema"`
	Results     []ExecResult     `json:"results"`
	Comparisons []ExecComparison `json:"comparisons"`
	// Reference is the index in Results of the command the others are
	// compared with.
	Reference int `json:"reference"`
	// RatioMethod says how Comparisons were computed.
	RatioMethod string `json:"ratio_method,omitempty"`
	// Interleaved says the commands ran in rounds A B A B ….
	Interleaved bool `json:"interleaved"`
	// ShellSpawn is the shell's measured spawn time, subtracted from
	// every run of a command run through the shell; nil when no command
	// used a shell.
	ShellSpawn *ExecShellSpawn `json:"shell_spawn,omitempty"`
	// SpawnerMaxRSSBytes is perfloop's own peak RSS. On Linux every
	// child's peak RSS includes it as a floor (exec keeps the high-water
	// mark of the address space the child leaves, which for a vfork child
	// is perfloop's), so a MaxRSSBytes at or below it is an upper bound.
	// 0 where the system resets the mark at exec.
	SpawnerMaxRSSBytes int64 `json:"spawner_max_rss_bytes"`
	// Warnings concern the report as a whole (a comparison that could
	// not be made).
	Warnings []string `json:"warnings,omitempty"`
	// Error says why timing stopped early (a failing run, a run over the
	// time limit, a failing cleanup command, an interruption): Results
	// then hold the runs that finished before it.
	Error string `json:"error,omitempty"`
}

// ExecShellSpawn is the cost of starting the shell with an empty command. The
// median wall time is what is subtracted (hyperfine subtracts the mean; a
// median keeps one burst of machine noise during calibration from skewing
// every run), and the mean user and sys times, which the kernel accounts in
// ticks that a median would round away.
type ExecShellSpawn struct {
	Shell string      `json:"shell"`
	Runs  int         `json:"runs"`
	Wall  ExecSummary `json:"wall"`
	User  float64     `json:"user"` // mean, seconds
	Sys   float64     `json:"sys"`  // mean, seconds
}

// ExecResult is one command's timing.
type ExecResult struct {
	Name       string            `json:"name"`
	Command    string            `json:"command"`
	Parameters map[string]string `json:"parameters,omitempty"`
	Runs       int               `json:"runs"`
	// ExitCodes are the distinct exit codes of the timed runs, sorted;
	// FailedRuns counts the runs that exited non-zero (with
	// -ignore-failure).
	ExitCodes  []int `json:"exit_codes"`
	FailedRuns int   `json:"failed_runs"`
	// Wall, User and Sys summarize the runs' times in seconds, the
	// shell's spawn time (see ExecShellSpawn) already subtracted, clamped at
	// zero, when ShellCorrected.
	Wall           ExecSummary `json:"wall"`
	User           ExecSummary `json:"user"`
	Sys            ExecSummary `json:"sys"`
	ShellCorrected bool        `json:"shell_corrected"`
	// MaxRSSBytes is the largest peak resident set size of any run, as
	// wait4 reports it.
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	// MaxRSSIsBound says MaxRSSBytes is no more than the spawner's own
	// peak (see Exec.SpawnerMaxRSSBytes): the command's real peak is at
	// most MaxRSSBytes, and may be much lower.
	MaxRSSIsBound bool `json:"max_rss_is_bound"`
	// The counts below are means per run, from wait4's rusage.
	MinorFaults            float64 `json:"minor_faults"`
	MajorFaults            float64 `json:"major_faults"`
	VoluntaryCtxSwitches   float64 `json:"voluntary_ctx_switches"`
	InvoluntaryCtxSwitches float64 `json:"involuntary_ctx_switches"`
	// Times are the runs' wall times in seconds, in run order.
	Times []float64 `json:"times"`
	// Outliers are indexes into Times of runs more than ten robust
	// standard deviations from the median (hyperfine's rule).
	Outliers []int `json:"outliers"`
	// Warnings explain what may make the numbers unreliable.
	Warnings []string `json:"warnings,omitempty"`
	// Syscalls are strace's counts from one extra run, with -strace.
	Syscalls *ExecSyscalls `json:"syscalls,omitempty"`
	// Counters are perf stat's counts from one extra run, with -perf.
	Counters *ExecCounters `json:"counters,omitempty"`
}

// ExecSummary is a sample's location and spread, in seconds for times.
type ExecSummary struct {
	Mean float64 `json:"mean"`
	// Stddev is the sample standard deviation (n−1 in the denominator),
	// 0 for fewer than two values.
	Stddev float64 `json:"stddev"`
	Median float64 `json:"median"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// ExecComparison is one command's mean wall time relative to the reference's.
type ExecComparison struct {
	A string `json:"a"` // the command compared
	B string `json:"b"` // the reference
	// Ratio is mean(A)/mean(B): above 1, A is slower.
	Ratio float64 `json:"ratio"`
	// Low and High bound the 95% bootstrap confidence interval of Ratio.
	Low  float64 `json:"low"`
	High float64 `json:"high"`
	// Stddev is Ratio's delta-method standard deviation.
	Stddev float64 `json:"stddev"`
	// Paired says the bootstrap kept the interleaved rounds together.
	Paired bool `json:"paired"`
	// NoRatio, when set, says why there is no ratio: after the shell's
	// spawn time is subtracted a mean wall time is not measurably above
	// zero. Ratio, Low, High and Stddev are then 0, and Difference says
	// what can be said.
	NoRatio string `json:"no_ratio,omitempty"`
	// Difference is mean(A) − mean(B) in seconds with its 95% bootstrap
	// interval, given when there is no ratio.
	Difference *ExecDifference `json:"difference,omitempty"`
}

// Significant reports whether the confidence interval excludes 1, or,
// without a ratio, whether the difference's interval excludes 0.
func (c ExecComparison) Significant() bool {
	if c.NoRatio != "" {
		return c.Difference != nil && c.Difference.Significant()
	}
	return c.Low > 1 || c.High < 1
}

// ExecDifference is the difference of two samples' means with its 95%
// percentile-bootstrap confidence interval, in the samples' unit.
type ExecDifference struct {
	Value float64 `json:"value"`
	Low   float64 `json:"low"`
	High  float64 `json:"high"`
	// Resolution is the smallest difference that counts: smaller ones
	// are within the noise of what was subtracted from both samples (the
	// standard deviation of the shell's spawn time), 0 when nothing was.
	Resolution float64 `json:"resolution"`
	Paired     bool    `json:"-"`
}

// Significant reports whether the interval excludes 0 and the difference
// is larger than the resolution.
func (d ExecDifference) Significant() bool {
	return (d.Low > 0 || d.High < 0) && math.Abs(d.Value) > d.Resolution
}

// ExecSyscalls are the system calls of one run as strace -c -f counted them.
type ExecSyscalls struct {
	// Calls, Errors and Seconds are the table's total row. Seconds is
	// strace's own (inflated by tracing) time in the kernel.
	Calls   int64   `json:"calls"`
	Errors  int64   `json:"errors"`
	Seconds float64 `json:"seconds"`
	// BySyscall lists every system call, most called first.
	BySyscall []ExecSyscallCount `json:"by_syscall"`
}

// ExecSyscallCount is one row of strace's table.
type ExecSyscallCount struct {
	Name    string  `json:"name"`
	Calls   int64   `json:"calls"`
	Errors  int64   `json:"errors"`
	Seconds float64 `json:"seconds"`
}

// ExecCounters are the kernel's counters for one run of a command, as perf
// stat read them: hardware (cycles, instructions, cache and branch misses)
// where the machine exposes them, and software (page faults, context
// switches, CPU migrations) everywhere perf runs.
type ExecCounters struct {
	Events []ExecCounter `json:"events"`
	// Note says what the machine does not expose ("no hardware counters:
	// a virtual machine or a kernel without PMU access").
	Note string `json:"note,omitempty"`
}

// Value returns the count of event name and whether it was counted.
func (c *ExecCounters) Value(name string) (float64, bool) {
	for _, e := range c.Events {
		if e.Name == name && e.Supported {
			return e.Value, true
		}
	}
	return 0, false
}

// ExecCounter is one event's count; Supported is false for an event the
// machine does not count ("<not supported>", "<not counted>").
type ExecCounter struct {
	Name      string  `json:"name"`
	Value     float64 `json:"value"`
	Supported bool    `json:"supported"`
}
