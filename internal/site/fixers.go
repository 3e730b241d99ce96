package site

import (
	"slices"

	"github.com/catenacyber/perfsprint/analyzer"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/modernize"

	"github.com/perfloop/perfloop/internal/rewrite"
)

// Fixers are the analyzers whose suggested fixes perfloop fix tries as
// candidates: perfloop's own rewrites (internal/rewrite), the analyzers
// of golang.org/x/tools' modernize suite whose edit changes what the code
// costs, and perfsprint. Modernize's others change the spelling and not
// the work (stringscut, slicescontains and mapsloop write the same loop
// through a library call; any, rangeint and the like change no code the
// compiler emits), so they would only spend candidate time. Modernize's
// stringsbuilder makes builder's edit and measured worse than it
// (scripts/fixpairs, docs/fix.md): of the two, builder is kept.
var Fixers = append(slices.Clone(rewrite.Analyzers),
	modernize.FmtAppendfAnalyzer, // []byte(fmt.Sprintf(…)) → fmt.Appendf(nil, …): one copy less
	modernize.SlicesSortAnalyzer, // sort.Slice(s, s[i] < s[j]) → slices.Sort(s): no reflection
	modernize.StringsSeqAnalyzer, // range strings.Split(…) → strings.SplitSeq: no slice
	modernize.MinMaxAnalyzer,     // if a < b … else … → min(a, b): branch-free
	Perfsprint,
)

// Perfsprint is github.com/catenacyber/perfsprint's analyzer (fmt.Sprintf
// and fmt.Errorf with simple verbs → strconv, concatenation, errors.New,
// hex.EncodeToString), with its concat-loop check off (the builder
// rewrites do that) and its fiximports off: fix adds the imports an edit
// needs and removes those it leaves unused for each candidate on its
// own, where perfsprint's import edit is one for all of a file's fixes.
// Its integer and string formatting checks are off too: perfloop's
// strconv rewrite makes the same edits (it measured no different, and
// also takes %v and several verbs in one format), so perfsprint is left
// the errors, bools and hex that strconv does not make.
var Perfsprint = func() *analysis.Analyzer {
	a := analyzer.New()
	for flag, value := range map[string]string{"concat-loop": "false", "fiximports": "false", "integer-format": "false", "string-format": "false"} {
		if err := a.Flags.Set(flag, value); err != nil {
			panic("perfsprint: " + err.Error())
		}
	}
	return a
}()

// RewriteOf returns the name of the rewrite an analyzer of Fixers makes:
// the rewrite's kind for perfloop's own ("hoist-const"), the analyzer's
// name for the others ("slicessort", "perfsprint"); "" for an
// analyzer that is not a fixer.
func RewriteOf(a *analysis.Analyzer) string {
	if kind := rewrite.KindOf(a); kind != "" {
		return kind
	}
	if slices.Contains(Fixers, a) {
		return a.Name
	}
	return ""
}

// Fixer returns the analyzer of Fixers whose rewrite is named name, nil
// when none is.
func Fixer(name string) *analysis.Analyzer {
	for _, a := range Fixers {
		if RewriteOf(a) == name {
			return a
		}
	}
	return nil
}
