package fix

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perfloop/perfloop/internal/document"
)

// ResultFile is the name of the file perfloop fix writes its result to
// in its -out directory (the document perfloop fix -json prints).
const ResultFile = "fix.json"

// ErrBadResult is returned by ReadResult when the file is missing or is
// not a perfloop fix result.
var ErrBadResult = errors.New("-from-fix")

// ReadResult reads the result perfloop fix wrote: path is its -out
// directory (which holds fix.json) or the fix.json file itself.
func ReadResult(path string) (*document.Fix, error) {
	file := path
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		file = filepath.Join(path, ResultFile)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("%w: %v (give the -out directory of perfloop fix, which holds %s)", ErrBadResult, err, ResultFile)
	}
	var res document.Fix
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("%w: read %s: %v", ErrBadResult, file, err)
	}
	if res.Schema != document.FixSchema {
		return nil, fmt.Errorf("%w: %s is not a perfloop fix result (schema %q, want %q)", ErrBadResult, file, res.Schema, document.FixSchema)
	}
	return &res, nil
}

// Annotate sets each finding's Tried from a fix result: the candidates
// that answered a root cause of the finding (kept ones first, in the
// order fix tried them). A candidate goes under the finding whose line
// is its cause's line; else under the first finding whose lines (its
// own, its related lines, the lines of its shapes) hold the cause's line
// or the candidate's site — a report measured again may name a cause by
// another of its lines. A finding fix tried nothing at is left alone.
// Of a run of several rounds only the first round's candidates are told:
// later rounds' causes are lines of the tree with the earlier patches
// made, not of the commit. dir is where the patches are now (the
// directory given to report -from-fix): a kept patch is named under it.
func Annotate(doc *document.Report, res *document.Fix, dir string) {
	if dir != "" {
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			dir = filepath.Dir(dir)
		}
	}
	type at struct {
		file string
		line int64
	}
	lines := make([]map[at]bool, len(doc.Findings))
	for i := range doc.Findings {
		f := &doc.Findings[i]
		f.Tried = nil
		lines[i] = map[at]bool{{f.File, f.Line}: true}
		for _, r := range f.Related {
			lines[i][at{r.File, r.Line}] = true
		}
		for _, s := range f.Shapes {
			lines[i][at{s.File, s.Line}] = true
		}
	}
	// The root causes first: fix tried only theirs.
	order := make([]int, 0, len(doc.Findings))
	for _, root := range []bool{true, false} {
		for i, f := range doc.Findings {
			if (f.Section == document.SectionFix) == root {
				order = append(order, i)
			}
		}
	}
	// under is the finding a candidate is told under, -1 for none.
	under := func(cause document.FixCause, file string, line int) int {
		for _, i := range order {
			if f := doc.Findings[i]; f.File == cause.File && f.Line == cause.Line {
				return i
			}
		}
		for _, want := range []at{{cause.File, cause.Line}, {file, int64(line)}} {
			for _, i := range order {
				if lines[i][want] {
					return i
				}
			}
		}
		return -1
	}
	for _, k := range res.Kept {
		i := under(k.Cause, k.File, k.Line)
		if k.Round > 1 || i < 0 {
			continue
		}
		t := document.Tried{Rewrite: k.Rewrite, File: k.File, Line: k.Line, Kept: true, Review: k.Review, Gain: bestGain(k.Benchmarks)}
		if k.Patch != "" {
			t.Patch = k.Patch
			if dir != "" {
				t.Patch = filepath.Join(dir, filepath.Base(filepath.FromSlash(k.Patch)))
			}
		}
		doc.Findings[i].Tried = append(doc.Findings[i].Tried, t)
	}
	for _, r := range res.Rejected {
		i := under(r.Cause, r.File, r.Line)
		if r.Round > 1 || i < 0 {
			continue
		}
		doc.Findings[i].Tried = append(doc.Findings[i].Tried, document.Tried{Rewrite: r.Rewrite, File: r.File, Line: r.Line, Reason: r.Reason})
	}
}

// bestGain is the row a kept patch is told by: the largest significant
// improvement in sec/op, else in allocs/op, else in B/op.
func bestGain(rows []document.FixMeasured) *document.FixMeasured {
	for _, unit := range []string{"sec/op", "allocs/op", "B/op"} {
		var best *document.FixMeasured
		for i, m := range rows {
			if m.Unit != unit || !m.Significant || m.Delta >= 0 {
				continue
			}
			if best == nil || m.Delta < best.Delta {
				best = &rows[i]
			}
		}
		if best != nil {
			b := *best
			return &b
		}
	}
	return nil
}
