package lint_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/perfloop/perfloop/internal/lint"
)

// TestAnalyzers runs each analyzer on its package in testdata/src, whose
// // want comments say what it must report and, by their absence, what
// it must not.
func TestAnalyzers(t *testing.T) {
	for _, a := range lint.Analyzers {
		t.Run(a.Name, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), a, a.Name)
		})
	}
}

// TestSuggestedFixes: the b.N loop rewritten into for b.Loop() where its
// counter is unused (golden files *.golden beside the sources).
func TestSuggestedFixes(t *testing.T) {
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), lint.Discard, "discard")
}

func TestAnalyzersAreValid(t *testing.T) {
	for _, a := range lint.Analyzers {
		if a.Doc == "" || a.URL == "" || a.Name == "" {
			t.Errorf("%+v: missing name, doc or URL", a)
		}
	}
}
