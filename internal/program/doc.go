// Package program builds a Go main package with profiling injected and
// runs it as the program it is: the work behind perfloop run.
//
// The user's files are never changed. The build gets a go build -overlay:
// a copy of the file that declares func main with only that identifier
// renamed (so every line keeps its number, and profiles point at the
// user's source), a generated file whose func main starts the profilers,
// calls the user's main and stops them, and an exit hook package. The
// copies of the main module's files that call os.Exit (or the standard
// logger's Fatal functions) call the hook instead, with the hook's import
// on the package clause's line so that again no line moves: the hook stops
// the CPU profile, collects, writes the heap (and mutex, block, trace)
// profiles, then exits with the same status.
//
// This package is opinionated about what survives the program. A program
// may return from main, call os.Exit, panic, or be stopped by a signal, and
// the Go runtime gives no hook for os.Exit in code perfloop does not
// rewrite (another module's, the standard library's). So the CPU profile
// is also written in segments: every period (a second by default) the
// profiler is stopped, the finished segment renamed into place and the
// next one started, and the heap profile (and the mutex and block
// profiles) rewritten after a collection, while that work stays under a
// hundredth of the run so far (a collection marks the whole live heap).
// Such an os.Exit loses at most the
// segment under way; a return, os.Exit in the module's code, a panic in
// the main goroutine, SIGINT and SIGTERM lose nothing, and the program
// still dies of the signal it got, so its exit status is its own. Collect
// merges the segments with the pprof library and says what was lost.
package program
