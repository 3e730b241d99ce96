// Package runprog is perfloop run: a Go main package built with profiling
// injected (internal/program), run once or more per variant (argument
// list), optionally also as built from a base revision in a scratch work
// tree, and its profiles analysed as perfloop report analyses a
// benchmark's: hotspots, line costs, categories, allocation sites joined
// with the compiler's escape analysis, and the findings. It returns a
// document.Report with a Run section; it renders nothing and parses no
// flags.
package runprog
