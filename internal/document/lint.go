package document

// LintFinding is a benchmark mistake perfloop lint found in the source:
// what is wrong, why it distorts the number and the fix.
type LintFinding struct {
	Analyzer  string `json:"analyzer"`
	Package   string `json:"package"`
	Benchmark string `json:"benchmark"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Message   string `json:"message"`
	Why       string `json:"why"`
	Fix       string `json:"fix"`
}
