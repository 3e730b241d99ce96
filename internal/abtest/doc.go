// Package abtest answers "is B faster than A?" for two prepared sides of
// the same benchmarks: two git revisions for perfloop diff and check, two
// build configurations (PGO off and on) for perfloop pgo. It knows nothing
// of git, flags or rendering: it takes built sides and returns paired
// verdicts.
//
// This package is opinionated. Both sides run interleaved: every round runs
// each benchmark once per side, back to back in random order, optionally
// pinned to one quiet CPU, so drift and noisy neighbours hit both alike.
// Runs are short and many, each at an iteration count calibrated once on A
// so both sides do the same work without the testing package's ramp-up.
// Each round's B/A ratio is one paired observation; the verdict is the
// exact Wilcoxon signed-rank test on them, looked at sequentially with the
// significance level spent across the looks (alpha spending) and the
// Benjamini–Hochberg correction across the rows of each unit. A row stops
// mattering once it is decided: changed, or shown by its 80% interval to be
// within ±Settle of no change. benchstat's unpaired columns are kept beside
// the paired verdicts so the numbers agree with it.
package abtest
