package findings

import (
	"math"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/stats"
)

// Thresholds are the numbers the rules compare the evidence with. Every
// field names the rule that reads it; the package doc says what each rule
// means. DefaultThresholds are perfloop's, and TestSpec pins each of them:
// doubling or halving any one changes the findings of a case built at its
// edge (thresholds_test.go).
//
// Shares are fractions of a benchmark's CPU time, bytes or objects per op
// (0..1); times are seconds per op.
type Thresholds struct {
	// SiteMin (alloc): the smallest share of a benchmark's per-op bytes
	// or objects that makes a module site a candidate.
	SiteMin float64
	// ShapedSiteMin (alloc): the same, for a site whose line a shape of
	// code explains with a change to make there.
	ShapedSiteMin float64
	// RareAllocs and RareBytes (alloc): a site that allocates less than
	// RareAllocs times per op with under RareBytes of the bytes is an
	// error path or a rarely taken branch, not a cause.
	RareAllocs, RareBytes float64
	// RareBytesPerOp (alloc): so is one under RareAllocs times per op
	// with fewer bytes per op than this, whatever its share: all of
	// 47 B/op in a benchmark that allocates nothing else (hamba/avro's
	// pooled Reader, whose slab is made when the pool hands out a fresh
	// one) is an amortized cost, not a change to make first.
	RareBytesPerOp float64
	// PartsMaxBytes (alloc, advice): parts of one value allocated
	// apart are one allocation's change ("parts-apart") only while they
	// average fewer bytes than this per allocation: beyond it, zeroing
	// and collecting the bytes cost more than the allocations' count,
	// which carving the parts out of one allocation is all it saves
	// (andybalholm/brotli's hasher tables, 12 MiB each).
	PartsMaxBytes float64
	// InherentFactor (alloc, ranking): the weight of an allocation the
	// API forces (the function returns what it allocates).
	InherentFactor float64

	// CPUMin (cpu): the smallest cum share of a library call made from a
	// module line that makes it a part of the function's CPU cause.
	CPUMin float64
	// DriverSelf (cpu): a call of a library of no known kind (not a
	// sort, an encoder, reflection, …) whose time with no module code
	// below is under this share of its time below (http.HandlerFunc's
	// ServeHTTP, calling the router's own handler) is an adapter that
	// calls the module back: its cost is its own time, and the
	// callbacks' is at their own lines.
	DriverSelf float64
	// SpreadMin (cpu-spread): the share a function's calls below CPUMin
	// need together (at two lines or more; with its own code when that is
	// below OwnCodeMin) to be a cause though none is one alone.
	SpreadMin float64
	// PhaseMin and PhaseMemory (cpu-phase): the share a phase of a
	// program's run needs to be a cause, and the share of it in
	// allocation and GC from which the allocation causes come first.
	PhaseMin, PhaseMemory float64
	// PhaseRank (ranking): the weight of a phase, which says where the
	// time goes rather than what to change at one line: above a
	// function's own algorithm (OwnCodeRank), below a cause with a fix.
	PhaseRank float64
	// OwnCodeMin (cpu): the share a function's own lines (lines that call
	// nothing) need together to be a part of their own.
	OwnCodeMin float64
	// OwnJoinMin (cpu): an own line joins a cause that exists from this
	// share, and is listed among the cause's lines.
	OwnJoinMin float64
	// PartMin (cpu): the smallest part, after the largest, the message
	// names.
	PartMin float64
	// RepeatMin (repeated-call): the smallest share of each call of the
	// same callee with the same arguments from two lines of a function.
	RepeatMin float64
	// InlineHot and InlineNear (cpu): a function the compiler does not
	// inline is a part of its cause when its flat share is at least
	// InlineHot and its inlining cost at most InlineNear × the budget.
	InlineHot, InlineNear float64
	// CalleeBound (cpu): a function not inlined whose flat time is less
	// than CalleeBound × its cumulative time spends each call in what it
	// calls; the call's own cost is no handle.
	CalleeBound float64
	// NotInlinedOwn (cpu): without an own-code part, the share of the
	// flat time of a function not inlined charged to its own code.
	NotInlinedOwn float64

	// FixtureBytes (fixture): the share of the per-op bytes a _test.go
	// site needs to be the benchmark's own cost.
	FixtureBytes float64
	// FixtureCPU (fixture): the share of a benchmark's CPU a line of
	// its loop that opens or reads a file (file-per-op), or builds the
	// value it measures (built-per-op), needs to be the benchmark's own
	// cost.
	FixtureCPU float64
	// FixtureModuleCPU (fixture): below this module CPU share a
	// benchmark measures mostly its own code (a baseline or a broken
	// one): its sites are not fixtures.
	FixtureModuleCPU float64

	// BrokenSecPerOp (broken): below this the compiler removed the work.
	BrokenSecPerOp float64
	// TimeoutLow and TimeoutHigh (broken): a time per op between these
	// multiples of a constant timeout the benchmark sets (timeout-set)
	// is the timeout's: the benchmark measures the clock.
	TimeoutLow, TimeoutHigh float64
	// NoModule and NoCallee (broken, leave alone): a CPU profile with
	// less module code than NoModule and less time in callees than
	// NoCallee runs a loop over nothing; with less module code alone, a
	// baseline of another package.
	NoModule, NoCallee float64
	// OffCPU (broken, leave alone): a benchmark whose CPU profile
	// sampled less CPU time over the time it ran than this share of what
	// a benchmark that computes gets (the median of the report's other
	// benchmarks, between half a core and one) spends its time waiting: little
	// module code in its samples is not a loop over nothing, nor a
	// baseline of another package.
	OffCPU float64
	// SpareCores (broken, leave alone): a report during which fewer of
	// the machine's cores than this sat idle, on average, ran beside
	// other processes that may have taken a benchmark's CPU: a profile
	// sampling under OffCPU of what a computing benchmark gets says
	// nothing then — neither waiting nor a loop over nothing. A
	// benchmark that waits leaves the cores it does not use idle.
	SpareCores float64
	// DriftMin and DriftRho (broken, lint): B/op that moves by this
	// factor with the iteration count, in its order (Spearman's |ρ| at
	// least DriftRho over three runs or more), keeps what it allocates,
	// or times a one-time cost.
	DriftMin, DriftRho float64
	// TimedSetupRatio and TimedSetupBytes (broken): reported B/op above
	// TimedSetupRatio × what the timed loop allocates, and above it by
	// TimedSetupBytes, is setup inside the timer.
	TimedSetupRatio, TimedSetupBytes float64
	// TimedSetupShare (broken): a timed setup perfloop lint found is a
	// broken benchmark when the CPU profile puts at least this share of
	// the benchmark's time at the setup's line once scaled to go test's
	// default -benchtime of 1s (a one-time cost's share falls as the run
	// grows); less is a note about the benchmark's code.
	TimedSetupShare float64
	// HeapSetupShare (broken): a one-time cost seen only in the heap
	// profiles' bytes per iteration at two counts (the rounds ran at one
	// fixed b.N) is a broken benchmark from this share of its B/op: the
	// code under test warms up too (a pool's first objects, paid once
	// per process in production as well), which two heap runs cannot
	// tell from a setup in the timer; echo's Gzip warm-up is 2%.
	HeapSetupShare float64

	// LeaveMin and TightSecPerOp (leave alone): a benchmark at 0
	// allocs/op faster than TightSecPerOp with no cause of LeaveMin of
	// its CPU outside its own algorithm has nothing to fix.
	LeaveMin, TightSecPerOp float64

	// ContendMin (contention, gate): the scheduler share, preemption
	// excluded, of a benchmark that starts goroutines and has no
	// core-scaling row.
	ContendMin float64
	// ScaleOK (contention): the efficiency ns(1) / (N × ns(N)) at which a
	// concurrent benchmark scales.
	ScaleOK float64
	// BusyCores (contention): a run at N cores that got less than
	// BusyCores × N cores of CPU ran on a busy machine.
	BusyCores float64
	// InsideWork (contention): the CPU an exclusive critical section
	// holds that makes the lock a cause (Amdahl).
	InsideWork float64
	// ReadLockCPU (contention): the CPU an RWMutex's read lock
	// operations take that makes them a cause.
	ReadLockCPU float64
	// DelayMin (contention): lock waits per op, over the goroutines'
	// time, that make the lock a cause.
	DelayMin float64
	// GrowthFactor (contention): a line whose CPU per op grows by this
	// factor from 1 to N cores.
	GrowthFactor float64
	// AtomicMin (contention): the CPU of a function's atomic writes to
	// state every goroutine shares.
	AtomicMin float64

	// SevHigh and SevMedium (ranking): the impact of a high and a medium
	// finding.
	SevHigh, SevMedium float64
	// RankBucket (ranking): impacts are compared rounded to this, so the
	// profile's sampling noise does not reorder the first screen.
	RankBucket float64
	// RankZ (ranking): causes whose impacts differ by less than RankZ
	// standard errors of the difference (the binomial errors of their
	// CPU shares, from the profiles' sample counts) are a tie, ordered by
	// what does not vary from run to run; RankBucket applies when the
	// sample counts are not known.
	RankZ float64
	// RankRel (ranking): the least standard error of a CPU share, as a
	// share of it. Two runs of one commit differ by more than the
	// binomial error of their samples (the machine's load moves the
	// collector's and the scheduler's share against the code's): echo's
	// bindData was 4.8% and 5.8% of its benchmark in two runs of
	// thousands of samples each, a difference the binomial error calls
	// real.
	RankRel float64
	// OwnCodeRank (ranking): the weight of a cause that is only a
	// function's own algorithm, or whose advice says its code is the
	// function's own work on its inputs (no change to name).
	OwnCodeRank float64
	// GainMin (ranking): the smallest CPU share the expected gain names.
	GainMin float64
	// InlineClose (advice): a hot function the compiler does not
	// inline whose cost is at most InlineClose over the budget is a few
	// nodes from inlining: a change its numbers name, not its own
	// algorithm in its category's words.
	InlineClose int
	// ChunkMin (advice): the fewest nodes per op, in the benchmarks of
	// the module's use, for which allocating a tree's nodes in chunks
	// (a node-chunks shape) fits: a tree of fewer is smaller than one
	// chunk, and its nodes are what parsing builds, the API's cost.
	ChunkMin float64
	// GenericMin (ranking): a fix in its category's words (generic)
	// whose impact is below GenericMin follows the fixes that name no
	// change: a small cost the code does not explain is a guess, not
	// what to do first.
	GenericMin float64
	// NamedMin (ranking): a function just over the inlining budget
	// (cpu-not-inlined) whose impact is below NamedMin ranks with the
	// fixes in their category's words, by impact: inlining it gains at
	// most its calls' overhead, a part of a small share, no first thing
	// to do beside 40% of a benchmark in a category's words.
	NamedMin float64
	// NamedFloor (ranking): a fix that names a change but whose impact
	// (its share of a benchmark's time, allocation costs included) is
	// below NamedFloor ranks with the small costs in their category's
	// words (GenericMin), after the fixes that name no change: a change
	// the profiles hardly see is not the first to make.
	NamedFloor float64
	// MicroWeight (ranking): the weight of a micro-benchmark (one that
	// calls an internal function or method of the module directly and
	// runs faster than TightSecPerOp) in a module that also benchmarks
	// its API: what the user gains is decided where the API is measured.
	MicroWeight float64
	// ComponentWeight (ranking): the weight of a component's own
	// benchmark (one whose profile stays in module packages that another
	// package's benchmark reaches along with more of the module): the
	// broader benchmark measures the component as the module uses it.
	ComponentWeight float64

	// AdviceShare (advice): a shape of code gives a cause its advice only
	// when its lines hold at least this share of what the cause costs
	// at its lines: a shape at a line that costs little does not speak
	// for the cause.
	AdviceShare float64
	// AdvicePartShare (advice): a shape that holds at least this share,
	// but less than AdviceShare, of a cause that has no advice of its
	// own names its change first, with its line and share, the
	// category's words for the rest after: a part of the cost with a
	// named change beats none.
	AdvicePartShare float64
	// AdviceUnnamedShare (advice): a cause led by its function's own
	// code in no shape, whose other parts name no change either (only
	// "the algorithm itself"), takes the change a shape names at a part
	// that holds at least this share of it: strcase's camel-case loop
	// (52% of the benchmark, no shape) beside the acronym registry's
	// lookup that nothing configured (12% of the benchmark, 7% of what
	// the cause's lines cost over its benchmarks, a registry-unset
	// shape). The
	// change is the cause's one handle, so the advice is no longer
	// generic.
	AdviceUnnamedShare float64

	// GateAllocs (gate): gc + memory share above which, in half the
	// benchmarks, allocations come first.
	GateAllocs float64
	// GateSyscall (gate): the syscall share of a benchmark that makes
	// I/O strategy come first.
	GateSyscall float64
	// PGOGoShare (gate): the module's Go code's CPU share (not
	// assembly) in some benchmark for PGO to be worth measuring.
	PGOGoShare float64
}

