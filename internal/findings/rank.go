package findings

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// ranked renders the causes and sorts them: section (fix, benchmark,
// broken, leave alone), fixes that name a change before those that name
// none (a function's own algorithm, or its own work on its inputs, in
// its category's words), then impact — causes whose impacts differ by less
// than the profile's sampling noise are a tie (see tiers) — then
// allocations per op, then file and line.
// serialUse reports whether the module has benchmarks at full weight (not
// a micro-benchmark's, not a component's) and none of them runs
// goroutines.
func (d *deriver) serialUse() bool {
	use := false
	for _, b := range d.benches {
		if b.weight < 1 {
			continue
		}
		if b.entry.Parallel {
			return false
		}
		use = true
	}
	return use
}

// componentOnly reports whether every benchmark a cause costs weighs less
// than a benchmark of the module's use (a micro-benchmark's, a
// component's).
func (d *deriver) componentOnly(c *cause) bool {
	if len(c.benches) == 0 {
		return false
	}
	for _, b := range c.benches {
		if b.weight >= 1 {
			return false
		}
	}
	return true
}

func (d *deriver) ranked() []document.Finding {
	type item struct {
		f      document.Finding
		rank   float64
		se     float64
		weight float64 // rank / impact
		bucket float64
		// spread is the sum of the cause's CPU shares over the
		// benchmarks it costs: within a tie, the cause more of the
		// module's use pays for comes first.
		spread float64
		// peak is the cause's largest share of one benchmark's
		// CPU, unweighted (see NamedFloor).
		peak   float64
		allocs float64
		// weak marks a fix that names no change: a function's own
		// algorithm in its category's words (whatever else it calls,
		// when those parts are in their categories' words too, and
		// whether or not it inlines when no shape names what to split
		// off), or its own work on what it is given (in any words: an
		// own-work shape's say so too). It
		// follows every fix that names one. So does a contention cause
		// only a component's own concurrent benchmarks show, in a
		// module whose other benchmarks never run concurrently: the
		// module's use, as benchmarked, does not produce it. So does a
		// library's own work in its category's words ("the library or
		// the level decides"): a choice of library, which the gate
		// names, not a change at a line.
		weak bool
		// unused marks a weak contention cause the module's use, as
		// benchmarked, does not produce: after every other fix.
		unused bool
	}
	serialUse := d.serialUse()
	var items []item
	for _, c := range d.causes {
		f := c.finding()
		if f.Message == "" {
			continue
		}
		rank, weight := f.Impact, 1.0
		if c.rule == document.RuleCPUPhase {
			// Where the time goes, not a fix at one line.
			weight = d.t.PhaseRank
		} else if c.lowOnly || c.ownWork {
			// A line's own code, or a call that is the function's
			// own work on its inputs, is rarely where the first fix
			// is.
			weight = d.t.OwnCodeRank
		}
		rank *= weight
		if d.opts.Production != nil && f.Section == document.SectionFix {
			// Production decides what matters: the cause's function's
			// share of the real program's cost, the benchmark's impact
			// within it.
			share := d.productionShare(c)
			f.ProductionShare = &share
			rank, weight = share, 1
			if share < d.opts.MinShare {
				rank = -1 + f.Impact/100 // after every warm cause
				f.Severity = document.SeverityLow
				f.Gain = strings.TrimSpace(f.Gain + fmt.Sprintf(" — cold in production: %s is %.1f%% of the production profile", shortName(c.fn), share*100))
			}
		}
		se := 0.0
		if f.Impact > 0 {
			// The rank's error scales with it (the phase and own-code
			// weights, production's share leave it unknown).
			se = c.impactError() * rank / f.Impact
		}
		items = append(items, item{f: f, rank: rank, se: se, weight: weight, allocs: c.allocs(), spread: c.spread(), peak: c.peak(), weak: ((c.lowOnly || c.unnamed) && f.Generic || c.ownWork || c.kind == document.KindLibrary && f.Generic || serialUse && c.kind == document.KindContention && d.componentOnly(c)) && f.Section == document.SectionFix && c.rule != document.RuleCPUPhase,
			unused: serialUse && c.kind == document.KindContention && d.componentOnly(c) && f.Section == document.SectionFix})
	}
	// A fix whose code names a change comes first, then one in its
	// category's words (what it would gain is less sure, and a busy
	// reader acts on the named changes first), then one that names no
	// change, then a small one in its category's words (GenericMin) or a
	// named change the profiles hardly see (NamedFloor),
	// then contention the module's use does not produce; by rank within
	// each.
	tier := func(it item) int {
		switch {
		case it.f.Rule == document.RuleAPIUnrun:
			// What the benchmarks leave out leads what is wrong
			// with them.
			return -1
		case it.unused:
			return 4
		case it.weak:
			return 2
		case it.f.Generic && it.f.Section == document.SectionFix && it.f.Rule != document.RuleCPUPhase:
			if it.f.Impact < d.t.GenericMin {
				// A small cost the code does not explain: a
				// guess from its category, after where the
				// rest of the time goes.
				return 3
			}
			return 1
		case it.f.Section == document.SectionFix && it.peak < d.t.NamedFloor && it.f.Rule != document.RuleCPUPhase:
			// A change named for a cost the profiles hardly see
			// (a fraction of a percent of any benchmark's time):
			// with the small costs in their category's words,
			// after where the rest of the time goes.
			return 3
		case it.f.Section == document.SectionFix && it.f.Impact < d.t.NamedMin && it.f.Rule == document.RuleCPUNotInlined:
			// Inlining a function of a small share gains at most
			// its calls' overhead, a part of that share: among
			// the costs in their category's words, by impact.
			return 1
		}
		return 0
	}
	// Order by rank, then give the causes of one tier the same bucket:
	// within a tier the order is by allocations, file and line, which do
	// not vary from run to run.
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(
			cmp.Compare(sectionRank(a.f.Section), sectionRank(b.f.Section)),
			cmp.Compare(tier(a), tier(b)),
			cmp.Compare(b.rank, a.rank),
			strings.Compare(a.f.File, b.f.File),
			cmp.Compare(a.f.Line, b.f.Line),
		)
	})
	for i := 0; i < len(items); {
		lead := items[i]
		j := i + 1
		for j < len(items) && sectionRank(items[j].f.Section) == sectionRank(lead.f.Section) && tier(items[j]) == tier(lead) &&
			d.tied(lead.rank/lead.weight, lead.se/lead.weight, items[j].rank/lead.weight, items[j].se/lead.weight) {
			j++
		}
		for k := i; k < j; k++ {
			items[k].bucket = -float64(i) // earlier tiers first
		}
		i = j
	}
	slices.SortStableFunc(items, func(a, b item) int {
		return cmp.Or(
			cmp.Compare(sectionRank(a.f.Section), sectionRank(b.f.Section)),
			cmp.Compare(tier(a), tier(b)),
			cmp.Compare(b.bucket, a.bucket),
			cmp.Compare(spreadTier(b.spread, a.spread), 0),
			cmp.Compare(b.allocs, a.allocs),
			strings.Compare(a.f.File, b.f.File),
			cmp.Compare(a.f.Line, b.f.Line),
			strings.Compare(a.f.Message, b.f.Message),
		)
	})
	generated := map[string]bool{}
	for _, s := range d.doc.Shapes {
		if s.Name == "generated-file" {
			generated[s.File] = true
		}
	}
	out := make([]document.Finding, len(items))
	for i, it := range items {
		out[i] = it.f
		out[i].NoChange = it.weak && !(serialUse && it.f.Kind == document.KindContention)
		if generated[out[i].File] && out[i].Section == document.SectionFix && !out[i].NoChange && out[i].Suggestion != "" {
			// The change is the generator's to make.
			out[i].Suggestion += "; " + generatedNote
		}
	}
	namePerType(out)
	return out
}

