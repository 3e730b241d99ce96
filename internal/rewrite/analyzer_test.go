package rewrite

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"
)

// TestAnalyzers runs the presize rewrite as an analyzer over a package
// loaded by the go command (its types, not this package's loader): the
// shape is reported at the append, what it says is the want comment, and
// its suggested fix is the golden file.
func TestAnalyzers(t *testing.T) {
	for i, a := range Analyzers {
		if KindOf(a) != Kinds[i] || a.Name == "" {
			t.Errorf("analyzer %d: name %q, kind %q; want the kind %q", i, a.Name, KindOf(a), Kinds[i])
		}
	}
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), Analyzers[0], "presize")
}
