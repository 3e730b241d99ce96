// Package loop runs perfloop's measurement loop on one prepared suite of
// benchmarks (Prepare: go list once, each test binary built once, a Shard
// of them kept for CI): Bench (every benchmark, -count rounds,
// round-robin, each run in its own process), Profile (where CPU and
// allocations go, for perfloop profile and explain), Escapes and Explain
// (the compiler's escape analysis joined with the allocation sites),
// Trace (one execution trace per benchmark, summarized), and Report, the
// whole pipeline behind perfloop report and record: the benchmarks, their
// profiles, the concurrent ones' scaling over core counts, the lint
// findings, the last perfloop pgo result (PGORecord in the module's
// StateDir) and the findings derived from all of it. It returns documents
// (document.Report, document.Trace); it renders nothing and parses no
// flags. perfloop run (internal/runprog), pgo (internal/pgorun) and fix
// (internal/fix) are built on its exported steps; it imports none of them.
//
// The suite is prepared once (go list once, each test binary built once)
// and used by every stage. The report pipeline costs little more than the
// benchmarks it explains:
//
//   - CPU profiles are taken during the benchmark rounds themselves (the
//     profiler's 100 Hz signal costs well under 1% of a run) and merged, so
//     the samples come from runs that are needed anyway; an extra CPU run
//     is added only where the evidence budget (budget.go) says the rounds'
//     samples leave a finding undecided, or below a floor of samples. The
//     rounds after the first run at the iteration count the first one
//     measured, without the testing package's b.N ramp.
//   - For benchmarks whose loop allocates, heap profiles record every
//     allocation (-memprofilerate=1, exact counts) at two small fixed
//     iteration counts N1 > N2 chosen from the
//     benchmark's measured sec/op and allocs/op. Their difference is what
//     the timed loop allocates per op; what does not scale with N (setup
//     before the loop, the testing package) cancels out. That separates a
//     fixture built once from one that grows with b.N by measurement, not
//     by file name.
//   - The compiler's escape analysis runs while the test binaries build.
//
// Engines report progress to a *progress.Bar (nil is silent) and failures
// of single benchmarks as values: an error return means cancellation or a
// fault that stops the whole run.
package loop