// tied reports whether a cause of rank b (standard error seB) is in the
// tier a cause of rank a ≥ b leads: their difference is within RankZ
// standard errors of the difference when both profiles' sample counts
// are known; otherwise both round to the same multiple of RankBucket.
func (d *deriver) tied(a, seA, b, seB float64) bool {
	if seA > 0 && seB > 0 {
		return a-b <= d.t.RankZ*math.Hypot(seA, seB)
	}
	return math.Round(a/d.t.RankBucket) == math.Round(b/d.t.RankBucket)
}

// namePerType names the API-level alternative once per type: the costliest
// API cost of a type keeps it, the type's others point to that one; a cost
// whose advice came from the code at its line (a shape) keeps its own.
func namePerType(fs []document.Finding) {
	first := map[string]string{} // receiver type → the function named first
	for i := range fs {
		f := &fs[i]
		if f.Section != document.SectionAPI || f.Shape != "" {
			// A cost whose advice the code at its line gave keeps it.
			continue
		}
		fn := document.PlainFunc(f.Function)
		recv := receiver(fn)
		if recv == "" {
			continue
		}
		if by, ok := first[recv]; ok {
			f.Suggestion = fmt.Sprintf("an API cost of %s, as is %s above: the one API-level alternative of the type covers both", shortName(recv), by)
			continue
		}
		first[recv] = shortName(fn)
	}
}

