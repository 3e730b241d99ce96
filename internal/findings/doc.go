// Package findings turns a perfloop.report/v1 document — results, CPU line
// costs, per-op allocation sites with the compiler's verdicts — into root
// causes, a short decision gate and fitted scaling: the part of perfloop
// report that says what to do.
//
// This package is opinionated. A finding is a root cause, not a rule hit:
// one cause, every line it spans, every benchmark it costs, ranked by the
// share of CPU time it accounts for, with the fix that fits the code and
// the gain to expect. What a busy engineer needs first is a handful of
// them; everything else is evidence for the appendix. Every threshold is
// below, beside the rule that uses it; this comment is the specification
// and the tests check it, on the bundled examples and on a labelled corpus
// of third-party modules (internal/judge).
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
// A site with at least 5% of a benchmark's per-op bytes or objects, in a
// benchmark that allocates, outside _test.go files, is a candidate; a
// site that allocates less than once per 20 ops (an error path, a rare
// branch) is dropped. Sites of one function with the same cause (boxing,
// concatenation, a copy made twice on one path) are one root cause with
// related lines. Its CPU share is estimated as (gc + memory share of the
// benchmark) × the cause's share of allocated bytes and objects (their
// mean), at least the memory and gc time the CPU profile puts under its
// lines. The fix follows the cause and the code:
//
//   - interface boxing for fmt: strconv.Append* into a reused []byte or a
//     strings.Builder; other boxing: concrete-typed calls.
//   - moved to heap through a Write call or io.Writer: a buffer kept in
//     the enclosing struct; through a closure: pass arguments.
//   - variable-size make: hoist and reuse (buf = buf[:0]) or sync.Pool.
//   - append: preallocate when the final size is known; reuse.
//   - concatenation: a strings.Builder with Grow, or append to []byte.
//   - map: size the map only when it grows (at least 2 allocations per
//     op at the site: a map of up to 8 entries is one allocation and a
//     hint changes nothing); else reuse it with clear, or avoid the copy.
//   - inside a library call (Via): when the call already writes into a
//     buffer (Append*, Write, Encode, Fprint…), the growth of that buffer:
//     size it once and reuse it; otherwise call it less or pick an API
//     that writes into a caller's buffer.
//   - returned to the caller by an exported function (the flow ends in
//     "(return)"): inherent to the API; the fix is an API-level change
//     (an Append-style variant), and the impact is halved.
//
// # CPU causes (kinds "cpu", "library", "repeated-call", "io")
//
// A module line whose cum through one callee is at least 8% of a
// benchmark's CPU, where the callee's time is a category a line can
// change — sort, fmt, reflect, regexp, maps, strings, encoding,
// compression, crypto, syscall, a stack walk (runtime.Callers), other
// library code — is a candidate. Lines of one function in one category
// are one cause. Time that is only allocation (memory, gc) belongs to the
// allocation causes. Encoding, compression and crypto are kind "library"
// (the library or the format decides); syscalls kind "io". One function
// calling the same callee from two or more lines, each at least 3%, is
// kind "repeated-call": the same work done twice (on the same input when
// the lines' arguments read the same). A line's own code (no callee) at
// 30% or more is a "cpu" cause of severity low: the algorithm itself.
//
// # The benchmark's own cost (kind "fixture", section "benchmark")
//
// A _test.go site with at least 20% of a benchmark's per-op bytes, or a
// _test.go line whose calls into other packages take at least 20% of its
// CPU: the benchmark measures its own code along with the module's (a
// recorder, an output buffer that grows with b.N).
//
// # Broken benchmarks (kind "broken")
//
// Below 1 ns/op (the compiler removed the work); a CPU profile in which
// the benchmark calls nothing and runs no module code (its loop runs over
// nothing: module share < 1% and callee share < 5%); B/op that grows with
// the iteration count (the benchmark keeps what it allocates). Never
// "tight".
//
// # Leave alone (kind "leave-alone")
//
// A benchmark that is not broken, runs at 0 allocs/op and has no cause of
// at least 5% of its CPU outside its own algorithm; or one that measures
// only another package (a baseline for comparison).
//
// # Contention (kind "contention")
//
// Only with evidence: a benchmark that starts goroutines (b.RunParallel or
// a go statement) and spends at least 20% of its CPU in the scheduler,
// preemption excluded. Single-goroutine benchmarks never get one.
//
// # Ranking
//
// Impact is the cause's largest CPU share over its benchmarks (times the
// benchmark's weight). Severity: high ≥ 20%, medium ≥ 7%, low below.
// Findings sort by impact rounded to 2.5 points (so run-to-run noise in
// the profile's shares does not reorder the first screen), then by
// allocations per op (exact counts), then file and line. The report shows
// the first ten "fix" findings first.
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
//	profile-guided optimization  the module has a main package:
//	                           measure it with perfloop pgo             consider
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
package findings
