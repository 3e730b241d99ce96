package loop

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/profiles"
)

// The evidence budget: how much CPU profile the report adds to what the
// benchmark rounds recorded.
//
// A share of a profile of n samples has a binomial standard error of
// √(s(1−s)/n); the findings compare shares with thresholds
// (findings.DefaultThresholds), and a comparison is undecided while the
// share lies within decideZ standard errors of its threshold. Only
// undecided comparisons earn profile time, and only within the budget:
// evidenceShare of the rounds' own time, spent on the benchmarks whose
// undecided shares are largest first (what the extra samples can
// change). A benchmark's family — the benchmarks of its package whose
// profiles are at the same module function, such as table-driven sizes or
// a serial and a parallel variant — pools its samples: the findings join
// causes across benchmarks, so a function the family's profiles decide
// needs no more samples from each member, and a member with a small share
// of its family's samples gets none.
const (
	// decideZ is how many standard errors from its threshold a share
	// must be to be decided (two: about 95%).
	decideZ = 2
	// evidenceShare is the profile time the budget adds, as a share of
	// the rounds' wall time.
	evidenceShare = 0.10
	// minSamples is the fewest samples a family's profiles must hold
	// whatever the budget: below it no share is known at all (a 20ms
	// -benchtime gives two).
	minSamples = 20
	// profilerHz is the CPU profiler's rate: the samples a second of
	// one busy core gives, assumed for a benchmark whose rounds gave
	// none.
	profilerHz = 100
	// waitSamples is how many samples a run's profile would have held,
	// had its benchmark computed at findings' OffCPU of a core, for no
	// sample at all to say that it waits: none of an expected five
	// happens less than once in a hundred.
	waitSamples = 5
	// smallInFamily is the share of its family's samples below which a
	// benchmark gets its evidence from the family alone.
	smallInFamily = 0.10
	// maxRunCost bounds cpuNeed.cost: a setup that dwarfs the timed work
	// is charged as if it were this many times it.
	maxRunCost = 20
)

// share is a profile share and the threshold the findings compare it
// with.
type share struct{ s, threshold float64 }

// comparisons lists the comparisons the findings make with a CPU
// profile's shares (the thresholds come from t): each module line's call
// into other code against CPUMin, each function's own code against
// OwnCodeMin, each module function's cumulative share against the
// severities, the categories against the gate, and the shares that say a
// benchmark is broken or measures its own code.
func comparisons(c *profiles.CPU, t findings.Thresholds) []share {
	var out []share
	own := map[string]float64{}
	for _, l := range c.Lines {
		if l.InTest {
			continue
		}
		if l.Callee != "" {
			out = append(out, share{l.Cum, t.CPUMin})
		} else {
			own[l.Function] += l.Self
		}
	}
	for _, fn := range slices.Sorted(maps.Keys(own)) {
		out = append(out, share{own[fn], t.OwnCodeMin})
	}
	for _, f := range c.Functions {
		if f.Module && !strings.HasSuffix(f.File, "_test.go") {
			out = append(out, share{f.CumShare, t.SevMedium}, share{f.CumShare, t.SevHigh})
		}
	}
	cat := map[string]float64{}
	for _, k := range c.Categories {
		cat[k.Name] = k.Share
	}
	out = append(out,
		share{cat[profiles.CategoryGC] + cat[profiles.CategoryMemory], t.GateAllocs},
		share{cat[profiles.CategorySyscall], t.GateSyscall},
		share{cat[profiles.CategoryScheduler], t.ContendMin},
		share{c.ModuleShare, t.NoModule},
		share{c.ModuleShare, t.FixtureModuleCPU},
		share{c.CalleeShare, t.NoCallee},
	)
	return out
}

// undecided returns how many samples the comparisons need to be decided
// (0 when n decides them all) and the largest share among those n leaves
// undecided. A share the profile never saw (0) and a share of 1 have no
// binomial error: they decide nothing more with more samples of the same
// kind and are left to the floor of minSamples.
func undecided(cs []share, n float64, t findings.Thresholds) (need, value float64) {
	for _, c := range cs {
		if c.s < t.GainMin || c.s >= 1 {
			continue
		}
		v := c.s * (1 - c.s)
		d := math.Abs(c.s - c.threshold)
		if d >= decideZ*math.Sqrt(v/n) {
			continue
		}
		// The samples at which the distance is decideZ standard
		// errors; a share at its threshold exactly is never decided,
		// and asks for as much as the cap gives.
		k := math.Inf(1)
		if d > 0 {
			k = decideZ * decideZ * v / (d * d)
		}
		need = max(need, k)
		value = max(value, c.s)
	}
	return need, value
}

