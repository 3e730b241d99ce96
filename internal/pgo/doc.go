// Package pgo handles profiles for profile-guided optimization as the
// compiler reads them: Read, Prune (only the samples' weights and call
// stacks as functions and lines, no addresses or mappings), Merge (pruned
// profiles of different binaries merge), Write (atomically), Samples, Heat
// (a line's share of a profile), RenameMain (a main package profiled in a
// test binary, its functions named as the program's build names them),
// Decisions (the call sites the compiler inlines or devirtualizes
// differently with a profile than without, from its -m output) and Stale
// (how much of a profile still matches the module's code: functions gone,
// or their lines moved relative to the function's start, which is how the
// compiler matches them).
//
// perfloop pgo itself (collect, write, measure) is internal/pgorun.
package pgo