// DefaultThresholds are the thresholds Derive uses unless Options says
// otherwise.
var DefaultThresholds = Thresholds{
	SiteMin:        0.05,
	ShapedSiteMin:  0.025,
	RareAllocs:     0.05,
	RareBytes:      0.20,
	RareBytesPerOp: 256,
	PartsMaxBytes:  1024,
	InherentFactor: 0.5,

	CPUMin:        0.08,
	SpreadMin:     0.06,
	PhaseMin:      0.10,
	PhaseMemory:   0.40,
	OwnCodeMin:    0.15,
	OwnJoinMin:    0.02,
	PartMin:       0.05,
	RepeatMin:     0.03,
	InlineHot:     0.03,
	InlineNear:    1.5,
	CalleeBound:   0.25,
	NotInlinedOwn: 0.5,

	FixtureBytes:     0.20,
	FixtureCPU:       0.10,
	FixtureModuleCPU: 0.20,

	BrokenSecPerOp:  1e-9,
	TimeoutLow:      0.9,
	TimeoutHigh:     1.5,
	NoModule:        0.01,
	DriverSelf:      0.2,
	NoCallee:        0.05,
	OffCPU:          0.25,
	SpareCores:      0.5,
	DriftMin:        2,
	DriftRho:        0.8,
	TimedSetupRatio: 1.5,
	TimedSetupBytes: 64,
	TimedSetupShare: 0.01,
	HeapSetupShare:  0.05,

	LeaveMin:      0.05,
	TightSecPerOp: 50e-9,

	ContendMin:   0.20,
	ScaleOK:      0.8,
	BusyCores:    0.75,
	InsideWork:   0.20,
	ReadLockCPU:  0.15,
	DelayMin:     0.05,
	GrowthFactor: 1.5,
	AtomicMin:    0.15,

	SevHigh:         0.20,
	SevMedium:       0.07,
	RankBucket:      0.025,
	RankZ:           2,
	RankRel:         0.1,
	OwnCodeRank:     0.3,
	PhaseRank:       0.5,
	GainMin:         0.01,
	MicroWeight:     0.25,
	GenericMin:      0.1,
	NamedMin:        0.05,
	NamedFloor:      0.01,
	InlineClose:     8,
	ChunkMin:        64,
	ComponentWeight: 0.1,

	AdviceShare:        0.25,
	AdvicePartShare:    0.15,
	AdviceUnnamedShare: 0.05,

	GateAllocs:  0.20,
	GateSyscall: 0.40,
	PGOGoShare:  0.10,
}

