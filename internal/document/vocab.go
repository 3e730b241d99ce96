package document

// The vocabulary of findings: named types, so that a decision compares
// values and never a message's words. Their JSON is the string.

// Kind names a finding's family.
type Kind string

// The kinds of finding.
const (
	KindAlloc      Kind = "alloc"         // an allocation site of the module
	KindCPU        Kind = "cpu"           // a module function's CPU: the calls it makes, its own code, inlining
	KindRepeated   Kind = "repeated-call" // the same call with the same arguments from two lines
	KindLibrary    Kind = "library"       // encoding, compression, crypto: the library or the format decides
	KindIO         Kind = "io"            // system calls
	KindContention Kind = "contention"    // locks, shared atomics, the scheduler
	KindFixture    Kind = "fixture"       // the benchmark's own code in its numbers
	KindBroken     Kind = "broken"        // the benchmark measures nothing useful
	KindCoverage   Kind = "coverage"      // what no benchmark runs
	KindLeaveAlone Kind = "leave-alone"   // nothing to gain
)

// Section is where a document shows a finding.
type Section string

// The sections, in the order a report shows them.
const (
	SectionFix        Section = "fix"         // what to do first, ranked
	SectionAPI        Section = "api"         // costs the API forces: never first, never high
	SectionBenchmark  Section = "benchmark"   // the benchmark's own code distorts it
	SectionBroken     Section = "broken"      // the benchmark measures nothing useful
	SectionLeaveAlone Section = "leave-alone" // nothing to gain
)

// Severity grades a finding by its impact.
type Severity string

// Severities of a finding, most severe first.
const (
	SeverityHigh   Severity = "high"
	SeverityMedium Severity = "medium"
	SeverityLow    Severity = "low"
	SeverityInfo   Severity = "info"
)

// Rule names the rule of internal/findings that made a finding.
type Rule string

// The rules (internal/findings' package doc says what each means).
const (
	RuleAllocSite        Rule = "alloc-site"         // a module site's per-op allocations
	RuleAllocCPU         Rule = "alloc-cpu"          // a run's allocation at lines its partial heap profile misses, from the CPU profile
	RuleCPUCall          Rule = "cpu-call"           // a library call a module function's lines make
	RuleCPUOwnCode       Rule = "cpu-own-code"       // a function's own code, its algorithm
	RuleCPUNotInlined    Rule = "cpu-not-inlined"    // a hot function just over the inlining budget
	RuleCPUSpread        Rule = "cpu-spread"         // a function's lines together, though none alone
	RuleCPUPhase         Rule = "cpu-phase"          // a phase a program's run fans out into
	RuleLibrary          Rule = "library-call"       // encoding, compression or crypto under a module line
	RuleSyscall          Rule = "syscall"            // system calls under a module line
	RuleRepeatedCall     Rule = "repeated-call"      // one callee, the same arguments, two lines
	RuleFixtureAlloc     Rule = "fixture-alloc"      // a _test.go site's per-op bytes
	RuleFixtureCPU       Rule = "fixture-cpu"        // a benchmark's file opened per op, by its share of the CPU
	RuleSchedulerShare   Rule = "scheduler-share"    // a goroutine benchmark's scheduler time, no scaling row
	RuleLockExclusive    Rule = "lock-exclusive"     // a Lock held across the work (Amdahl)
	RuleLockRead         Rule = "lock-read"          // an RWMutex read path's lock operations
	RuleLockWait         Rule = "lock-wait"          // waits a lock profile measured
	RuleLineGrowth       Rule = "line-growth"        // a line whose CPU per op grows with the cores
	RuleSharedAtomics    Rule = "shared-atomics"     // atomic writes to state every goroutine shares
	RuleBrokenSubNs      Rule = "broken-sub-ns"      // below a nanosecond per op
	RuleBrokenTimeout    Rule = "broken-timeout"     // the time per op is a timeout the benchmark sets
	RuleBrokenDriftUp    Rule = "broken-drift-up"    // B/op grows with b.N
	RuleBrokenDriftDown  Rule = "broken-drift-down"  // B/op falls as b.N grows
	RuleBrokenTimedSetup Rule = "broken-timed-setup" // reported B/op far above the timed loop's
	RuleBrokenNoWork     Rule = "broken-no-work"     // no module code, no callee
	RuleBrokenFailing    Rule = "broken-failing"     // named for success, builds an error every op
	RuleBrokenSkip       Rule = "broken-skip"        // the benchmark skips
	RuleBrokenFails      Rule = "broken-fails"       // the benchmark fails: its numbers are missing
	RuleBrokenBuild      Rule = "broken-build"       // a package's tests do not build: none of its benchmarks ran
	RuleBrokenLint       Rule = "broken-lint"        // perfloop lint found a mistake in its source
	RuleTimedSetupSmall  Rule = "timed-setup-small"  // lint's timed setup, measured too small to distort
	RuleDiscardKept      Rule = "discard-kept"       // lint's discarded result, whose call the profile shows running
	RuleAPIUnrun         Rule = "api-unrun"          // no benchmark runs an API type of the root package
	RuleGlobalLeft       Rule = "global-left"        // lint's package variable a benchmark leaves set for later ones; measured apart, its numbers stand
	RuleLeaveMicro       Rule = "leave-micro"        // a micro-benchmark of an internal function's algorithm
	RuleLeaveBaseline    Rule = "leave-baseline"     // measures another package, not the module
	RuleLeaveOffCPU      Rule = "leave-off-cpu"      // waits: its time is off the CPU, which the profile does not see
	RuleLeaveTight       Rule = "leave-tight"        // fast, no allocation, nothing outside its algorithm
	RuleLeaveFloor       Rule = "leave-floor"        // a function's time is a scan at one table lookup per byte: its floor
	RuleLeaveShard       Rule = "leave-shard"        // contention on one shard's lock of a structure split by key: the benchmark's keys
	RuleLeaveWriter      Rule = "leave-writer"       // a lock held across the write to one output: it keeps each write whole and in order
	RuleLeaveLockWord    Rule = "leave-lock-word"    // the atomic word a lock the module implements is taken by: any lock's cost under contention
)

