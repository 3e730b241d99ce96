// Package tracesum summarizes a Go execution trace (go test -trace, or
// runtime/trace) into the figures a CPU profile cannot give: how much of
// the machine the garbage collector took, how long the world stopped,
// how long goroutines waited to run, and what they waited on.
//
// The trace is read with golang.org/x/exp/trace, the public copy of the
// go command's own parser (the standard library's internal/trace). Every
// figure comes from the parser's events, as follows (docs/trace.md says
// what each answers):
//
//   - Wall: from the first event to the last.
//   - GC cycles: "GC concurrent mark phase" ranges that begin in the
//     trace, less those the testing package forces (runtime.GC called
//     from package testing before each timed run).
//   - GC CPU: the running time of the goroutines labelled as dedicated or
//     fractional mark workers ("GC (dedicated)", "GC (fractional)"; the
//     label follows each GoStart of a worker), plus the time goroutines
//     run inside "GC mark assist" ranges, plus GOMAXPROCS × the
//     collector's stop-the-world pauses; its share is over GOMAXPROCS ×
//     wall (GOMAXPROCS integrated over time). Idle-priority mark workers
//     run only on Ps that have nothing else to do and are reported
//     apart, as the runtime's /cpu/classes/gc/mark/idle is. Work of the
//     cycles the testing package forces is left out.
//   - Stop-the-world: the "stop-the-world (reason)" ranges, except the
//     tracer's own ("start trace", "stop trace") and those the testing
//     package makes (runtime.ReadMemStats from StartTimer/StopTimer, the
//     forced collections).
//   - Scheduler latency: for each time a workload goroutine becomes
//     runnable in the trace, the time until it runs.
//   - Blocked: each interval a workload goroutine spends waiting or in a
//     system call, by the reason the runtime gives when it blocks
//     (channel, sync, network, GC, sleep, other) or syscall; an interval
//     still open when the trace ends is not counted.
//   - Peak: the most goroutines alive, running and in system calls at
//     once, the OS threads that emitted events, the largest heap (the
//     /memory/classes/heap/objects:bytes metric) and GOMAXPROCS.
//
// Workload goroutines are those created during the trace by something
// other than the runtime and the tracer: the benchmark's goroutines and
// the testing package's goroutines that run it. An interval of one of
// them whose stack shows the testing package waiting (for the benchmark's
// goroutine, in runtime.GC, writing results) is the harness's and is not
// counted.
package tracesum