// cpuNeed is what planExtra knows of one benchmark's CPU evidence.
type cpuNeed struct {
	// family names the benchmark's family ("" for none: a family of
	// its own).
	family string
	// samples are its rounds' samples; rate how many samples a second of
	// its runs gives.
	samples, rate float64
	// need and value are undecided's for its profile.
	need, value float64
	// cost is the wall time a run of it takes per second of timed work
	// (its rounds' wall time over their timed work: process start, the
	// benchmark's setup, the ramp); 0 counts as 1. The budget is charged
	// what a run costs, not what it measures.
	cost float64
}

// planExtra decides how long each benchmark's extra CPU-profile run is (0:
// none), in timed work. A family holding fewer than minSamples gets them
// whatever the budget; beyond that, the benchmarks with undecided
// comparisons are served largest undecided share first, each up to what
// decides them or up to perBench, while budget lasts, each charged what
// its run costs (cpuNeed.cost). A benchmark's comparisons are
// counted at its family's pooled samples, extra ones included as they
// are granted; one with less than smallInFamily of its family's samples
// is decided by the family.
func planExtra(ns []cpuNeed, budget, perBench time.Duration) []time.Duration {
	extra := make([]time.Duration, len(ns))
	pooled := map[string]float64{}
	key := func(i int) string {
		if ns[i].family == "" {
			return fmt.Sprintf("\x00%d", i) // a family of its own
		}
		return ns[i].family
	}
	for i, n := range ns {
		pooled[key(i)] += n.samples
	}
	grant := func(i int, want float64, limit time.Duration) time.Duration {
		n := ns[i]
		if n.rate <= 0 || want <= pooled[key(i)] {
			return 0
		}
		// A run shorter than minExtra costs its process start for
		// little: round up, within the limits.
		secs := max((want-pooled[key(i)])/n.rate, minExtra.Seconds())
		secs = min(secs, (perBench - extra[i]).Seconds(), limit.Seconds())
		if secs <= 0 || secs < min(minExtra, perBench).Seconds() {
			return 0
		}
		d := time.Duration(secs * float64(time.Second))
		extra[i] += d
		pooled[key(i)] += d.Seconds() * n.rate
		return d
	}
	// The floor, family by family: the member with the most samples
	// (its fastest source of more) runs.
	order := make([]int, len(ns))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ns[b].samples, ns[a].samples) })
	for _, i := range order {
		grant(i, minSamples, perBench)
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ns[b].value, ns[a].value) })
	for _, i := range order {
		n := ns[i]
		if n.need == 0 || budget <= 0 {
			continue
		}
		if p := pooled[key(i)]; p > 0 && n.samples/p < smallInFamily {
			continue
		}
		c := max(n.cost, 1)
		d := grant(i, n.need, time.Duration(float64(budget)/c))
		budget -= time.Duration(float64(d) * c)
	}
	return extra
}

// family names the module function a CPU profile is at: the module's
// function outside test files with the largest cumulative share (the
// outermost one the benchmark calls), prefixed with the package; "" when
// the profile shows none.
func family(pkg string, c *profiles.CPU) string {
	best := -1
	for i, f := range c.Functions {
		if !f.Module || strings.HasSuffix(f.File, "_test.go") || f.CumShare <= 0 {
			continue
		}
		if best < 0 || f.CumShare > c.Functions[best].CumShare ||
			f.CumShare == c.Functions[best].CumShare && f.Name < c.Functions[best].Name {
			best = i
		}
	}
	if best < 0 {
		return ""
	}
	return pkg + " " + c.Functions[best].Name
}

// waited reports whether CPU profiles that ran for d in all without a
// sample say that their benchmark waits: a benchmark computing at offCPU
// of a core would have been sampled waitSamples times in d. A shorter
// run without a sample says only that it was brief.
func waited(d time.Duration, offCPU float64) bool {
	return d.Seconds()*profilerHz*offCPU >= waitSamples
}
