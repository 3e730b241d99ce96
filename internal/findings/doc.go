// Package findings turns a perfloop.report/v1 document (results, profiles
// and escape verdicts) into findings, a decision gate and fitted scaling:
// the part of `perfloop report` that says what to do.
//
// This package is opinionated. A finding is worth reading only when it
// points at a line and names a fix; a number without a threshold is not a
// decision. Every threshold is below, beside the rule that uses it; this
// comment is the specification and the tests check it.
//
// # Terms
//
// A benchmark's allocs/op and sec/op are the medians of its metrics. Module
// code is a function whose name starts with the module path (Options.Module,
// else the document's) and whose file is not a _test.go file and which is
// not a Benchmark function; when no module path is known, any function
// whose path's first element has a dot counts. A site's share is the larger
// of its bytes_share and objects_share. A benchmark's importance is
// Options.Weights[name], 1 when unset; the expected gain of a finding is
// its share × its benchmark's importance. Failed and timed-out benchmarks
// get no findings.
//
// # Rule 1: allocation sites (kind "escape" or "alloc")
//
// Each allocation site with share ≥ 10% in a benchmark that allocates
// (allocs/op > 0, or allocs/op not measured) is a finding. Its kind is
// "escape" when the site carries an escape cause other than "unknown" and
// "callee" (the compiler's verdict or the source explains it), else
// "alloc". The finding's File and Line hold the site; the message names the cause in plain words
// (Escape.Reason; a per-cause sentence when the reason is empty) and the
// share ("97% of bytes"). The suggestion is the fix pattern for the cause
// and the code at hand:
//
//   - moved-to-heap or escapes, through a Write call or an io.Writer: keep
//     the buffer in the enclosing struct and reuse it, or use a fixed-size
//     array field; moved-to-heap through a closure: the closure pattern;
//     otherwise Escape.Fix, else keep the address from outliving the call.
//   - variable-make: hoist the buffer into the enclosing struct and reuse
//     it (buf = buf[:0]); sync.Pool for large per-call buffers; a
//     fixed-size array when n has a small bound.
//   - append: preallocate with make([]T, 0, n) or reuse a slice.
//   - concat: append into a reused []byte or a strings.Builder with Grow.
//   - conversion: keep one representation; strconv.Append*, or the []byte
//     form.
//   - interface, or any site whose Via is fmt.*: strconv.Append* or a
//     strings.Builder instead of fmt; interface elsewhere: Escape.Fix,
//     else concrete-typed calls.
//   - map: size the map (make(map[K]V, n)); a slice indexed by a small
//     dense int key instead of a map.
//   - closure: avoid capturing by reference; pass arguments.
//   - callee: the allocation is inside Via: call it less, or use an API
//     that takes a buffer.
//   - unknown or none: Escape.Fix when present, else reduce or reuse.
//
// Severity: high when share ≥ 50%, allocs/op ≥ 1 and the site is module
// code (not in_test); medium when share ≥ 20%; low otherwise. Sites in test
// code are left to rule 2 when rule 2 fires for the benchmark.
//
// # Rule 2: fixture-dominated benchmarks (kind "test-code")
//
// test_alloc_share ≥ 50% is a high finding at the benchmark's top in_test
// site (by bytes_share): "fix the benchmark first: N% of its bytes are
// allocated in _test.go (file:line)"; suggestion: build the fixture before
// b.ResetTimer or outside the b.Loop body, or reuse it across iterations.
// Its gate row is rule "fix the benchmark first", metric test_alloc_share,
// threshold 0.50, verdict first. The rule does not fire for a benchmark at
// 0 allocs/op: its timed loop allocates nothing, so the fixture, built once
// before the loop, is not in its numbers.
//
// # Rule 3: already tight (kind "tight")
//
// A benchmark is tight when its allocs/op is 0 and either its sec/op is
// below 50ns or its CPU profile is its own code and nothing else (hotspots
// in _test.go files hold ≥ 90% of flat CPU). It gets one info finding,
// "nothing to gain here — don't optimize", a gate row with verdict
// "don't touch" (metric sec/op, threshold 50ns), and nothing else: no
// other finding and no other gate row.
//
// # Rule 4: CPU hotspots (kind "cpu")
//
// A CPU category at or above its threshold is a finding at the hottest
// module-code hotspot on the benchmark's dominant call path (the innermost
// module frame of the path that has a hotspot; else the module hotspot
// with the largest flat share; else no file):
//
//	maps     ≥ 30%  a slice indexed by a small dense int key, a struct key
//	                instead of a concatenated string, or fewer lookups
//	fmt      ≥ 20%  strconv.Append* or a strings.Builder instead of fmt
//	strings  ≥ 20%  reuse buffers: a reused []byte or strings.Builder
//	reflect  ≥ 30%  library or format choice
//	encoding ≥ 30%  library or format choice
//
// Severity: high when the share ≥ 50%, medium otherwise.
//
// # Rule 5: the decision gate
//
// One row per rule and benchmark where it applies, with the measured share
// beside the threshold (unit "share"):
//
//	reduce allocations first   gc + memory  > 20%        first
//	contention                 scheduler    > 20%        first
//	I/O strategy               syscall      > 40%        first
//	library or format choice   compression, crypto or encoding is the
//	                           largest category and ≥ 30%  consider
//	fix the benchmark first    test_alloc_share ≥ 50%    first (rule 2)
//	already tight              rule 3                    don't touch
//	profile-guided optimization  one row for the whole report, measured 0,
//	                           threshold 0: typically 2–7% from
//	                           go build -pgo=…           consider
//
// A measured share within 5 points below a threshold gives "consider";
// further below, no row. Only the tight rule says "don't touch". Rows are
// ordered first, consider, don't touch, then by measured share.
//
// # Rule 6: ranking
//
// Findings are sorted by severity (high, medium, low, info), then by
// expected gain, largest first, and deduplicated per (benchmark, file,
// line, kind), keeping the first.
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
