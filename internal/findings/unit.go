package findings

import (
	"regexp"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// The rules word their figures per op, an iteration of a benchmark's
// loop. When the document's op is one run of a program (document.OpRun)
// the same figures are per run, and perRun rewrites the words: a program
// has no setup to subtract, no b.N, and variants, not benchmarks.

// perRunWords are the phrases that change, longest first.
var perRunWords = strings.NewReplacer(
	"heap profile, per op with setup subtracted:", "heap profile of the whole run:",
	"allocs/op", "allocs per run",
	"B/op", "B per run",
	"sec/op", "s per run",
	"per op", "per run",
	"other benchmarks", "other variants",
	"other benchmark", "other variant",
	"the benchmark it costs most", "the variant it costs most",
)

// partialHeapWords word the heap profile's figures when it is partial
// (document.RunVariant.HeapPartial): a site's bytes and objects are what
// the profile holds, not the run's.
var partialHeapWords = strings.NewReplacer(
	"heap profile, per op with setup subtracted:", "heap profile of the run's completed collection cycles (partial: see the run's notes):",
	"allocs/op", "allocs in the heap profile",
	"B/op", "B in the heap profile",
)

// perOpUnit is a figure's "/op" suffix: "187 MiB/op", "1.08s/op".
var perOpUnit = regexp.MustCompile(`([0-9A-Za-zµ%])/op\b`)

// benchmarksCount is "in 2 of 2 benchmarks".
var benchmarksCount = regexp.MustCompile(`\b([0-9]+) benchmarks\b`)

// perRun returns s worded per run of a program; with partialHeap, the
// heap profile's figures are worded as what it holds.
func perRun(s string, partialHeap bool) string {
	if partialHeap {
		s = partialHeapWords.Replace(s)
	}
	s = perOpUnit.ReplaceAllString(perRunWords.Replace(s), "$1 per run")
	return benchmarksCount.ReplaceAllString(s, "$1 variants")
}

// inUnit words the findings and the gate in the document's op.
func inUnit(doc *document.Report, fs []document.Finding, gate []document.Gate) {
	if doc.Op != document.OpRun {
		return
	}
	partial := false
	if doc.Run != nil {
		for _, v := range doc.Run.Variants {
			partial = partial || v.HeapPartial()
		}
	}
	for i := range fs {
		f := &fs[i]
		f.Message, f.Suggestion, f.Gain = perRun(f.Message, partial), perRun(f.Suggestion, partial), perRun(f.Gain, partial)
		for j := range f.Evidence {
			f.Evidence[j] = perRun(f.Evidence[j], partial)
		}
		for j := range f.Related {
			f.Related[j].Note = perRun(f.Related[j].Note, partial)
		}
	}
	for i := range gate {
		gate[i].Message = perRun(gate[i].Message, partial)
	}
}
