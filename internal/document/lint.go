package document

// LintFinding is a benchmark mistake perfloop lint found in the source:
// what is wrong, why it distorts the number and the fix.
type LintFinding struct {
	Analyzer  string `json:"analyzer"`
	Package   string `json:"package"`
	Benchmark string `json:"benchmark"`
	// Benchmarks are the benchmarks the finding is about: a helper's
	// callers, or the one benchmark.
	Benchmarks []string `json:"benchmarks,omitempty"`
	File       string   `json:"file"`
	Line       int      `json:"line"`
	Message    string   `json:"message"`
	Why        string   `json:"why"`
	Fix        string   `json:"fix"`
}

// LintSchema names version 1 of perfloop lint's JSON document.
const LintSchema = "perfloop.lint/v1"

// Lint is the perfloop.lint/v1 document: every benchmark mistake perfloop
// lint found.
type Lint struct {
	Schema      string           `json:"schema"`
	Diagnostics []LintDiagnostic `json:"diagnostics"`
}

// LintDiagnostic is one finding of an analyzer, as perfloop lint prints it.
type LintDiagnostic struct {
	Analyzer string `json:"analyzer"`
	Package  string `json:"package"`
	// Benchmark names the benchmark (or, for a helper, its callers
	// joined with ", "); Benchmarks lists them.
	Benchmark  string   `json:"benchmark"`
	Benchmarks []string `json:"benchmarks,omitempty"`
	// File is relative to the module root (or as the loader gave it).
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Message says what is wrong, Why how it distorts the number, Fix
	// what to do; SuggestedFix names a mechanical rewrite, if any.
	Message      string `json:"message"`
	Why          string `json:"why"`
	Fix          string `json:"fix"`
	SuggestedFix string `json:"suggested_fix,omitempty"`
}
