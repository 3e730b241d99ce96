// Package program builds a Go main package with profiling injected and
// runs it as the program it is: the work behind perfloop run.
//
// The user's files are never changed. The build gets a go build -overlay
// with two entries: a copy of the file that declares func main with only
// that identifier renamed (so every line keeps its number, and profiles
// point at the user's source), and a generated file whose func main starts
// the profilers, calls the user's main and stops them.
//
// This package is opinionated about what survives the program. A program
// may return from main, call os.Exit, panic, or be stopped by a signal, and
// the Go runtime gives no hook for os.Exit. So the CPU profile is written
// in segments: every period (a second by default) the profiler is stopped,
// the finished segment renamed into place and the next one started, and the
// heap profile (and the mutex and block profiles) rewritten. An os.Exit
// loses at most the segment under way; a return, a panic in the main
// goroutine, SIGINT and SIGTERM lose nothing, and the program still dies
// of the signal it got, so its exit status is its own. Collect merges the
// segments with the pprof library and says what was lost.
package program
