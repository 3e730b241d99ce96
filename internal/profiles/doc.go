// Package profiles reads the CPU and heap profiles of one benchmark and says
// where its time and memory go: hotspots by flat and cum, the dominant call
// path, CPU time by category, allocation sites by bytes and objects, and the
// share of allocation caused by the benchmark's own test code.
//
// Profiles are read with github.com/google/pprof/profile; the aggregation is
// this package's own, written to agree with `go tool pprof`, whose graph code
// is internal to pprof.
//
// This package is opinionated:
//
//   - Functions are nodes, as in pprof's default "functions" granularity:
//     frames aggregate by function name, and each inlined frame (each entry
//     of a Location's Line list, Line[0] innermost) is a frame of its own.
//     A sample adds its value to the flat of its leaf frame and once to the
//     cum of every distinct function on its stack, so recursion does not
//     count twice. Shares are fractions of the whole profile, as pprof's
//     percentages are: flat and cum agree with `go tool pprof -top`.
//
//   - A hotspot's line is its hottest line: the line of that function with
//     the most cum, so for a function that only calls others it is the call
//     that costs most.
//
//   - The dominant call path starts at the benchmark function (or its
//     closure, for sub-benchmarks) and follows, frame by frame, the callee
//     with the most cum, as long as that callee has at least half of the
//     benchmark's time: it stops where the time fans out, or where the
//     frame's own code is the larger part, so every frame on it carries most
//     of the benchmark: "BenchmarkLookup → Lookup → runtime.mapaccess2_faststr".
//     Samples taken in runtime.asyncPreempt count for the preempted frame.
//
//   - Allocation sites use the heap profile's alloc_space and alloc_objects
//     (everything the benchmark allocated, freed or not; nothing subtracted).
//     A site is the innermost frame in the measured module's own source:
//     allocations inside the runtime and the standard library are charged to
//     the module line that called them (the line `go tool pprof -list` shows
//     with the allocation in its cum column), and an inlined function is its
//     own frame, so the site is the line where the allocation is written. The
//     function the site's line calls, when the allocation is in it or below
//     it, is kept as Via ("fmt.Sprintf").
//     Allocations with no module frame (the testing package, runtime
//     initialisation) are charged to their innermost non-runtime frame.
//
//   - TestShare is the share of allocated bytes whose site is in a _test.go
//     file: fixtures and setup that the benchmark measures along with the
//     code under test. A benchmark that allocates in its own loop body on
//     purpose scores high too; the number is a hint, not a verdict.
//
// # Categories
//
// Every CPU sample gets one category. The rules, applied in order:
//
//  1. gc: a garbage-collector function anywhere on the stack (background mark
//     workers, mark assists under mallocgc, sweeping, write barriers,
//     runtime.GC, runtime._GC). GC work triggered by an allocation is GC.
//  2. scheduler: a scheduler function anywhere on the stack (schedule,
//     findRunnable, gopark/goready, sysmon, preemption, channel and select
//     operations, semaphores, timers, runtime._System).
//  3. Otherwise the frames are read from the leaf towards the root, and the
//     first frame that says something decides:
//     - memory: the allocator and page heap (mallocgc, newobject,
//     makeslice, growslice, mcache/mcentral/mheap, the scavenger, madvise,
//     mmap), memclr, stack growth. mallocgc called from mapassign is
//     memory, not maps: the time went to allocating, and the fix
//     (pre-sizing) is a memory fix.
//     - maps: runtime map functions (mapaccess*, mapassign*, …),
//     internal/runtime/maps, the maps package.
//     - strings: strings, bytes, strconv, unicode/..., and the runtime's
//     string functions (concatstrings, slicebytetostring, …).
//     - syscall: syscall, internal/syscall/..., golang.org/x/sys/...,
//     internal/poll, entersyscall/exitsyscall and the runtime's raw
//     system calls (futex, usleep, write1, …).
//     - fmt, reflect (and internal/reflectlite), regexp.
//     - encoding: encoding/... and well-known serialisers (protobuf, yaml).
//     - compression: compress/..., archive/..., klauspost/compress, snappy,
//     lz4, brotli, xz.
//     - crypto: crypto/..., golang.org/x/crypto/..., hash/... (checksums too).
//     - sort: sort and the sorting functions of slices.
//     - application: a function whose source is in the measured module,
//     _test.go files included.
//     - other: the testing package (the harness is not the application)
//     and any other library without a category of its own.
//     Generic code says nothing and is skipped, so its caller decides:
//     runtime.memmove, memequal, the hash functions, locks and atomics,
//     assembly helpers, internal/bytealg, and the general-purpose standard
//     packages sync, io, bufio, math, errors, iter, cmp, container/... and
//     the non-sorting parts of slices. So memmove under
//     strings.(*Builder).WriteString is strings, the hashing inside
//     mapaccess is maps, and a copy() in the module's code is application.
//     A stack of generic code alone is other.
package profiles
