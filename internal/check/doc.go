// Package check is perfloop check's engine: a CI gate that says why a
// change got slower. It finds what the change touched (NewChange, over
// internal/git's diff), leaves out the packages whose machine code did
// not change (SkipUnaltered), reads each row's noise from an A/A run of
// BASE against itself when asked (Noise), takes the A/B run of BASE against HEAD
// (internal/abtest), decides which rows regressed beyond their thresholds
// and which budgets HEAD breaks (Decide), and for every regression
// profiles both sides to name the causes (Explain): the functions and
// lines whose CPU time grew, the allocation sites that are new or
// allocate more, and the lines the compiler now puts on the heap, with
// its flow; a regression of a benchmark that runs no changed function is
// moved to the code-layout list.
//
// This package is opinionated:
//
//   - A time row regresses when the paired verdict is significant, worse,
//     and its change is above the threshold (-threshold, or what a
//     calibration run measured as the benchmark's own noise, whichever is
//     larger). A count per op (allocs/op) regresses when HEAD's median is
//     at least half an allocation above BASE's: counts are exact. B/op
//     regresses above the threshold and 8 bytes.
//   - A row that is not significant but whose noise is above the
//     threshold (could detect only more, or inconclusive) could hide a
//     regression: the verdict is "inconclusive", which passes unless the
//     caller is strict.
//   - Causes are differences between the sides' profiles, not guesses: the
//     CPU time per op (share × sec/op) at each module line and callee, the
//     allocations per op of each site at equal iteration counts, and the
//     compiler's heap verdicts in the files the change touched.
package check
