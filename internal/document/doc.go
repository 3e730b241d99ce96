// Package document defines every JSON document perfloop writes, one file
// per schema, each with its Schema constant: perfloop.report/v1 (Report,
// document.go: the environment, the benchmarks with their metrics, where
// their time and memory go — hotspots, categories, allocation sites with
// the compiler's verdicts — and what to do about it: findings, the
// decision gate, scaling; also the JSON of bench, profile, explain and
// run), perfloop.compare/v1 (compare and diff), perfloop.check/v1,
// perfloop.trace/v1, perfloop.pgo/v1, perfloop.history/v1,
// perfloop.exec/v1, perfloop.fix/v1 and perfloop.lint/v1. The engines
// fill these types, the findings rules derive from a Report, and the
// renderers take them; this package imports nothing above it.
//
// It also holds the vocabulary they share: BenchKey, the one key of a
// benchmark, and the functions that read function names (names.go:
// PlainFunc, ShortFunc, SplitFunc, FuncPackage).
//
// Field names and JSON tags are a contract: fields may be added, never
// renamed.
//
// # Invariants
//
// Validate checks them; every document perfloop writes satisfies them:
//
//   - Schema is Schema.
//   - A benchmark's Name starts with "Benchmark" and carries no -GOMAXPROCS
//     suffix (that is Procs); its Status is "ok", "failed", "timeout" or
//     "skipped", and a benchmark that is not ok has an Error.
//   - Shares (hotspot flat and cum, category shares, allocation bytes and
//     objects shares, test_alloc_share, call path share) are fractions in
//     [0, 1], and a hotspot's flat is at most its cum.
//   - Files are slash-separated and relative to the module root (or a
//     bare file name outside it): never absolute.
//   - A metric's Low ≤ Median ≤ High when the interval is present.
//   - Every hotspot, category and allocation names a benchmark of the
//     document; findings have a known severity, gate rows a known verdict.
package document