// BytesDrift judges a benchmark's B/op over its runs (iteration count,
// B/op): the factor by which it moves with the iteration count, the
// largest over the smallest, inverted when it falls as b.N grows; and
// whether that is drift: at least DriftMin apart and ordered by the
// iteration count (Spearman's |ρ| at least DriftRho over three runs or
// more; two runs must be four times apart in iterations). perfloop lint
// judges results files with it too.
func (t *Thresholds) BytesDrift(runs []document.IterSample) (factor float64, drifts bool) {
	if len(runs) < 2 {
		return 0, false
	}
	lo, hi := math.Inf(1), 0.0
	minIt, maxIt := math.Inf(1), 0.0
	ns, bs := make([]float64, len(runs)), make([]float64, len(runs))
	for i, r := range runs {
		lo, hi = math.Min(lo, r.Value), math.Max(hi, r.Value)
		minIt, maxIt = math.Min(minIt, r.Iters), math.Max(maxIt, r.Iters)
		ns[i], bs[i] = r.Iters, r.Value
	}
	if lo <= 0 || hi == lo || minIt == maxIt {
		return 0, false
	}
	rho := stats.Spearman(ns, bs)
	factor = hi / lo
	if rho < 0 {
		factor = lo / hi
	}
	ordered := math.Abs(rho) >= t.DriftRho
	if len(runs) == 2 {
		ordered = maxIt >= 4*minIt
	}
	return factor, ordered && hi/lo >= t.DriftMin
}