// productionShare is the production share of the cause's function, or of
// the costliest function among its lines.
func (d *deriver) productionShare(c *cause) float64 {
	share := d.opts.Production[document.PlainFunc(c.fn)]
	for _, l := range c.lines {
		if l.Function != "" {
			share = max(share, d.opts.Production[document.PlainFunc(l.Function)])
		}
	}
	return share
}

func sectionRank(s document.Section) int {
	switch s {
	case document.SectionFix:
		return 0
	case document.SectionAPI:
		return 1
	case document.SectionBenchmark:
		return 2
	case document.SectionBroken:
		return 3
	}
	return 4
}

// gate is the decision gate: a handful of rows about the module.
func (d *deriver) gate(fs []document.Finding) []document.Gate {
	var rows []document.Gate
	// Allocation pressure: gc + memory above the threshold in at least
	// half the benchmarks.
	var shares []float64
	over := 0
	for _, b := range d.benches {
		if len(b.cats) == 0 {
			continue
		}
		s := b.memGC()
		shares = append(shares, s)
		if s > d.t.GateAllocs {
			over++
		}
	}
	if len(shares) > 0 {
		slices.Sort(shares)
		med := shares[len(shares)/2]
		if 2*over >= len(shares) {
			rows = append(rows, document.Gate{
				Rule: "reduce allocations first", Metric: "gc+memory", Unit: "share", Measured: med, Threshold: d.t.GateAllocs,
				Verdict: document.VerdictFirst,
				Message: fmt.Sprintf("garbage collection and allocation take %s of CPU (median) and more than %s in %d of %d benchmarks: the allocation causes come first", pct(med), pct(d.t.GateAllocs), over, len(shares)),
			})
		}
	}
	sys, sysBench := 0.0, ""
	for _, b := range d.benches {
		if s := b.cats["syscall"]; s > sys {
			sys, sysBench = s, b.name()
		}
	}
	if sys > d.t.GateSyscall && !d.randomness(sysBench, sys) {
		rows = append(rows, document.Gate{
			Rule: "I/O strategy", Benchmark: sysBench, Metric: "syscall", Unit: "share", Measured: sys, Threshold: d.t.GateSyscall,
			Verdict: document.VerdictFirst,
			Message: fmt.Sprintf("system calls take %s of %s's CPU: buffer the I/O, batch writes, or read larger blocks", pct(sys), sysBench),
		})
	}
	count := func(kind document.Kind) (n int, top document.Finding) {
		for _, f := range fs {
			if f.Kind == kind && !f.Rule.Note() && f.Rule != document.RuleGlobalLeft && f.Section != document.SectionLeaveAlone {
				// A timed setup measured too small to distort is a
				// note, not a reason to fix the benchmarks first; a
				// cause left alone (a shard's lock, a lock's own
				// word) is nothing to do first.
				if n == 0 {
					top = f
				}
				n++
			}
		}
		return n, top
	}
	if n, top := count(document.KindContention); n > 0 {
		g := document.Gate{Rule: "contention", Benchmark: top.Benchmark, Metric: "scheduler", Unit: "share",
			Measured: top.Impact, Threshold: d.t.ContendMin, Verdict: document.VerdictFirst,
			Message: fmt.Sprintf("%d parallel benchmark(s) spend more than %s of their CPU waiting on each other", n, pct(d.t.ContendMin))}
		if len(d.cores) > 0 {
			g.Metric, g.Threshold = "contention", d.t.ScaleOK
			g.Message = fmt.Sprintf("%d contention cause(s) keep concurrent benchmarks from scaling with the cores (efficiency below %.1f); the first is in %s", n, d.t.ScaleOK, top.Benchmark)
		}
		rows = append(rows, g)
	}
	if n, top := count(document.KindLibrary); n > 0 {
		rows = append(rows, document.Gate{Rule: "library or format choice", Benchmark: top.Benchmark, Metric: "library", Unit: "share",
			Measured: top.Impact, Threshold: d.t.CPUMin, Verdict: document.VerdictConsider,
			Message: fmt.Sprintf("%s: the library or the format decides this cost; compare implementations or formats before tuning the calls", top.Message)})
	}
	nb, _ := count(document.KindBroken)
	nf, _ := count(document.KindFixture)
	if nb+nf > 0 {
		rows = append(rows, document.Gate{Rule: "fix the benchmarks first", Metric: "benchmarks", Measured: float64(nb + nf),
			Verdict: document.VerdictFirst,
			Message: fmt.Sprintf("%d benchmark(s) are broken and %d measure their own code along with the module: fix them before trusting their numbers", nb, nf)})
	}
	if m := d.doc.PGO; m != nil {
		rows = append(rows, measuredPGO(m))
	} else if len(d.doc.MainPackages) > 0 && d.goCodeIsHot() {
		rows = append(rows, document.Gate{Rule: "profile-guided optimization", Metric: "pgo",
			Verdict: document.VerdictConsider,
			Message: fmt.Sprintf("the module builds %s: profile-guided optimization applies to it; measure the gain with perfloop pgo before relying on it", strings.Join(d.doc.MainPackages, ", "))})
	}
	return rows
}

