package findings

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// explains says which costs each shape of code (internal/site's matchers,
// internal/rewrite's rewrites) explains: the mechanisms a cause records
// (the compiler's reasons for its allocations, the packages and profile
// categories of its calls, what its callees are). A shape at one of a
// cause's lines whose mechanisms the cause has is what the code at the
// line does to cost that: the advice comes from it.
var explains = map[string][]string{
	"append-unsized":              {"append", "growslice", "copying"},
	"map-unsized":                 {"map", "maps"},
	"concat-in-loop":              {"concat", "concatenation", "copying"},
	"sprintf-simple":              {"fmt", "interface"},
	"const-compile":               {"regexp", "template"},
	"regexp-twice":                {"regexp"},
	"regexp-per-candidate":        {"regexp"},
	"receiver-copied":             {"escapes", "moved-to-heap", "call", "return"},
	"result-appended":             {"escapes", "return"},
	"error-per-alternative":       {"escapes", "return", "fmt", "errors"},
	"map-lookup-repeated":         {"maps", "map"},
	"range-copy":                  {"own", "copying"},
	"type-cache-lookup":           {"sync", "internal/sync"},
	"sort-to-select":              {"sort"},
	"fast-path-split":             {"not-inlined"},
	"make-invariant":              {"variable-make", "make", "escapes"},
	"array-through-interface":     {"moved-to-heap", "escapes"},
	"sort-slice":                  {"sort", "reflect"},
	"sort-slice-reflect":          {"sort", "reflect"},
	"fprintf-buffer":              {"fmt", "interface"},
	"buffer-grown-in-loop":        {"growslice", "bytes", "strings"},
	"unbuffered-write":            {"syscall"},
	"same-call-repeated":          {"repeated-call"},
	"rlock-read":                  {"read-lock"},
	"map-key-built":               {"maps", "concatenation", "concat", "fmt"},
	"fields-counted":              {"strings", "bytes"},
	"readall":                     {"io", "growslice"},
	"request-copied-twice":        {"net/http", "context"},
	"sprintf-any":                 {"fmt", "interface"},
	"method-by-name":              {"reflect", "strings"},
	"field-by-name":               {"reflect", "strings"},
	"map-keys-index":              {"reflect", "maps"},
	"map-key-converted":           {"conversion"},
	"interface-dispatch":          {"own"},
	"reflect-map-index":           {"reflect", "interface"},
	"reflect-call":                {"reflect"},
	"search-func-value":           {"sort"},
	"moved-pair":                  {"moved-to-heap"},
	"sprintf-quote":               {"fmt", "interface"},
	"map-copied":                  {"map", "maps", "escapes"},
	"append-arena":                {"append", "growslice"},
	"slice-regrown":               {"append", "growslice"},
	"made-per-iteration":          {"escapes", "moved-to-heap", "return", "map"},
	"map-small-key":               {"maps", "map"},
	"computed-for-readers":        {"own", "other", "time", "math", "sync/atomic"},
	"json-map":                    {"encoding", "encoding/json", "reflect", "interface", "callee"},
	"built-unless-used":           {"escapes", "moved-to-heap", "return"},
	"table-filled":                {"escapes", "moved-to-heap", "return"},
	"map-eager":                   {"map", "maps"},
	"wall-clock":                  {"time"},
	"rwmutex-exclusive":           {"sync", "other", "lock"},
	"var-boxed":                   {"interface", "escapes", "moved-to-heap"},
	"builder-result":              {"gc", "memory", "strings", "bytes", "copying", "other"},
	"chan-queue":                  {"channel", "escapes", "moved-to-heap"},
	"math-const":                  {"math"},
	"result-computed":             {"other"},
	"input-converted":             {"strconv", "internal/strconv"},
	"reflect-slice-bytes":         {"reflect"},
	"reflect-interface-assert":    {"reflect"},
	"reflect-implements-by-value": {"reflect", "interface"},
	"conversion-kept":             {"conversion"},
	"conversion-for-callee":       {"conversion"},
	"error-built":                 {"fmt", "interface", "errors"},
	"defer-not-open-coded":        {"defer"},
	// A call given the same values every time: whatever the call is
	// (its package, its profile category), keeping its value fits.
	"call-inputs-recur": {"strings", "bytes", "strconv", "internal/strconv", "reflect", "fmt", "regexp", "sort", "slices", "maps", "other", "math/big", "unicode", "unicode/utf8", "path", "path/filepath", "net/url", "time"},
	// The analyzers of other projects fix takes candidates from
	// (site.Fixers): modernize's are named for the analyzer,
	// perfsprint's for its check.
	"stringsbuilder": {"concat", "concatenation", "copying"},
	"fmtappendf":     {"fmt"},
	"slicessort":     {"sort", "reflect"},
	"stringsseq":     {"strings"},
	"integer-format": {"fmt", "interface"},
	"string-format":  {"fmt", "interface"},
	"error-format":   {"fmt", "interface"},
	"bool-format":    {"fmt", "interface"},
	"hex-format":     {"fmt", "interface"},
}

// narrower marks the shapes that say more than another shape at the same
// line: an error built for each failing alternative of a caller's loop
// is also an error built on a failure path (error-built), and the loop
// is the reason it costs.
var narrower = map[string]int{"error-per-alternative": 1, "slice-regrown": 1}

// mech records a mechanism of the cause (see explains).
func (c *cause) mech(m string) {
	if m == "" {
		return
	}
	if c.mechs == nil {
		c.mechs = map[string]bool{}
	}
	c.mechs[m] = true
}