// Note reports whether a benchmark finding of rule r is a note on the
// benchmark's code whose effect was measured too small to distort its
// numbers (a timed setup, a discarded result the profile shows running):
// the appendix's, never a reason to fix the benchmarks first. A package
// variable a benchmark leaves set is no note: perfloop's numbers stand,
// measured apart, but go test -bench . runs the benchmarks in one
// process, and its numbers do not.
func (r Rule) Note() bool {
	return r == RuleTimedSetupSmall || r == RuleDiscardKept
}

// Category is what a CPU sample's time was spent on, from the function
// at its leaf (internal/profiles).
type Category string

// The categories.
const (
	CategoryGC          Category = "gc"
	CategoryScheduler   Category = "scheduler"
	CategorySyscall     Category = "syscall"
	CategoryMemory      Category = "memory" // malloc, memclr, madvise
	CategoryMaps        Category = "maps"
	CategoryStrings     Category = "strings"
	CategoryFmt         Category = "fmt"
	CategoryReflect     Category = "reflect"
	CategoryEncoding    Category = "encoding"
	CategoryCompression Category = "compression"
	CategoryCrypto      Category = "crypto"
	CategoryRegexp      Category = "regexp"
	CategorySort        Category = "sort"
	CategoryApplication Category = "application" // the module's own code
	CategoryOther       Category = "other"
)

// Mechanism is how a line's CPU per op grows with the cores.
type Mechanism string

// The mechanisms of growth.
const (
	MechanismReaderCount Mechanism = "reader-count" // an RWMutex's reader count
	MechanismAtomic      Mechanism = "atomic"       // an atomic update of a shared word
	MechanismMutexSpin   Mechanism = "mutex-spin"   // goroutines spinning on a Mutex
	MechanismPool        Mechanism = "pool"         // sync.Pool's shared lists
	MechanismChannel     Mechanism = "channel"      // a channel operation
)

// EscapeCause names why a line allocates (internal/escape's Cause).
type EscapeCause string

// The causes of an allocation.
const (
	EscapeMovedToHeap  EscapeCause = "moved-to-heap"
	EscapeInterface    EscapeCause = "interface"
	EscapeVariableMake EscapeCause = "variable-make"
	EscapeAppend       EscapeCause = "append"
	EscapeConcat       EscapeCause = "concat"
	EscapeConversion   EscapeCause = "conversion"
	EscapeMap          EscapeCause = "map"
	EscapeClosure      EscapeCause = "closure"
	EscapeEscapes      EscapeCause = "escapes"
	EscapeCallee       EscapeCause = "callee"
	EscapeUnknown      EscapeCause = "unknown"
)

// FirstScreen is how many root causes a report shows first, under "what
// to do first": the findings of SectionFix in rank order.
const FirstScreen = 10
