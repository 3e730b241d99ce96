package cmdbench

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// RatioMethod says, in the words output uses, how comparisons are computed.
const RatioMethod = "ratio of mean wall times; ± is the delta-method standard deviation (as hyperfine), " +
	"low/high a 95% percentile bootstrap interval (10000 resamples, whole rounds resampled when interleaved)"

func (e *engine) report() *document.Exec {
	r := &document.Exec{
		Schema:             document.ExecSchema,
		RatioMethod:        RatioMethod,
		Interleaved:        e.opts.Interleave,
		ShellSpawn:         e.spawn,
		Comparisons:        []document.ExecComparison{},
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
func (e *engine) compare(a, b *bench, ra, rb document.ExecResult) document.ExecComparison {
	c := document.ExecComparison{A: ra.Name, B: rb.Name}
	var zero []string
	for _, x := range []struct {
		b   *bench
		res document.ExecResult
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
func (e *engine) result(b *bench) document.ExecResult {
	n := len(b.runs)
	res := document.ExecResult{
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
func warnings(res document.ExecResult, fast bool) []string {
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