// shapesAt indexes the document's shapes by file:line.
func shapesAt(doc *document.Report) map[string][]document.Shape {
	out := map[string][]document.Shape{}
	for _, s := range doc.Shapes {
		out[where(s.File, s.Line)] = append(out[where(s.File, s.Line)], s)
	}
	return out
}

// advise gives each fix cause the advice of the shape of code at its
// lines that explains its cost, when one does: what the code does there
// and the fix that fits it, and whether perfloop fix has a rewrite for
// it. A cause without one keeps the words of its cost's category, marked
// generic.
func (d *deriver) advise() {
	at := shapesAt(d.doc)
	for _, c := range d.causes {
		if c.section != document.SectionFix {
			continue
		}
		shapes := c.shapesExplaining(at, d.t.AdviceShare)
		if len(shapes) == 0 {
			d.advisePart(c, at)
			continue
		}
		c.shapes = shapes
		s := &shapes[0]
		c.shape = s
		c.suggestion = fmt.Sprintf("%s: %s", s.Says, s.Advice)
		c.generic, c.ownWork = false, s.OwnWork
		c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
	}
}

// advisePart adds to a cause whose advice is its category's words the
// shape of code that explains a part of it: the one that holds the most
// of what the cause costs, at least AdvicePartShare, with its line and
// share ("; line 414 (21% of it): …"). The category's words stay first and
// the cause stays generic: the part does not speak for the rest.
func (d *deriver) advisePart(c *cause, at map[string][]document.Shape) {
	if !c.generic || d.t.AdvicePartShare <= 0 {
		return
	}
	shapes := c.shapesExplaining(at, d.t.AdvicePartShare)
	if len(shapes) == 0 {
		return
	}
	s := &shapes[0]
	if s.File == c.file && s.Line == c.line {
		return // the lead line's shape would have spoken already
	}
	held, total := 0.0, 0.0
	for _, v := range c.lineShare {
		total += v
	}
	for _, sl := range s.Lines() {
		held += c.lineShare[where(s.File, sl)]
	}
	if total <= 0 {
		return
	}
	at1 := fmt.Sprintf("line %d", s.Line)
	if s.File != c.file {
		at1 = where(s.File, s.Line)
	}
	c.shapes = shapes[:1]
	c.shape = s
	c.suggestion = fmt.Sprintf("%s; %s (%.0f%% of it): %s: %s", c.suggestion, at1, 100*held/total, s.Says, s.Advice)
	if !s.OwnWork {
		// The part names a change: the cause is no longer one that
		// names none.
		c.ownWork = false
	}
	c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
}

// shapesExplaining returns the shapes at the cause's lines that explain
// one of its mechanisms and hold at least minShare of what the cause costs
// at its lines, the best first: at its own line, then at the line the
// cause costs most at, then in file and line order.
func (c *cause) shapesExplaining(at map[string][]document.Shape, minShare float64) []document.Shape {
	total := 0.0
	for _, v := range c.lineShare {
		total += v
	}
	var cands []document.Shape
	for _, l := range c.lines {
		for _, s := range at[where(l.File, l.Line)] {
			if !c.explainedBy(s.Name) {
				continue
			}
			if s.OwnWork && (s.File != c.file || s.Line != c.line) {
				// It names no change: the advice of the line
				// that leads the cause stays.
				continue
			}
			held := 0.0
			for _, sl := range s.Lines() {
				held += c.lineShare[where(s.File, sl)]
			}
			if total > 0 && held < minShare*total && (s.File != c.file || s.Line != c.line) {
				// Too little of the cause; unless the shape is at
				// the line that leads it (a function whose cost
				// is many causes, led by this one).
				continue
			}
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return nil
	}
	slices.SortStableFunc(cands, func(a, b document.Shape) int {
		own := func(s document.Shape) int {
			if s.File == c.file && s.Line == c.line {
				return 0
			}
			return 1
		}
		return cmp.Or(cmp.Compare(own(a), own(b)),
			-cmp.Compare(c.lineShare[where(a.File, a.Line)], c.lineShare[where(b.File, b.Line)]),
			strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(narrower[b.Name], narrower[a.Name]), strings.Compare(a.Name, b.Name))
	})
	return cands
}

// explainedBy reports whether a shape explains one of the cause's
// mechanisms.
func (c *cause) explainedBy(shape string) bool {
	for _, m := range explains[shape] {
		if c.mechs[m] {
			return true
		}
	}
	return false
}

// SiteAdvice is the advice for one allocation site of doc, the words
// perfloop explain prints under it and the report's finding gives when
// the site leads its cause: what the code at its line does and the fix
// that fits it, when a shape there explains the allocation; otherwise
// the fix that fits the compiler's reason, generic.
func SiteAdvice(doc *document.Report, a *document.Allocation) (advice string, generic bool) {
	e := document.Escape{}
	if a.Escape != nil {
		e = *a.Escape
	}
	d := &deriver{doc: doc}
	inherent := inherent(a, e, doc.Module) || d.resultOfAPI(a, e)
	if inherent {
		if adv, _ := d.resultAdvice(a); adv != "" {
			return adv, false
		}
	}
	c := &cause{}
	c.siteMechs(a, e)
	for _, s := range shapesAt(doc)[where(a.File, a.Line)] {
		if c.explainedBy(s.Name) {
			return fmt.Sprintf("%s: %s", s.Says, s.Advice), false
		}
	}
	return allocFix(a, e, inherent), !inherent
}
