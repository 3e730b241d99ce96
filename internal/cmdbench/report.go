package cmdbench

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Schema names the JSON format a Report marshals to.
const Schema = "perfloop.exec/v1"

// RatioMethod says, in the words output uses, how comparisons are computed.
const RatioMethod = "ratio of mean wall times; ± is the delta-method standard deviation (as hyperfine), " +
	"low/high a 95% percentile bootstrap interval (10000 resamples, whole rounds resampled when interleaved)"

// Report is the outcome of timing one or more commands; it marshals to
// perfloop.exec/v1 JSON.
type Report struct {
	Schema      string       `json:"schema"`
	Results     []Result     `json:"results"`
	Comparisons []Comparison `json:"comparisons"`
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
	ShellSpawn *ShellSpawn `json:"shell_spawn,omitempty"`
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

// ShellSpawn is the cost of starting the shell with an empty command. The
// median wall time is what is subtracted (hyperfine subtracts the mean; a
// median keeps one burst of machine noise during calibration from skewing
// every run), and the mean user and sys times, which the kernel accounts in
// ticks that a median would round away.
type ShellSpawn struct {
	Shell string  `json:"shell"`
	Runs  int     `json:"runs"`
	Wall  Summary `json:"wall"`
	User  float64 `json:"user"` // mean, seconds
	Sys   float64 `json:"sys"`  // mean, seconds
}

// Result is one command's timing.
type Result struct {
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
	// shell's spawn time (see ShellSpawn) already subtracted, clamped at
	// zero, when ShellCorrected.
	Wall           Summary `json:"wall"`
	User           Summary `json:"user"`
	Sys            Summary `json:"sys"`
	ShellCorrected bool    `json:"shell_corrected"`
	// MaxRSSBytes is the largest peak resident set size of any run, as
	// wait4 reports it.
	MaxRSSBytes int64 `json:"max_rss_bytes"`
	// MaxRSSIsBound says MaxRSSBytes is no more than the spawner's own
	// peak (see Report.SpawnerMaxRSSBytes): the command's real peak is at
	// most MaxRSSBytes, and may be much lower.
	MaxRSSIsBound bool `json:"max_rss_is_bound"`
	// The counts below are means per run, from wait4's rusage.
	MinorFaults            float64 `json:"minor_faults"`
	MajorFaults            float64 `json:"major_faults"`
	VoluntaryCtxSwitches   float64 `json:"voluntary_ctx_switches"`
	InvoluntaryCtxSwitches float64 `json:"involuntary_ctx_switches"`
	// Times are the runs' wall times in seconds, in run order.
	Times []float64 `json:"times"`
	// Outliers are indexes into Times of runs more than OutlierThreshold
	// robust standard deviations from the median.
	Outliers []int `json:"outliers"`
	// Warnings explain what may make the numbers unreliable.
	Warnings []string `json:"warnings,omitempty"`
	// Syscalls are strace's counts from one extra run, with -strace.
	Syscalls *Syscalls `json:"syscalls,omitempty"`
	// Counters are perf stat's counts from one extra run, with -perf.
	Counters *Counters `json:"counters,omitempty"`
}

// Comparison is one command's mean wall time relative to the reference's.
type Comparison struct {
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
	Difference *Difference `json:"difference,omitempty"`
}

// Significant reports whether the confidence interval excludes 1, or,
// without a ratio, whether the difference's interval excludes 0.
func (c Comparison) Significant() bool {
	if c.NoRatio != "" {
		return c.Difference != nil && c.Difference.Significant()
	}
	return c.Low > 1 || c.High < 1
}

func (e *engine) report() *Report {
	r := &Report{
		Schema:             Schema,
		RatioMethod:        RatioMethod,
		Interleaved:        e.opts.Interleave,
		ShellSpawn:         e.spawn,
		Comparisons:        []Comparison{},
		SpawnerMaxRSSBytes: selfMaxRSS(),
	}
	var benches []*bench
	ref := -1
	for i, b := range e.benches {
		if len(b.runs) == 0 {
			continue // interrupted before its first run
		}
		if i == e.opts.Reference {
			ref = len(r.Results)
		}
		res := e.result(b)
		res.MaxRSSIsBound = res.MaxRSSBytes <= r.SpawnerMaxRSSBytes
		r.Results = append(r.Results, res)
		benches = append(benches, b)
	}
	r.Reference = ref
	if ref < 0 {
		return r
	}
	for i := range r.Results {
		if i != ref {
			r.Comparisons = append(r.Comparisons, e.compare(benches[i], benches[ref], r.Results[i], r.Results[ref]))
		}
	}
	return r
}

// compare compares a with the reference b: the ratio of their mean wall
// times when both are measurably above zero, and otherwise the difference
// of the means, which the shell spawn correction does not change.
func (e *engine) compare(a, b *bench, ra, rb Result) Comparison {
	c := Comparison{A: ra.Name, B: rb.Name}
	var zero []string
	for _, x := range []struct {
		b   *bench
		res Result
	}{{a, ra}, {b, rb}} {
		if !e.measurable(x.b) && !slices.Contains(zero, x.res.Name) {
			zero = append(zero, x.res.Name)
		}
	}
	ratio, ok := CompareMeans(ra.Times, rb.Times, e.opts.Interleave)
	if len(zero) == 0 && ok && !math.IsInf(ratio.Low, 0) && !math.IsInf(ratio.High, 0) {
		c.Ratio, c.Low, c.High, c.Stddev, c.Paired = ratio.Value, ratio.Low, ratio.High, ratio.Stddev, ratio.Paired
		return c
	}
	what := fmt.Sprintf("%q takes", strings.Join(zero, `" and "`))
	if len(zero) == 2 {
		what = fmt.Sprintf("%q and %q take", zero[0], zero[1])
	}
	c.NoRatio = what + " no measurable time once the shell's spawn time is subtracted; use -no-shell to time it"
	if len(zero) == 0 {
		c.NoRatio = "a mean wall time is zero"
	}
	d := CompareDiff(wallSeconds(a), wallSeconds(b), e.opts.Interleave)
	if e.spawn != nil {
		d.Resolution = e.spawn.Wall.Stddev
	}
	c.Difference, c.Paired = &d, d.Paired
	return c
}

// measurable reports whether b's wall time, less the shell's spawn time it
// includes, is measurably above zero (see MeasurablyAboveZero).
func (e *engine) measurable(b *bench) bool {
	if !b.cmd.Shell || e.spawn == nil {
		return true
	}
	return MeasurablyAboveZero(wallSeconds(b), e.spawn.Wall.Median, e.spawn.Wall.Stddev, e.spawn.Runs)
}

// wallSeconds returns b's raw wall times in seconds.
func wallSeconds(b *bench) []float64 {
	xs := make([]float64, len(b.runs))
	for i, m := range b.runs {
		xs[i] = m.Wall.Seconds()
	}
	return xs
}

// result summarizes b's runs, subtracting the shell's spawn time.
func (e *engine) result(b *bench) Result {
	n := len(b.runs)
	res := Result{
		Name:           b.cmd.Name,
		Command:        b.cmd.Line,
		Runs:           n,
		ExitCodes:      []int{},
		Times:          make([]float64, n),
		Outliers:       []int{},
		ShellCorrected: b.cmd.Shell && e.spawn != nil,
		Syscalls:       b.syscalls,
		Counters:       b.counters,
	}
	if len(b.cmd.Parameters) > 0 {
		res.Parameters = map[string]string{}
		for _, p := range b.cmd.Parameters {
			res.Parameters[p.Name] = p.Value
		}
	}
	var spawnWall, spawnUser, spawnSys float64
	if res.ShellCorrected {
		spawnWall, spawnUser, spawnSys = e.spawn.Wall.Median, e.spawn.User, e.spawn.Sys
	}
	user := make([]float64, n)
	sys := make([]float64, n)
	fast := false
	for i, m := range b.runs {
		res.Times[i] = max(0, m.Wall.Seconds()-spawnWall)
		user[i] = max(0, m.User.Seconds()-spawnUser)
		sys[i] = max(0, m.Sys.Seconds()-spawnSys)
		res.MaxRSSBytes = max(res.MaxRSSBytes, m.MaxRSS)
		res.MinorFaults += float64(m.MinorFaults)
		res.MajorFaults += float64(m.MajorFaults)
		res.VoluntaryCtxSwitches += float64(m.VoluntaryCtxSwitches)
		res.InvoluntaryCtxSwitches += float64(m.InvoluntaryCtxSwitches)
		if !slices.Contains(res.ExitCodes, m.ExitCode) {
			res.ExitCodes = append(res.ExitCodes, m.ExitCode)
		}
		if m.ExitCode != 0 {
			res.FailedRuns++
		}
		if m.Wall < FastCommand {
			fast = true
		}
	}
	slices.Sort(res.ExitCodes)
	res.MinorFaults /= float64(n)
	res.MajorFaults /= float64(n)
	res.VoluntaryCtxSwitches /= float64(n)
	res.InvoluntaryCtxSwitches /= float64(n)
	res.Wall = Summarize(res.Times)
	res.User = Summarize(user)
	res.Sys = Summarize(sys)
	res.Outliers = append(res.Outliers, Outliers(res.Times)...)
	res.Warnings = warnings(res, fast)
	return res
}

// warnings says what may make res's numbers unreliable, in hyperfine's
// spirit.
func warnings(res Result, fast bool) []string {
	var w []string
	if res.ShellCorrected && fast {
		w = append(w, fmt.Sprintf("runs took less than %v including the shell: the spawn correction is about as large as the command; use -no-shell for accurate figures", FastCommand))
	}
	if res.FailedRuns > 0 {
		w = append(w, fmt.Sprintf("%d of %d runs exited non-zero (exit codes %s)", res.FailedRuns, res.Runs, joinInts(res.ExitCodes)))
	}
	if len(res.Outliers) > 0 {
		if res.Outliers[0] == 0 && ModifiedZScores(res.Times)[0] > 0 {
			w = append(w, fmt.Sprintf("the first run was much slower than the rest (%s): caches were probably cold; consider -warmup (or -prepare to clear them before every run)",
				formatDuration(res.Times[0], unitFor(res.Wall.Median))))
		} else {
			what := "1 statistical outlier"
			if n := len(res.Outliers); n > 1 {
				what = fmt.Sprintf("%d statistical outliers", n)
			}
			w = append(w, what+" (more than 10 robust standard deviations from the median): something else was running; re-run on a quiet system, or use -warmup or -prepare")
		}
	}
	return w
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

// unit is a time unit for display.
type unit struct {
	name  string
	scale float64 // seconds per unit
}

var (
	unitSecond = unit{"s", 1}
	unitMilli  = unit{"ms", 1e-3}
	unitMicro  = unit{"µs", 1e-6}
)

// unitFor picks the unit that shows seconds s with a leading digit: µs
// below 1 ms, ms below 1 s.
func unitFor(s float64) unit {
	switch {
	case s < 1e-3:
		return unitMicro
	case s < 1:
		return unitMilli
	default:
		return unitSecond
	}
}

// formatDuration formats seconds s in unit u with one decimal, "50.9 ms".
func formatDuration(s float64, u unit) string {
	return fmt.Sprintf("%.1f %s", s/u.scale, u.name)
}

// formatBytes formats n bytes in binary units, "1.9 MiB".
func formatBytes(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.1f KiB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	default:
		return fmt.Sprintf("%.2f GiB", float64(n)/(k*k*k))
	}
}
