// Package pgorun is perfloop pgo: it collects a CPU profile of the
// benchmarks (or of a command), writes it where the go command's default
// builds read it (default.pgo beside each main package), and measures what
// it changes: the benchmarks with profile-guided optimization off and on,
// paired and interleaved (internal/abtest), build time and binary size,
// and the call sites the compiler decides differently, joined to the
// benchmarks that run them. With a check it measures an existing profile
// against a fresh one. The profile operations themselves (merge, prune,
// write, heat, staleness, the compiler's decisions) are internal/pgo's.
package pgorun