// BytesSplit reports whether rounds run at one iteration count disagree on
// B/op, one above TimedSetupRatio × another's and above it by
// TimedSetupBytes: a one-time setup inside the timer divides the same
// bytes by the same count every round, so what some rounds allocate and
// others do not is no setup — a sync.Pool a GC emptied, refilled with a
// 4 MiB buffer (lz4's BenchmarkWriterReset: 3 or 278 B/op at 16258
// iterations). lo and hi are the two ends.
func (t *Thresholds) BytesSplit(runs []document.IterSample) (lo, hi float64, split bool) {
	at := map[float64][2]float64{} // iterations → the lowest and highest B/op
	for _, r := range runs {
		m, ok := at[r.Iters]
		if !ok {
			m = [2]float64{r.Value, r.Value}
		}
		m[0], m[1] = min(m[0], r.Value), max(m[1], r.Value)
		at[r.Iters] = m
	}
	for _, m := range at {
		if m[1] > t.TimedSetupRatio*m[0]+t.TimedSetupBytes && (!split || m[1]-m[0] > hi-lo) {
			lo, hi, split = m[0], m[1], true
		}
	}
	return lo, hi, split
}

// TimeoutBound reports whether a time per op is the timeout the benchmark
// sets (both in seconds): between TimeoutLow and TimeoutHigh times it.
func (t *Thresholds) TimeoutBound(secPerOp, timeout float64) bool {
	return timeout > 0 && secPerOp >= t.TimeoutLow*timeout && secPerOp <= t.TimeoutHigh*timeout
}

// SubNanosecond reports whether a time per op is below BrokenSecPerOp:
// the compiler removed the work. perfloop lint judges results files with
// it too.
func (t *Thresholds) SubNanosecond(secPerOp float64) bool {
	return secPerOp > 0 && secPerOp < t.BrokenSecPerOp
}
