// Package findings turns a perfloop.report/v1 document — results, CPU line
// costs, per-op allocation sites with the compiler's verdicts — into root
// causes, a short decision gate and fitted scaling: the part of perfloop
// report that says what to do.
//
// This package is opinionated. A finding is a root cause, not a rule hit:
// one cause, every line it spans, every benchmark it costs, ranked by the
// share of CPU time it accounts for, with the fix that fits the code and
// the gain to expect. What a busy engineer needs first is a handful of
// them; everything else is evidence for the appendix. Every number a rule
// compares with is a field of Thresholds (DefaultThresholds are
// perfloop's), named below beside the rule that uses it; this comment is
// the specification, TestSpec pins each threshold at its edge, and the
// corpus of third-party modules analysed by hand (internal/judge) scores
// the whole.
//
// # Attribution
//
// Time belongs where the module decides it: the module frontier (see
// document.LineCost), the innermost frame of the module's own code above
// the runtime and other packages, by cum as well as self. Preemption
// frames are the interrupted frame's time. Allocation sites are the
// per-op heap profile's: what the timed loop allocates, setup subtracted.
// A _test.go line is the benchmark's own code; a _test.go line that calls
// into the module is not a site at all (the frontier is inside the
// module).
//
// # Allocation causes (kind "alloc")
//
// A site of the module's own code (outside _test.go files) with at least 5%
// of a benchmark's per-op bytes or objects, in a benchmark that allocates
// (allocs/op or B/op above zero), is a candidate; a site that allocates less
// than once per 20 ops with under 20% of the bytes or under 256 B/op (an
// error path, a rare branch, a pooled value's buffer made when the pool is
// fresh) is dropped. A function's sites are one root cause: the objects it
// makes on one path (a node, its items, its children) are one cost. The
// methods of one type that box or concatenate what they return are one
// cause (a value a method boxes to pass to a call is that method's); when
// all of them are in one method, they join that method's CPU cause. The
// cause of a helper joins the cause of the function that called it on
// most of its allocations (the benchmarks' own calls count: a function
// they call directly on most of its allocations joins none). Not
// findings: appending to a slice parameter (an Append-style API: the
// caller's buffer grows) and the growth
// of a bytes.Buffer or strings.Builder being written (the place to act is
// where the buffer is made). Its CPU share is estimated as (gc + memory
// share of the benchmark) × the cause's share of allocated bytes and
// objects (their mean), at least the memory and gc time the CPU profile
// puts under its lines. The fix follows the cause and the code:
//
//   - fmt: strconv.Append* into a reused []byte or a strings.Builder; other
//     boxing: concrete-typed calls.
//   - moved to heap through a Write call or io.Writer: a buffer kept in the
//     enclosing struct; through a closure: pass arguments; stored in the
//     function's result first (~r0 ← &{storage for …}) and escaping
//     through something else (an append): it outlives the call by design.
//   - variable-size make: hoist and reuse (buf = buf[:0]).
//   - append: preallocate when the final size is known; reuse.
//   - concatenation: a strings.Builder with Grow, or append to []byte.
//   - map: size the map only when the runtime grew it; otherwise reuse it
//     with clear, or a slice or struct for a few keys (a map of up to 8
//     entries is one allocation, which a hint does not remove).
//   - inside a library call: call it less, or a variant that writes into a
//     buffer the caller reuses.
//   - returned to the caller by the package's API (an exported function,
//     or an exported method of an exported type; the flow ends in
//     "(return)"): inherent to the API; the fix is an API-level change, and
//     the impact is halved. What the API forces on its caller (no module
//     function calls the function on most of its allocations: the
//     benchmark's call makes it, and the result does not grow by append)
//     is in a section of its own
//     (section "api", "Costs of the API"): after every finding to fix,
//     never above low, with no expected gain; the API-level alternative is
//     named once per type, on the type's costliest API cost. A
//     constructor the module's own code calls (a parser making its nodes)
//     is a cause to fix at that caller: call it only when its result is
//     used, or allocate many at once; the call there carries the cause's
//     cost, so a shape of code at it gives the advice.
//   - followed through the module's own calls (internal/site's Result
//     shapes): a value an unexported function returns is the API's too
//     when an exported function returns its result, directly or through
//     functions that return it (shape "result-forwarded"); a module
//     caller that returns the result or stores it through a pointer
//     parameter (shape "result-passed" at its call) hands it on, so it
//     does not make the value its own choice; the allocation at a line
//     that computes the returned value (shape "result-computed": the
//     Int a Sub computes into, an entry stored into a map made with its
//     size and returned) is the result's — for the sized map, neither a
//     hint nor reuse removes it. A helper's allocation of the value it
//     returns (result-computed) where no API returns it (newValue
//     returning reflect.New(t)) is its module caller's choice, a cause to
//     fix at that caller as for a constructor the module calls; with no
//     module caller, the compiler's reason decides.
//   - a value boxed into a map of interface values an exported function
//     returns or was given (shape "boxed-into-result"), or the local whose
//     address it returns (shape "returned-address"): the API's too, with
//     the API-level alternative (a typed result) for the boxing.
//   - the string a String method returns (a method named String whose
//     site's value flows to its result, or is its conversion,
//     concatenation or formatting call): what fmt.Stringer asks for, so
//     inherent whether or not the type is exported, the impact halved, and
//     the advice "inherent to a String method: callers that only write it
//     can use an Append or WriteTo form" instead of the conversion's "keep
//     one representation". A buffer the method makes on the way is its own
//     site.
//
// A program's run whose heap profile is partial (written without a final
// collection, it holds only the run's completed collection cycles:
// document.RunVariant.HeapPartial) misses what the run allocates at its
// end — an interpreter's results, after its input's decoding. The CPU
// profile covers the whole run, so the time of the runtime's allocator
// and collector under a module line that calls into it (runtime.growslice,
// convT, a map assignment as the map grows: document.LineCost.Alloc,
// whatever the line's category), at lines the heap profile does not name,
// is allocation at those lines (rule "alloc-cpu"): a function's such
// lines are one cause when together they take at least SiteMin of the
// run's allocator time (category memory: the collector's time is mostly
// its own workers' marking, under no line), as a heap site needs SiteMin
// of the bytes. Its cost is that CPU; its words say the bytes are not
// known; its advice is the one for a site of the same kind (an append, a
// map, a boxed value) and -finalgc on, which writes the heap profile of
// the whole run. It joins the function's cause from the heap profile, if
// any.
//
// # CPU causes (kinds "cpu", "library", "io", "repeated-call")
//
// Per module function (closures belong to the function they are in), the
// parts of its cost: each library call its lines make whose cum is at least
// 8% of a benchmark's CPU — sorting, fmt, reflection, regular expressions,
// map access, string search, comparison and copying, number conversion, a
// stack walk (runtime.Callers, or runtime.callers where it is inlined), a
// clock read (time.Now), other library code — its own code (the
// lines that call nothing, when together they reach 15%, or join a library
// part), and, when it is hot (3% flat) and the compiler did not inline it
// for a cost at most 1.5 × the budget, that it is not inlined (never for a
// method its package calls only through an interface, shape
// "interface-only": no call of it is static). The parts
// are one cause, named by the largest; time that is only allocation
// (memory, gc, under a call to the runtime) belongs to the allocation
// causes, but a library call whose time below is mostly allocation and
// collection (a decoder, a sort whose comparison allocates) is still that
// call's cost, in its package's category; and a call into encoding,
// compression or hashing is its library's cost whatever its time below is
// spent on (encoding/json sorts a map's keys). A line whose callee is the
// module's own function (a generic method's dictionary wrapper the
// profile counts as a callee) is the callee's cost, held by its cause in
// that benchmark, when it has one. A function whose only
// part is its own code is its algorithm: severity low, ranked at 0.3 of its
// share; when it is an unexported function that the benchmark calls
// directly, the benchmark is left alone instead (a micro-benchmark of an
// internal function). A function whose whole job is one library call (the
// line returns the call's result, its other lines cost under 2%) is no
// cause for that call: its callers' use of it is. A library call that
// computes the value its function returns, where the API returns that
// value (a result-computed shape at the line, in an exported function or
// one an exported function returns the result of: big.Int arithmetic into
// the Decimal a Sub returns, the store into the sized map a decoder
// returns), or a strconv call converting the function's own parameter
// once per call (shape "input-converted"), is the operation itself: a
// cause in "Costs of the API",
// never "call it less: cache its result" or "fewer lookups"; it merges
// only with other costs of the API, never with a cause to fix. Where the
// value is not the API's, the cause is to fix with the shape's advice:
// call the function less for the inputs that recur (a memo of a pow10's
// powers), or a faster path for the inputs that allow one. Encoding, compression and crypto are kind "library"
// (the library or the format decides); syscalls kind "io". A cost spread
// over a function's lines is one too (rule "cpu-spread"): calls of which
// none reaches 8% but which together, at two lines or more, reach 6% (with
// the function's own code when that is below 15%) are a part of the
// function's cause, or of its "library" or "io" cause for those kinds —
// a normalizer's five calls of 3% each, two unbuffered writes. Calls of
// the "library" and "io" kinds are grouped by callee across the module:
// a small write joins the cause of a larger one to the same callee in
// another function, and small ones in several functions that reach 6%
// together are one cause. A function's CPU cause that is only such small
// calls (with under 15% of its own code) joins its function's "library"
// or "io" cause. A call
// that calls the module back once per item it visits (filepath.WalkDir,
// fs.WalkDir, sync.Once.Do) costs only its own time: the callbacks' time
// is at their own lines. A program's run (perfloop run) also has phases
// (rule "cpu-phase"): the parts its dominant call path fans out into (a
// formatter's printing, a parser's kind of statement), and the functions
// many parts of it call (a parser's word parsing, its lexer), whose time no
// single module line carries more than half of; one of at least 10% whose
// function no other cause names is a cause of its own, worded with its
// share of allocation and GC (from 40% the allocation causes come first),
// and ranked at half its share: it says where the time goes, not what to
// change at one line. One function
// calling the same callee from two or more lines with the same arguments,
// each at least 3%, is kind "repeated-call". A CPU cause and an
// allocation cause of one function or sharing a line are one cause; the
// costlier keeps its words.
//
// # The benchmark's own cost (kind "fixture", section "benchmark")
//
// A _test.go site with at least 20% of a benchmark's per-op bytes (not a
// b.Run or b.RunParallel call), in a benchmark whose profile is mostly
// module code: the benchmark measures its own code along with the
// module's (a recorder, an output buffer that grows with b.N). A line of
// the benchmark's loop that opens or reads a file (the file-per-op shape),
// or builds the value whose methods the iteration calls with a New…
// constructor the benchmark is not named for (built-per-op), with at
// least 10% of its CPU is one too: the numbers time the file system, or
// the construction, with the code.
//
// # Broken benchmarks (kind "broken")
//
// Below 1 ns/op on one core (the compiler removed the work; a benchmark
// whose goroutines share the cores measures wall time per op, so its
// ns/op counts times its GOMAXPROCS); a CPU profile in which
// the benchmark calls nothing and runs no module code (its loop runs over
// nothing: module share < 1% and callee share < 5%) and allocates nothing
// per op (a loop that allocates, a private sync.Pool that misses, does
// work); B/op that moves with
// the iteration count by a factor of 2 or more, in its order (Spearman's
// |ρ| ≥ 0.8 over the runs; Thresholds.BytesDrift, which perfloop lint
// uses on results files too): it keeps what it allocates, or a one-time
// cost is inside the timer; a reported B/op above
// 1.5 × what the timed loop allocates + 64 bytes (setup inside the timer),
// unless rounds at one iteration count disagree on B/op by as much
// (Thresholds.BytesSplit: an allocation some rounds make, a sync.Pool a
// GC emptied, not a setup);
// a benchmark that skips (the benchmarks that skip at one line are one
// cause); a mistake perfloop lint found in its source (joined to a
// measured symptom, the lint's fixes are the finding's advice, at its
// lines). Benchmarks one
// rule finds broken the same way, with the same fix (one symptom, or one
// lint mistake in several helpers), are one finding naming each benchmark
// and line. A timed setup lint
// found is broken only when measured: at least 1% of the benchmark's CPU
// profile at the setup's line once scaled to go test's default
// -benchtime of 1s (TimedSetupShare; 0.05 at 100ms is 0.005 at 1s), or
// of its B/op at 1s. A one-time cost in the B/op (fitted as loop +
// once/n from the runs at the smallest and largest iteration count, or
// the reported B/op beyond the loop's at the report's iteration count) is
// broken, with or without lint, only when it is at least 1% of the B/op
// at 1s. Less is a low note about the benchmark's code (rule timed-setup-small,
// kind "fixture"), which does not put "fix the benchmarks first" in the
// gate and is shown in the appendix, not on the first screen (Rule.Note).
// A result lint saw discarded in the loop is broken only when the
// CPU profile shows less than 1% module code in a benchmark it is about;
// otherwise the compiler kept the call, and it is a low note (rule
// discard-kept, in the appendix too). A benchmark lint saw leave a package variable set for
// the benchmarks after it (globalset) is a low note too (rule
// global-left): perfloop measures each benchmark in its own process, so
// its numbers stand. Never "tight".
//
// # Leave alone (kind "leave-alone")
//
// A benchmark that is not broken, runs at 0 allocs/op and 0 B/op below
// 50 ns/op with no cause of at least 5% of its CPU outside its own
// algorithm; one that measures only another package (a baseline for
// comparison); a micro-benchmark of an internal function; or one that
// waits (rule leave-off-cpu): its CPU profile sampled under a quarter of
// a core over the time it ran, so the little module code in it is
// neither a loop over nothing nor a baseline, and its time is in waits a
// block profile or a trace shows.
//
// # Contention (kind "contention")
//
// Only with evidence, and only in a benchmark that starts goroutines
// (b.RunParallel or a go statement, from the source; the profile must
// show them running). report runs each such benchmark at -cpu 1, the
// powers of two between and every core (document.Scaling, parameter
// "cpu"), with CPU profiles at 1 and N cores and mutex and block profiles
// at N. A benchmark whose efficiency ns(1) / (N × ns(N)) is at least 0.8
// scales and gets no contention finding, unless the machine was busy: a
// profiled run at N cores that got less than 0.75 × N cores of CPU
// measured the neighbours as much as the code (an efficiency above 1 is
// common then), so the rules below decide from the CPU profile alone and
// the evidence says the machine was busy. Below it, at the module's line:
//
//   - an exclusive lock (Lock) whose critical section holds at least 20%
//     of the CPU: goroutines take turns, and Amdahl's law bounds the
//     speedup at 1 / (p + (1−p)/N); the fix moves the costliest line of the
//     section (named from the source) before the Lock. A section the
//     source shows but no profile saw a sync lock taken in (no wait, no
//     CPU in the lock operations: a wrapper's Lock that may be disabled)
//     bounds nothing;
//   - an RWMutex read path (RLock) whose lock operations take at least
//     15% of the CPU, or whose CPU per op at that line grows with the
//     cores: every RLock and RUnlock writes the one reader count, whose
//     cache line moves between cores; the fix is an atomic.Pointer
//     snapshot (copy on write) or sync.Map;
//   - a line whose CPU per op grows by 1.5× and by more than 3σ of its
//     sampling noise from 1 to N cores, with the mechanism its call or
//     source names: an atomic on a shared word (per-goroutine counters
//     merged on read), a contended Mutex (shorten it or shard by key), a
//     sync.Pool, a channel;
//   - a lock or channel whose waits (block profile; the mutex profile's
//     Unlock is led back to its Lock) are at least 5% of the goroutines'
//     time per op, on a machine that was not busy: waiting is wall time,
//     and on a busy one a holder loses its core while it holds the lock.
//
// The harness's own waiting is never a finding: RunParallel's WaitGroup,
// the benchmark goroutine waiting for its workers, a _test.go worker pool
// draining (its share of the block profile is in the scaling row). A
// _test.go lock is the benchmark's own. The causes of the lock's function
// (the hashing inside it, its allocations) are the contention's lines,
// not findings of their own. One cause per lock: a CPU cause of the lock's
// function that costs other benchmarks too (a clock read timed without
// contention) loses the lock's lines and the contended benchmarks, and is
// worded from what is left. Impact: the share of the cores' capacity the
// cause accounts for. A benchmark measured at several core counts that
// does not scale is never left alone. A benchmark with no core-scaling
// row at all (a document from before them) that starts goroutines and
// spends at least 20% of its CPU in the scheduler, preemption excluded, is
// contention; one whose row says it was not measured (one CPU, a failed
// run) gets none. Single-goroutine benchmarks never get one.
//
// # Ranking
//
// Impact is the cause's largest CPU share over its benchmarks (times the
// benchmark's weight: 1, or what Options.Weights gives; a micro-benchmark,
// one whose call path enters the module at an internal function or method
// and that runs faster than 50 ns/op, weighs 0.25 when the module also
// has a benchmark that is not one, since what the user gains is decided
// where the API is measured). Severity: high ≥ 20%, medium ≥ 7%, low below.
// Findings sort by impact rounded to 2.5 points (so run-to-run noise in
// the profile's shares does not reorder the first screen), then by
// allocations per op (exact counts), then file and line; a cause's own
// line is its costliest, compared the same way. The report shows the
// first ten "fix" findings first. A cause whose advice says its code is
// the function's own work on what it is given, with no change to name (a
// call-on-inputs shape, a result computed from inputs that hardly recur:
// document.Shape.OwnWork; or a function whose parts are all its own code
// and such calls), ranks and is bounded as a function's own algorithm is
// (severity low, 0.3 of its impact), and such a shape at a line other
// than the one that leads a cause does not replace that line's advice. A
// fix that names no change — a function's own algorithm or its own work,
// in its category's words — follows every fix that names one, whatever
// their impacts: what the reader can do comes first (a program's phases
// keep PhaseRank). Any other fix whose advice is its category's words (no
// shape of code at its lines, marked generic) follows every fix whose code
// names its change, whatever their impacts: a change the code names is
// surer to gain, and a busy reader acts on those first — unless the named
// change's impact is below NamedFloor (0.01): a change the profiles hardly
// see (orb's geometry wrapped once per feature for encoding, 0.4% of the
// encoder's time) ranks with the small costs in their category's words,
// after the fixes that name no change. Such a fix whose
// impact is below GenericMin (0.1) follows the fixes that name no change
// too: a small cost the code does not explain is a guess, and where the
// rest of the time goes says more (lz4's pool Get and Put at 5%, its
// concurrent writer's goroutines at 7%). Contention the module's use does
// not produce (a component's own parallel benchmark, the module's others
// serial) comes last. A shape gives a cause its advice when its
// lines hold at least AdviceShare (0.25) of what the cause costs at its
// lines; one that holds at least AdvicePartShare (0.15) of a cause with
// no advice of its own names its change first, with its line and share,
// and the category's words for the rest follow; a cause that names no change at
// all (its own code leads, in no shape, and its other parts are in their
// categories' words) takes the change of a shape holding AdviceUnnamedShare
// (0.05) of it as its advice, named first. A function whose own code is mostly
// a loop at its floor (a scan at one table lookup per byte) is left alone
// (rule leave-floor), whether or not it inlines. Some shapes cost at their
// related lines as their own (an RWMutex's Unlock, a log call's
// arguments, the stores into a map of large values), and an allocation
// two calls below the line that decides it takes the shape that names its
// function. Causes that one change removes are one cause (pass
// one-change): the methods that take one RWMutex, a printf wrapper and
// the boxing at its callers, the debug calls on one logger type, the maps
// of one large value type, the clock reads of one type whose duration
// setting can turn them off; the costlier leads. Benchmarks of a
// component (a package whose profile stays in packages another package's
// benchmark reaches with more of the module) weigh ComponentWeight (0.1):
// the broader benchmark measures it as the module uses it.
//
// # The decision gate
//
// A handful of rows about the module, not one per benchmark:
//
//	reduce allocations first   gc + memory > 20% in half the benchmarks  first
//	I/O strategy               syscall > 40% in any benchmark            first
//	contention                 a contention finding                     first
//	library or format choice   a "library" finding                      consider
//	fix the benchmarks first   a broken benchmark or a fixture finding  first
//	profile-guided optimization  a main package imports the measured
//	                           code and its Go code (not assembly) is at
//	                           least 10% of a benchmark: measure it with
//	                           perfloop pgo                             consider
//
// # Scaling
//
// Sub-benchmarks whose names differ only in one segment param=NUMBER
// (BenchmarkSort/n=100, …/n=1000) with at least 3 distinct positive sizes
// and positive sec/op are fitted as log(sec/op) = a + b·log(n) by least
// squares; Exponent is b and R2 the fit's R² on log-log axes. Growth is the
// nearest familiar order, chosen within the band of b by which model
// leaves the smallest log residual (time ≈ c·g(n)):
//
//	b < 0.25          ~1 or ~log n
//	0.25 ≤ b < 0.75   ~log n or ~√n
//	0.75 ≤ b < 1.05   ~n
//	1.05 ≤ b < 1.25   ~n or ~n log n
//	1.25 ≤ b < 1.75   ~n log n or ~n²
//	1.75 ≤ b < 2.5    ~n²
//	b ≥ 2.5           ~n³
//
// A concurrent benchmark measured at several core counts is labelled by
// Thresholds.CoreGrowth: negative (slower with more cores), flat (less
// than 1.2× faster), linear (an efficiency of at least ScaleOK) or
// sublinear.
//
// # perfloop check's cuts
//
// CheckThresholds (DefaultCheck) are the numbers perfloop check decides a
// change with beside its -threshold: half an allocation or 8 B per op is a
// real change of the exact counters; an allocation site both sides have
// grew at a fifth of an object or 8 B more per op, one only HEAD has is
// new from once in 20 ops; a function's lines (or its calls of one callee)
// are a CPU cause when they grew by 5% of BASE's time per op and by more
// than three standard deviations of the profiles' sampling noise.
// internal/check's TestCheckThresholdsMatter pins each at its edge.
package findings
