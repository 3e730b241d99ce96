package escape

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
)

// An Index holds a build's diagnostics by file and line, for joining with
// allocation sites, which have a file and a line but no column.
type Index struct {
	diags  []Diagnostic
	byLine map[lineKey][]int32
	// Warnings are the input lines that were not compiler output
	// (*SyntaxError) and the packages that did not compile
	// (*PackageError). The diagnostics of the other lines and packages
	// are in the index.
	Warnings []error
}

type lineKey struct {
	file string
	line int
}

type posKey struct {
	file      string
	line, col int
}

// NewIndex indexes diagnostics. It merges each -m=2 explanation into the
// verdict at its position (the flow of "hdr escapes to heap in
// WriteFrame:" goes to "moved to heap: hdr"; an explanation whose verdict
// is missing stays as a diagnostic of its own), and drops repeats: the
// compiler reports a package's files again for its test variant, and
// NewIndex keeps one of each message at each position, with the flows of
// both.
func NewIndex(diags []Diagnostic) *Index {
	ix := &Index{byLine: make(map[lineKey][]int32)}
	type msgKey struct {
		pos posKey
		msg string
	}
	seen := make(map[msgKey]int32)
	var expl []Diagnostic
	for i := range diags {
		d := &diags[i]
		if d.Explanation {
			expl = append(expl, *d)
			continue
		}
		k := msgKey{posKey{d.File, d.Line, d.Col}, d.Message}
		if j, ok := seen[k]; ok {
			if len(ix.diags[j].Flow) == 0 {
				ix.diags[j].Flow = slices.Clone(d.Flow)
			}
			continue
		}
		seen[k] = int32(len(ix.diags))
		c := *d
		c.Flow = slices.Clone(d.Flow)
		ix.diags = append(ix.diags, c)
	}
	// Verdicts by position, to receive explanations.
	atPos := make(map[posKey][]int32)
	for i := range ix.diags {
		d := &ix.diags[i]
		if d.Kind == KindMovedToHeap || d.Kind == KindEscapes || d.Kind == KindLeakingParam {
			k := posKey{d.File, d.Line, d.Col}
			atPos[k] = append(atPos[k], int32(i))
		}
	}
	merged := make(map[msgKey]bool) // explanation already merged, by its text
	for _, e := range expl {
		// Keyed by text and flow: a variant repeats both, while one value
		// can have explanations that differ only in their flow.
		ek := msgKey{posKey{e.File, e.Line, e.Col}, e.Message + "\n" + strings.Join(e.Flow, "\n")}
		target := int32(-1)
		for _, j := range atPos[ek.pos] {
			v := &ix.diags[j]
			if (e.Kind == KindLeakingParam) != (v.Kind == KindLeakingParam) {
				continue
			}
			if v.Name == e.Name {
				target = j
				break
			}
			if target < 0 && v.Kind == KindEscapes && v.Name == "append" {
				target = j // "append(s, x) escapes to heap in F:"
			}
		}
		if target < 0 {
			if merged[ek] {
				continue
			}
			merged[ek] = true
			c := e
			c.Message = explanationVerdict(&e)
			c.Explanation = false
			c.Flow = slices.Clone(e.Flow)
			ix.diags = append(ix.diags, c)
			k := posKey{c.File, c.Line, c.Col}
			atPos[k] = append(atPos[k], int32(len(ix.diags)-1))
			continue
		}
		v := &ix.diags[target]
		if merged[ek] {
			continue // the same explanation from another package variant
		}
		merged[ek] = true
		v.Flow = append(v.Flow, e.Flow...)
		if v.Name == "append" && strings.HasPrefix(e.Name, "append(") {
			v.Name = e.Name // the explanation names the call
		}
		if v.Func == "" {
			v.Func = e.Func
		}
	}
	slices.SortStableFunc(ix.diags, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
	for i := range ix.diags {
		k := lineKey{ix.diags[i].File, ix.diags[i].Line}
		ix.byLine[k] = append(ix.byLine[k], int32(i))
	}
	return ix
}

// explanationVerdict turns an explanation header without a verdict into
// one: "x escapes to heap in F:" → "x escapes to heap".
func explanationVerdict(e *Diagnostic) string {
	if e.Kind == KindLeakingParam {
		return "leaking param: " + e.Name
	}
	return e.Name + " escapes to heap"
}

// ReadIndex reads compiler output (go build -gcflags=-m=2 stderr) and
// indexes it. Lines that are not compiler output are kept in Warnings;
// the error is an I/O error.
func ReadIndex(r io.Reader, fileName string) (*Index, error) {
	var diags []Diagnostic
	var warnings []error
	rd := NewReader(r, fileName)
	for rd.Scan() {
		switch rec := rd.Record().(type) {
		case *Diagnostic:
			d := *rec
			d.Flow = slices.Clone(rec.Flow)
			diags = append(diags, d)
		case *SyntaxError:
			warnings = append(warnings, rec)
		}
	}
	if err := rd.Err(); err != nil {
		return nil, fmt.Errorf("read compiler output %s: %w", fileName, err)
	}
	ix := NewIndex(diags)
	ix.Warnings = warnings
	return ix, nil
}

// Len returns the number of diagnostics in the index.
func (ix *Index) Len() int { return len(ix.diags) }

// Diagnostics returns every diagnostic, by file, line and column. The
// slice is the index's own: do not modify it.
func (ix *Index) Diagnostics() []Diagnostic { return ix.diags }

// Line returns every diagnostic on a line of a file (relative to the module
// root, slash-separated), by column. Profiles have no column, so a line
// with two allocations gets both verdicts.
func (ix *Index) Line(file string, line int) []Diagnostic {
	idx := ix.byLine[lineKey{file, line}]
	if len(idx) == 0 {
		return nil
	}
	out := make([]Diagnostic, len(idx))
	for i, j := range idx {
		out[i] = ix.diags[j]
	}
	return out
}

// A Site is an allocation site as a heap profile gives it, to join with the
// compiler's verdicts. Files are relative to the module root and
// slash-separated.
type Site struct {
	// File and Line are the line that allocates: the innermost frame in
	// the module's code, which may be a function inlined into its caller
	// (in a pprof Location, Line[0]).
	File string
	Line int
	// CallerFile and CallerLine are the physical frame the site's line was
	// inlined into (the Location's last Line), when it was; zero
	// otherwise. The compiler reports the inlined copy's escape verdicts
	// at the call, on this line.
	CallerFile string
	CallerLine int
	// Callees are the functions below the site's line on the sample's
	// stack, innermost first, where the profile has them: the runtime
	// allocator's callers ("runtime.growslice", "runtime.concatstrings",
	// "runtime.convT64") and library functions ("fmt.Sprintf"). Go 1.26
	// heap profiles often leave the runtime frames out; Explain works
	// without them.
	Callees []string
	// ObjectBytes is the average size of the objects allocated at the
	// site, 0 when unknown. Boxing a value in an interface allocates an
	// object the size of the value; much larger objects on a line the
	// compiler says boxes something come from something else on it (a
	// map's storage, a slice's array).
	ObjectBytes int64
}

// Inlined reports whether the site's line was inlined into another.
func (s Site) Inlined() bool {
	return s.CallerLine > 0 && (s.CallerFile != s.File || s.CallerLine != s.Line)
}

// Join returns the diagnostics for an allocation site: those on the
// caller's line first when the site was inlined (the verdicts for the
// inlined copy, which is what ran), then those on the site's own line (the
// verdicts for the function compiled on its own).
func (ix *Index) Join(s Site) []Diagnostic {
	var out []Diagnostic
	if s.Inlined() {
		out = ix.Line(s.CallerFile, s.CallerLine)
	}
	return append(out, ix.Line(s.File, s.Line)...)
}