// goCodeIsHot reports whether the module's own Go code (not assembly)
// decides a share of some benchmark's CPU that profile-guided
// optimization could change: inlining and devirtualization act on Go code
// only.
func (d *deriver) goCodeIsHot() bool {
	for _, b := range d.benches {
		own := 0.0
		for _, l := range b.lines {
			if !l.InTest && !strings.HasSuffix(l.File, ".s") && d.isModule(l.Function) {
				own += l.Self
			}
		}
		if own >= d.t.PGOGoShare {
			return true
		}
	}
	return false
}

// measuredPGO is the gate's row when perfloop pgo measured the module: its
// figure, never a range from elsewhere.
func measuredPGO(m *document.PGOSummary) document.Gate {
	at := m.Date
	if m.Commit != "" {
		at = m.Commit[:min(12, len(m.Commit))] + ", " + m.Date
	}
	build := ""
	if b := m.BuildSeconds; b != nil && b.Off > 0 {
		build = fmt.Sprintf("; a build from an empty cache takes %+.0f%%", 100*(b.PGO/b.Off-1))
	}
	g := document.Gate{Rule: "profile-guided optimization", Metric: "pgo", Unit: "geomean", Measured: m.Geomean}
	if m.Best == nil {
		g.Verdict = document.VerdictDontTouch
		g.Message = fmt.Sprintf("perfloop pgo measured no significant gain (%s): geomean %+.1f%% over %d benchmark(s), %d slower%s",
			at, 100*m.Geomean, m.Benchmarks, m.Slower, build)
		return g
	}
	g.Verdict = document.VerdictConsider
	g.Benchmark = m.Best.Name
	g.Message = fmt.Sprintf("perfloop pgo measured it (%s): %d of %d benchmark(s) faster, best %s %+.1f%% [%+.1f%%, %+.1f%%], geomean %+.1f%%, %d slower%s",
		at, m.Faster, m.Benchmarks, m.Best.Name, 100*m.Best.Delta, 100*m.Best.Low, 100*m.Best.High, 100*m.Geomean, m.Slower, build)
	return g
}

// randomness reports whether most of a benchmark's system calls (share of
// its CPU) read the operating system's randomness (crypto/rand, getrandom):
// a value's cryptographic bytes, not I/O to buffer or batch.
func (d *deriver) randomness(bench string, share float64) bool {
	most := 0.0
	for _, h := range d.doc.Hotspots {
		if h.Benchmark == bench && anyIn(h.Function, "crypto/internal/sysrand.", "internal/syscall/unix.GetRandom", "crypto/rand.Read") {
			most = max(most, h.Cum)
		}
	}
	return most >= share/2
}

// spreadTier compares two causes' summed CPU shares (see item.spread)
// only when one is clearly the larger, by half a benchmark's whole time:
// closer sums are a tie, left to the allocations.
func spreadTier(a, b float64) int {
	switch {
	case a-b > 0.5:
		return 1
	case b-a > 0.5:
		return -1
	}
	return 0
}

// generatedNote ends the advice of a fix in a generated file.
const generatedNote = "the file is generated (Code generated … DO NOT EDIT): make the change in its generator, or in a step run after it, or the next go generate undoes it"
