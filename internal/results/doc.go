// Package results is perfloop's model of measured benchmarks: the outcome of
// each benchmark (ok, failed, timed out) beside its benchfmt results, the
// environment they were measured in, and the reading and writing of result
// files in the Go benchmark format that benchstat reads.
//
// Results are golang.org/x/perf/benchfmt values; this package adds only what
// benchfmt has no place for: a benchmark that produced no result because it
// panicked, and run metadata that must not split benchstat's tables.
//
// # Metadata trailer
//
// benchstat groups results into tables by every file-level configuration key.
// A "date:" or "commit:" line before the results would therefore put two runs
// of the same code into two tables and compare nothing. perfloop writes those
// keys as configuration lines after the last result (a trailer): the file
// stays valid benchfmt, benchstat compares old and new files as it does for
// go test output, and the metadata is still there for people and for
// perfloop (see ReadEnv).
package results
