package findings

import (
	"cmp"
	"fmt"
	"maps"
	"path"
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
	"map-filtered":                {"map", "maps"},
	"concat-in-loop":              {"concat", "concatenation", "copying"},
	"concat-written":              {"concat", "concatenation", "copying", "strings"},
	"sprintf-simple":              {"fmt", "interface"},
	"sprintf-fields":              {"fmt", "interface", "strings", "time", "escapes", "memory", "gc"},
	"fprint-string":               {"fmt", "interface", "escapes"},
	"boxed-for-call":              {"interface", "escapes", "moved-to-heap"},
	"reflect-temp":                {"reflect", "escapes", "moved-to-heap", "memory", "gc", "other", "interface"},
	"stack-push":                  {"append", "growslice", "copying"},
	"text-copied":                 {"append", "growslice", "copying", "conversion", "strings"},
	"context-per-call":            {"own", "copying", "interface"},
	"table-fallback":              {"own", "other", "math", "library", "memory", "gc"},
	"inline-overflow":             {"escapes", "new", "assign", "make", "variable-make", "moved-to-heap"},
	"upper-lowered":               {"strings", "copying", "conversion", "memory", "gc"},
	"made-together":               {"variable-make", "make", "escapes"},
	"keys-sorted":                 {"sort"},
	"pool-put-boxed":              {"interface", "escapes", "moved-to-heap"},
	"peek-skipped":                {"not-inlined", "other"},
	"linkname-call":               {"unknown", "memory", "gc"},
	"power-recomputed":            {"callee", "math/big", "library", "escapes", "other", "own", "new"},
	"buffer-per-call":             {"escapes", "make", "call", "moved-to-heap", "interface"},
	"type-compared":               {"runtime", "other", "interface", "own", "reflect"},
	"scratch-short":               {"callee", "library", "append", "growslice", "escapes", "return"},
	"reflect-reslice":             {"reflect", "escapes", "moved-to-heap", "memory", "gc", "other", "interface"},
	"error-panic":                 {"other", "library", "runtime", "gopanic"},
	"node-chunks":                 {"escapes", "return", "moved-to-heap"},
	"subslice-kept":               {"append", "growslice", "copying"},
	"parts-apart":                 {"escapes", "moved-to-heap", "make", "variable-make", "return", "assign"},
	"children-grown":              {"append", "growslice", "copying"},
	"cow-copy":                    {"escapes", "make", "variable-make", "moved-to-heap", "assign", "return", "new"},
	"copy-override":               {"escapes", "moved-to-heap", "new", "call", "memory", "gc"},
	"map-keys-known":              {"map", "maps", "other", "memory", "gc"},
	"chain-walk-per-pair":         {"own"},
	"set-sized-by-input":          {"map", "maps", "escapes", "variable-make", "make", "memory", "gc", "other"},
	"compiled-variant":            {"library", "other", "regexp", "interface", "escapes", "return"},
	"json-scalar":                 {"encoding", "encoding/json", "interface", "escapes", "moved-to-heap", "reflect", "bytes"},
	"args-for-func-value":         {"escapes", "map", "maps", "make", "variable-make", "call", "moved-to-heap"},
	"added-one-by-one":            {"append", "growslice", "map", "maps", "copying"},
	"read-in-branch":              {"interface", "escapes", "moved-to-heap", "reflect", "fmt", "strings", "memory", "gc", "other"},
	"const-compile":               {"regexp", "template"},
	"regexp-twice":                {"regexp"},
	"regexp-per-candidate":        {"regexp"},
	"receiver-copied":             {"escapes", "moved-to-heap", "call", "return"},
	"result-appended":             {"escapes", "return"},
	"error-per-alternative":       {"escapes", "return", "fmt", "errors"},
	"map-lookup-repeated":         {"maps", "map"},
	"range-copy":                  {"own", "copying"},
	"copied-large":                {"own", "copying", "memory", "gc"},
	"format-boxed":                {"interface", "escapes", "moved-to-heap"},
	"input-copied":                {"conversion", "strings", "copying", "bytes", "memory", "gc"},
	"type-cache-lookup":           {"sync", "internal/sync"},
	"type-cache-hit":              {"sync", "internal/sync", "map", "maps"},
	"sort-to-select":              {"sort"},
	"fast-path-split":             {"not-inlined"},
	"slow-path-inlined":           {"not-inlined"},
	"big-round-trip":              {"callee", "math/big", "escapes", "other", "bytes"},
	"receiver-buffer":             {"escapes", "moved-to-heap", "make", "variable-make", "assign"},
	"replaced-on-hit":             {"escapes", "moved-to-heap", "call", "callee", "interface", "return"},
	"shift-remove":                {"copying", "memory", "gc", "other", "own"},
	"range-copied":                {"escapes", "make", "variable-make", "moved-to-heap", "memory", "gc", "copying", "return"},
	"built-for-branch":            {"conversion", "escapes", "interface", "moved-to-heap", "strings", "copying", "memory", "gc"},
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
	"map-clone-by-hand":           {"map", "maps"},
	"sparse-table":                {"make", "variable-make", "escapes", "moved-to-heap", "own", "memory", "gc"},
	"append-arena":                {"append", "growslice"},
	"slice-regrown":               {"append", "growslice"},
	"reset-nil":                   {"append", "growslice"},
	"made-per-iteration":          {"escapes", "moved-to-heap", "return", "map"},
	"map-small-key":               {"maps", "map"},
	"computed-for-readers":        {"own", "other", "time", "math", "sync/atomic"},
	"json-map":                    {"encoding", "encoding/json", "reflect", "interface", "callee"},
	"json-map-api":                {"encoding", "encoding/json", "reflect", "interface", "callee"},
	"encoded-concat":              {"concat", "concatenation", "copying", "strings", "encoding", "callee", "escapes"},
	"map-literal-per-call":        {"map", "maps", "memory", "gc", "escapes", "new"},
	"deref-copied":                {"callee", "escapes", "new", "moved-to-heap", "memory", "gc"},
	"options-applied":             {"escapes", "moved-to-heap", "memory", "gc", "new"},
	"text-round-trip":             {"other", "callee", "strings", "encoding", "conversion", "escapes", "copying", "memory", "gc", "strconv", "library"},
	"dict-call":                   {"escapes", "moved-to-heap", "memory", "gc", "new"},
	"byte-scan":                   {"own", "other"},
	"kmp-step":                    {"own", "other"},
	"copy-on-inputs":              {"copying", "memory"},
	"shift-in-place":              {"copying", "memory"},
	"hash-loop":                   {"own"},
	"linear-lookup":               {"strings", "own", "other", "bytes"},
	"read-buffered":               {"syscall", "bufio"},
	"token-channel":               {"channel", "scheduler"},
	"sized-by-caller":             {"make", "variable-make", "escapes", "return", "memory", "gc"},
	"byte-appended":               {"own", "other", "append", "growslice"},
	"handed-local":                {"moved-to-heap", "escapes", "assign", "new", "memory", "gc"},
	"flush-per-message":           {"compression", "compress/flate", "compress/gzip", "compress/zlib", "library"},
	"split-write":                 {"syscall", "io", "crypto", "crypto/tls", "net", "internal/poll", "os"},
	"readfrom-known-length":       {"callee", "growslice", "memory", "gc"},
	"copy-to-caller":              {"copying", "memory", "own"},
	"snapshot-copy":               {"copying", "strings", "memory", "own"},
	"limit-per-call":              {"callee", "escapes", "interface", "call", "new", "memory", "gc", "io"},
	"sync-map-wide-key":           {"sync", "internal/sync"},
	"timeout-per-call":            {"callee", "time", "escapes", "new", "memory", "gc", "unknown"},
	"timer-goroutine":             {"callee", "time", "escapes", "moved-to-heap", "unknown", "new", "memory", "gc", "scheduler"},
	"atomic-value-boxed":          {"interface", "escapes", "call", "moved-to-heap", "memory", "gc", "convT", "runtime"},
	"boxed-into-field":            {"interface", "escapes", "moved-to-heap", "convT"},
	"io-buffer-per-call":          {"escapes", "moved-to-heap", "make", "variable-make", "call"},
	"slice-remade":                {"escapes", "moved-to-heap", "make", "variable-make", "assign"},
	"arg-ignored":                 {"conversion", "escapes", "return", "strings", "memory", "gc", "make", "variable-make", "new"},
	"copied-fresh":                {"escapes", "return", "new", "callee", "memory", "gc"},
	"compared-copy":               {"make", "variable-make", "escapes", "return", "copying", "memory", "gc"},
	"copy-recopied":               {"make", "variable-make", "escapes", "return", "copying", "memory", "gc"},
	"window-slid":                 {"append", "growslice", "copying", "memory", "gc"},
	"iface-var-loop":              {"own", "other", "encoding", "library"},
	"buffer-made-full":            {"make", "variable-make", "escapes", "moved-to-heap", "memory", "gc", "own", "return"},
	"copy-read":                   {"copying", "memory", "gc", "make", "variable-make", "escapes", "return", "callee", "own"},
	"result-dropped":              {"escapes", "make", "variable-make", "return", "callee", "moved-to-heap", "memory", "gc"},
	"buffer-from-nil":             {"append", "growslice", "strconv", "internal/strconv", "callee", "escapes", "copying", "memory", "gc", "other", "own"},
	"lookup-checked":              {"map", "maps"},
	"string-appended":             {"callee", "strings", "escapes", "copying", "memory", "gc"},
	"variant-per-call":            {"escapes", "moved-to-heap", "return", "new", "memory", "gc"},
	"replacer-no-match":           {"callee", "strings", "library", "other", "copying", "memory", "gc", "concat"},
	"rescan-rest":                 {"strings", "bytes", "search", "library", "other", "own"},
	"join-entry":                  {"callee", "strings", "concat", "copying", "library", "other", "memory", "gc", "escapes", "append", "growslice"},
	"built-unless-used":           {"escapes", "moved-to-heap", "return"},
	"table-filled":                {"escapes", "moved-to-heap", "return"},
	"map-eager":                   {"map", "maps"},
	"wall-clock":                  {"time"},
	"rwmutex-exclusive":           {"sync", "other", "lock"},
	"lock-per-call":               {"sync", "other", "lock", "own"},
	"lock-per-element":            {"lock"},
	"chan-iterator":               {"channel", "scheduler"},
	"select-spin":                 {"channel", "scheduler", "own"},
	"worker-idle":                 {"channel", "scheduler"},
	"goroutine-setup":             {"callee", "time", "escapes", "moved-to-heap", "unknown", "new", "memory", "gc"},
	"grown-to-peak":               {"append", "growslice", "copying", "make", "variable-make", "escapes"},
	"pool-new":                    {"escapes", "moved-to-heap", "callee", "unknown", "variable-make", "new", "memory", "gc"},
	"reflect-map-range":           {"reflect"},
	"evict-not-reused":            {"escapes", "moved-to-heap", "return", "callee"},
	"printf-wrapper":              {"fmt", "interface"},
	"paid-while-off":              {"time"},
	"write-batched":               {"syscall", "io"},
	"allocated-together":          {"escapes", "moved-to-heap", "return"},
	"map-first-write":             {"map", "maps"},
	"map-swept":                   {"map", "maps"},
	"map-handed":                  {"map", "maps"},
	"bound-per-item":              {"own", "other", "callee"},
	"tail-from-front":             {"own", "other", "callee", "strings"},
	"pivot-fixed":                 {"own", "bytes", "strings", "other", "sort"},
	"copy-unchanged":              {"own", "maps", "map", "copying", "memory", "bytes", "strings"},
	"copy-chain":                  {"escapes", "return", "concat", "strings", "regexp", "other", "moved-to-heap"},
	"regexp-class":                {"regexp", "conversion", "escapes"},
	"fold-transformer":            {"own", "other", "callee", "strings", "conversion", "escapes", "copying", "memory", "gc", "unicode", "growslice"},
	"latency-measured":            {"time"},
	"runes-in-order":              {"conversion", "escapes", "strings", "copying", "memory", "gc"},
	"range-converted":             {"conversion", "escapes", "strings", "copying", "memory", "gc"},
	"append-variant":              {"callee", "escapes", "strconv", "internal/strconv", "fmt", "time", "strings", "copying", "memory", "interface", "other"},
	"wrapped-per-call":            {"callee", "escapes", "make", "compression", "encoding", "other"},
	"bytes-of-string":             {"conversion", "escapes", "moved-to-heap", "strings", "bytes", "copying", "memory", "gc"},
	"join-parts":                  {"strings", "bytes", "copying", "memory", "gc", "growslice", "make", "variable-make", "conversion", "escapes", "moved-to-heap"},
	"cap-short":                   {"append", "grows", "escapes", "return"},
	"sort-boxed":                  {"escapes", "moved-to-heap", "interface", "sort", "strings", "own"},
	"trial-render":                {"own", "append", "copying", "memory"},
	"read-escapes":                {"escapes", "moved-to-heap", "interface"},
	"error-constant":              {"escapes", "return", "interface", "errors"},
	"grow-short":                  {"copying", "memory", "strings", "grows", "append"},
	"registry-unset":              {"sync", "maps", "map", "other"},
	"switch-per-call":             {"own", "other", "callee", "interface"},
	"alternatives-tried":          {"time", "other", "strconv", "internal/strconv", "escapes", "errors", "fmt", "callee"},
	"scan-one":                    {"fmt", "other", "reflect", "interface", "escapes", "moved-to-heap"},
	"regexp-format":               {"regexp"},
	"format-varies":               {"fmt", "interface", "escapes", "strconv", "internal/strconv"},
	"lowered-key":                 {"strings", "copying", "memory", "escapes", "map", "maps", "gc"},
	"boxed-for-api":               {"interface", "escapes", "reflect"},
	"split-for-cut":               {"strings", "strconv", "internal/strconv", "copying", "bytes", "memory", "gc", "escapes", "growslice"},
	"output-returned":             {"interface", "escapes", "strings", "bytes", "copying", "memory", "gc", "growslice"},
	"probe-escapes":               {"escapes", "interface", "callee"},
	"buffer-empty":                {"append", "growslice", "copying"},
	"scratch-per-call":            {"escapes", "moved-to-heap", "interface", "callee", "memory", "gc"},
	"map-remade":                  {"map", "maps"},
	"map-value-indirect":          {"map", "maps", "escapes", "moved-to-heap"},
	"log-args-boxed":              {"interface", "fmt", "escapes"},
	"map-sized-by-bound":          {"map", "maps", "escapes", "return", "moved-to-heap", "make"},
	"grow-guessed":                {"strings", "bytes", "copying", "memory", "gc", "growslice", "make", "variable-make"},
	"var-boxed":                   {"interface", "escapes", "moved-to-heap"},
	"literal-boxed":               {"interface", "escapes", "moved-to-heap"},
	"builder-result":              {"gc", "memory", "strings", "bytes", "copying", "other"},
	"grow-dropped":                {"gc", "memory", "strings", "bytes", "copying", "other", "make", "variable-make"},
	"chan-queue":                  {"channel", "escapes", "moved-to-heap"},
	"math-const":                  {"math"},
	"result-computed":             {"other"},
	"input-converted":             {"strconv", "internal/strconv"},
	"reflect-slice-bytes":         {"reflect"},
	"reflect-interface-assert":    {"reflect"},
	"reflect-implements-by-value": {"reflect", "interface"},
	"conversion-kept":             {"conversion"},
	"conversion-for-callee":       {"conversion"},
	"conversion-for-api":          {"conversion"},
	"args-formatted":              {"fmt", "interface", "escapes", "callee"},
	"error-built":                 {"fmt", "interface", "errors"},
	"defer-not-open-coded":        {"defer", "closure"},
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
// is the reason it costs; a known length copied through ReadFrom is also
// a buffered read, and the regrowth is what the allocation is.
var narrower = map[string]int{"error-per-alternative": 1, "slice-regrown": 1, "fold-transformer": 1, "readfrom-known-length": 1, "type-cache-hit": 1}

// atRelated marks the shapes whose cost is at their related lines as much
// as at their own: an RWMutex's exclusive Lock and the Unlock that
// releases it (a mutex profile puts the cost at the Unlock), a regexp run
// twice on one input, a log call's arguments on the lines after its
// first, a map of large values at the stores that allocate them, a map kept only
// for a sweep at its deletes, reflect's MapIndex at the reflect.ValueOf
// that boxes its key. A cause at one of those lines is explained by the
// shape as a cause at its line is.
var atRelated = map[string]bool{"grown-to-peak": true, "defer-not-open-coded": true, "buffer-from-nil": true, "map-literal-per-call": true, "args-for-func-value": true, "set-sized-by-input": true, "map-keys-known": true, "cow-copy": true, "concat-written": true, "sparse-table": true, "range-copied": true, "rwmutex-exclusive": true, "lock-per-call": true, "reflect-map-range": true, "regexp-twice": true, "log-args-boxed": true, "map-value-indirect": true, "map-remade": true, "map-swept": true, "reflect-map-index": true, "switch-per-call": true, "bound-per-item": true, "output-returned": true, "pivot-fixed": true, "copy-unchanged": true, "copy-chain": true, "regexp-class": true, "join-parts": true, "bytes-of-string": true, "map-handed": true, "fold-transformer": true, "trial-render": true, "sort-boxed": true, "split-write": true, "context-per-call": true, "upper-lowered": true}

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
	for _, s := range doc.Shapes {
		if !atRelated[s.Name] {
			continue
		}
		for _, l := range s.Lines()[1:] {
			k := where(s.File, l)
			if !slices.ContainsFunc(out[k], func(o document.Shape) bool { return o.Name == s.Name && o.Line == s.Line }) {
				out[k] = append(out[k], s)
			}
		}
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
		c.weighCallerFix()
		shapes := d.fitting(c, c.shapesExplaining(at, d.t.AdviceShare))
		if len(shapes) == 0 {
			shapes = d.callerShapes(c)
			if len(shapes) > 0 {
				// The change is at the caller's line (the buffer
				// scanString declares empty), not in the callee
				// that allocates: the cause points at it.
				c.addLine(shapes[0].File, shapes[0].Line, shapes[0].Function, "the caller's code the change is in")
			}
		}
		if len(shapes) == 0 {
			d.advisePart(c, at)
			d.setupOnly(c, false)
			continue
		}
		c.shapes = shapes
		s := &shapes[0]
		c.shape = s
		if s.Name == "node-chunks" && c.kind == document.KindAlloc {
			if n, b := d.nodesPerOp(c); b != nil && n < d.t.ChunkMin {
				// Fewer nodes per op than a chunk holds: a chunk
				// would allocate more than the nodes do.
				says, _, _ := strings.Cut(s.Says, ": ")
				c.section, c.inherent = document.SectionAPI, true
				c.suggestion = fmt.Sprintf("%s: %s per op at most in %s, fewer than a chunk of %.0f would hold: the tree's own nodes, what parsing builds for the caller; chunks pay only where a tree has hundreds of nodes", says, num(n), b.name(), d.t.ChunkMin)
				c.generic = false
				continue
			}
		}
		if s.Name == "inline-overflow" && c.kind == document.KindAlloc {
			// The heap form of a value too large for its inline
			// array: the layout's trade-off, not a change to make
			// at the allocation.
			c.section, c.inherent = document.SectionAPI, true
			c.suggestion, c.generic = fmt.Sprintf("%s: %s", s.Says, s.Advice), false
			continue
		}
		if s.Name == "node-chunks" && c.kind == document.KindAlloc && singleNodeParent(c, s) {
			// Most of its nodes made one per call of a function
			// outside any loop and any recursion (orb's feature
			// geometry wrapped for its encoding): trees of one node,
			// nothing for a chunk to share.
			continue
		}
		if s.Name == "node-chunks" && c.kind == document.KindAlloc && d.setupOnly(c, true) {
			// The nodes of a tree built once per value the
			// benchmarks then use (a pattern compiled once, matched
			// many times): what compiling makes, not a change to
			// make first.
			continue
		}
		c.suggestion = fmt.Sprintf("%s: %s", s.Says, s.Advice)
		c.generic, c.ownWork = false, s.OwnWork
		if complexityShapes[s.Name] && c.rule == document.RuleCPUOwnCode {
			// A function's own code whose shape names a change of
			// its complexity (a walk repeated per pair, n·m·depth
			// steps where (n+m)·depth do) is a fix like any other,
			// not its algorithm's low-ranked cost.
			c.lowOnly = false
		}
		c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
		d.secondPart(c, append(shapes[:1:1], c.shapesExplaining(at, d.t.AdvicePartShare)...))
		if s.Name == "chan-iterator" {
			d.handOffs(c)
		}
	}
}

// setupOnly gives a cause in a function that runs only under a
// constructor whose value the benchmarks use in their loops (a
// setup-only shape: glob's lexer and parser under MustCompile) the
// shape's words — a cost per value made, not per use, which names no
// change to make first — when the cause is still in its category's
// words, or always; it reports whether it did.
func (d *deriver) setupOnly(c *cause, always bool) bool {
	if !always && !c.generic || c.section != document.SectionFix {
		return false
	}
	for _, s := range d.doc.Shapes {
		if s.Name == "setup-only" && document.PlainFunc(s.Function) == document.PlainFunc(c.fn) {
			c.suggestion = fmt.Sprintf("%s: %s", s.Says, s.Advice)
			c.generic, c.ownWork = false, true
			c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
			return true
		}
	}
	return false
}

// nodesPerOp returns the most allocations per op a cause makes in the
// benchmarks of the module's use (at full weight; in any, when it costs
// none of those), and that benchmark.
// singleNodeParent reports whether the module function that called a
// node constructor where most of its allocations were made is one the
// node-chunks shape marks as making one node per call.
func singleNodeParent(c *cause, s *document.Shape) bool {
	top, share := "", 0.0
	for p, v := range c.parents {
		if v > share || v == share && p < top {
			top, share = p, v
		}
	}
	if top == "" || top == c.fn {
		return false
	}
	for _, r := range s.Related {
		if r.Note == document.SingleNodeNote && outer(document.PlainFunc(r.Function)) == top {
			return true
		}
	}
	return false
}

func (d *deriver) nodesPerOp(c *cause) (float64, *bench) {
	var top *bench
	n := 0.0
	for _, full := range []bool{true, false} {
		for _, k := range slices.Sorted(maps.Keys(c.costs)) {
			b := d.byKey[k]
			if b == nil || full && b.weight < 1 {
				continue
			}
			if a := c.costs[k].AllocsPerOp; top == nil || a > n {
				top, n = b, a
			}
		}
		if top != nil {
			break
		}
	}
	return n, top
}

// handOffs gives a channel iterator's cause the scheduler's share of each
// benchmark it costs in: the profile puts the send at the iterator's
// line, but the receive in the caller's loop and the parking and waking
// of the two goroutines in the scheduler, all of it the channel's hand-off
// per element.
func (d *deriver) handOffs(c *cause) {
	var top *bench
	for _, k := range slices.Sorted(maps.Keys(c.costs)) {
		b, cs := d.byKey[k], c.costs[k]
		if b == nil || b.cats["scheduler"] <= cs.CPUShare {
			continue
		}
		c.addEvidence(fmt.Sprintf("CPU profile of %s: scheduler %s (channel sends, receives, parking and waking)", b.name(), pct(b.cats["scheduler"])))
		cs.CPUShare = b.cats["scheduler"]
		if top == nil || cs.CPUShare > c.costs[top.key].CPUShare {
			top = b
		}
	}
	if top != nil {
		c.message += fmt.Sprintf("; with the receive and the scheduler's hand-offs, %s of %s's CPU", pct(c.costs[top.key].CPUShare), top.name())
	}
}

// weighCallerFix gives the line where a module function calls the one
// that allocates what it asks for (a line noted callerFixNote, see
// allocCauses) the weight of all the cause's other lines: the call makes
// all of it, in every benchmark added since the line was noted, so the
// code there explains the cost.
func (c *cause) weighCallerFix() {
	for _, l := range c.lines {
		if !strings.HasSuffix(l.Note, callerFixNote) {
			continue
		}
		k := where(l.File, l.Line)
		rest := 0.0
		for o, v := range c.lineShare {
			if o != k {
				rest += v
			}
		}
		if c.lineShare[k] < rest {
			c.weigh(l.File, l.Line, rest-c.lineShare[k])
		}
	}
}

// complexityShapes are the shapes that name a change of a function's
// own code — its complexity (a walk per pair), or the size of what each
// step copies (a 1 KiB value copied per parser step) — so its rank is a
// fix's, not its algorithm's.
var complexityShapes = map[string]bool{"chain-walk-per-pair": true, "copied-large": true}

// apiShapes are the shapes that say a cost is the API's: never a
// second change to name.
var apiShapes = map[string]bool{"json-map-api": true, "args-for-func-value": true, "map-handed": true, "boxed-for-api": true, "conversion-for-api": true, "args-formatted": true, "result-computed": true, "result-passed": true, "result-forwarded": true, "input-converted": true, "clock-carried": true, "random-carried": true, "value-generated": true, "grown-to-request": true, "sized-by-caller": true, "goroutine-per-call": true}

// secondPart adds to a cause's advice that of a second shape of another
// kind at lines the first does not hold, when those lines are at least
// AdvicePartShare of the cause: a function whose regexp is one part and
// whose chain of string copies another gets both changes named.
func (d *deriver) secondPart(c *cause, shapes []document.Shape) {
	if d.t.AdvicePartShare <= 0 || len(shapes) < 2 || shapes[0].OwnWork {
		return
	}
	first := shapes[0]
	var firstLines []int64 // the lines of every shape of the first's kind
	for _, s := range shapes {
		if s.Name == first.Name && s.File == first.File {
			firstLines = append(firstLines, s.Lines()...)
		}
	}
	total := 0.0
	for _, v := range c.lineShare {
		total += v
	}
	for _, s := range shapes[1:] {
		if s.Name == first.Name || s.OwnWork || apiShapes[s.Name] {
			continue
		}
		held := 0.0
		for _, l := range s.Lines() {
			if s.File == first.File && slices.Contains(firstLines, l) {
				continue
			}
			held += c.lineShare[where(s.File, l)]
		}
		if total <= 0 || held < d.t.AdvicePartShare*total {
			continue
		}
		c.suggestion = fmt.Sprintf("%s; and (%.0f%% of it): %s: %s", c.suggestion, 100*held/total, s.Says, s.Advice)
		c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
		return
	}
}

// callerShapes returns the shapes at a call into the function that makes
// an allocation cause's values, or into its caller: the shape of a cache's
// insert that a list's PushFront allocates for, two calls below it (a
// shape names such a callee with a related location, its note
// allocatingCallee).
func (d *deriver) callerShapes(c *cause) []document.Shape {
	if c.kind != document.KindAlloc {
		return nil
	}
	fns := []string{document.PlainFunc(c.fn)}
	if p := mainParent(c); p != "" {
		fns = append(fns, document.PlainFunc(p))
	}
	var out []document.Shape
	for _, s := range d.doc.Shapes {
		if !c.explainedBy(s.Name) {
			continue
		}
		for _, r := range s.Related {
			if r.Note == allocatingCallee && r.Function != "" && slices.Contains(fns, document.PlainFunc(r.Function)) {
				out = append(out, s)
				break
			}
		}
	}
	if len(fns) > 1 {
		// The shape in the caller that makes most of it first (a
		// dict's Set called by the conversion of every map of the
		// data, and by a builtin now and then).
		slices.SortStableFunc(out, func(a, b document.Shape) int {
			return cmp.Compare(b2i(document.PlainFunc(b.Function) == fns[1]), b2i(document.PlainFunc(a.Function) == fns[1]))
		})
	}
	return out
}

// allocatingCallee is the note of a shape's related location at the
// function its line calls to allocate (internal/site's evict-not-reused).
const allocatingCallee = "the callee that allocates"

// oneChange joins the fix causes that one change removes, known by their
// shapes: an RWMutex field that Get and Add each take exclusively is one
// cause, with one change (a Mutex), whatever number of methods the
// profile puts its cost in (the same receiver type, the same shape advice,
// which names the field); a printf wrapper's fmt.Fprintf and the
// arguments its callers box for it are one cause too (a method that
// writes a string), and so are the debug calls on one logger type that
// box their arguments (a level test). The costlier cause leads; the others are its lines
// and say what they add.
func (d *deriver) oneChange() {
	lead := map[string]*cause{}
	var order []string
	for _, c := range d.causes {
		k := changeKey(c)
		if k == "" {
			continue
		}
		if lead[k] == nil {
			order = append(order, k)
		}
		lead[k] = costlier(lead[k], c)
	}
	gone := map[*cause]bool{}
	for _, k := range order {
		into := lead[k]
		for _, c := range d.causes {
			if c == into || gone[c] || changeKey(c) != k {
				continue
			}
			msg, sugg, shape, shapes := into.message, into.suggestion, into.shape, into.shapes
			_, top := c.impact()
			absorb(into, c)
			into.message, into.suggestion, into.shape, into.shapes = msg, sugg, shape, shapes
			switch {
			case top == nil:
			case shapeName(c) == "rwmutex-exclusive":
				into.message += fmt.Sprintf("; %s takes the same lock: %s of %s's CPU", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name())
			case shapeName(c) == "boxed-for-call" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, shortName(c.fn)+" does the same")
			case shapeName(c) == "call-inputs-recur":
				into.message += fmt.Sprintf("; %s reads the type's description too: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "sync-map-wide-key":
				into.message += fmt.Sprintf("; %s looks up with the same key type: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "paid-while-off":
				into.message += fmt.Sprintf("; %s reads the clock too: %s of %s's CPU", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name())
			case c.ifaceInst != "":
				into.message += fmt.Sprintf("; %s copies interface elements (%s): %s of %s's CPU", shortName(c.fn), c.ifaceInst, pct(c.costs[top.key].CPUShare), top.name())
			case shapeName(c) == "map-swept":
				into.message += fmt.Sprintf("; %s keeps the same map: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "log-args-boxed":
				into.message += allocAdds(c, top, shortName(c.fn)+" boxes for it too")
			case shapeName(c) == "map-value-indirect":
				into.message += allocAdds(c, top, shortName(c.fn)+"'s map of the same type")
			case shapeName(c) == "join-entry" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, shortName(c.fn)+" joins its entries the same way")
			case shapeName(c) == "node-chunks" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, shortName(c.fn)+" makes the same nodes")
			case shapeName(c) == "format-boxed" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, shortName(c.fn)+" boxes for it too")
			case shapeName(c) == "buffer-empty" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, shortName(c.fn)+" grows the same buffer")
			case shapeName(c) == "parts-apart" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, shortName(c.fn)+" makes another of its parts")
			case shapeName(c) == "peek-skipped":
				into.message += fmt.Sprintf("; %s consumes what it peeked the same way, at %s (the function is %s of %s's CPU)", shortName(c.fn), where(c.shape.File, c.shape.Line), pct(c.costs[top.key].CPUShare), top.name())
			case shapeName(c) == "table-fallback":
				into.message += fmt.Sprintf("; %s computes it there: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "context-per-call":
				into.message += fmt.Sprintf("; %s passes it down too: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "iface-var-loop":
				into.message += fmt.Sprintf("; %s calls through the same variable: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "error-built":
				into.message += fmt.Sprintf("; %s builds the same error: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			case shapeName(c) == "cow-copy" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, "the copied node, made in "+shortName(c.fn))
			case shapeName(c) == "sparse-table" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, "the table it makes")
			case shapeName(c) == "reflect-map-index" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, "the key it boxes")
			case shapeName(c) == "printf-wrapper" && c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, "its callers box the arguments")
			case c.kind == document.KindAlloc:
				into.message += allocAdds(c, top, "it also allocates")
			default:
				into.message += fmt.Sprintf("; %s: %s of %s's CPU", strings.TrimPrefix(c.message, shortName(c.fn)+": "), pct(c.costs[top.key].CPUShare), top.name())
			}
			gone[c] = true
		}
	}
	for _, off := range d.causes {
		if gone[off] || off.section != document.SectionFix || shapeName(off) != "paid-while-off" || receiver(off.fn) == "" {
			continue
		}
		for _, c := range d.causes {
			if gone[c] || c.section != document.SectionFix || shapeName(c) != "map-swept" || receiver(c.fn) != receiver(off.fn) {
				continue
			}
			// The same type's swept map is the bookkeeping the clock
			// feeds (expiry buckets): with the setting off, the one
			// change skips both; with it on, the map is the rest.
			msg, sugg, shape, shapes := off.message, off.suggestion, off.shape, off.shapes
			_, top := c.impact()
			absorb(off, c)
			off.message, off.shape, off.shapes = msg, shape, append(shapes, *c.shape)
			if top != nil {
				off.message += fmt.Sprintf("; the bookkeeping it feeds, %s's map: %s of %s's CPU at %s", shortName(c.fn), pct(c.costs[top.key].CPUShare), top.name(), where(c.file, c.line))
			}
			off.suggestion = sugg + "; with the setting on: " + c.suggestion
			gone[c] = true
		}
	}
	if len(gone) > 0 {
		d.causes = slices.DeleteFunc(d.causes, func(c *cause) bool { return gone[c] })
	}
}

// allocAdds says what a cause joined into another adds in allocations:
// "; what: N allocs/op (B/op) in Bench at file:line".
func allocAdds(c *cause, top *bench, what string) string {
	cs := c.costs[top.key]
	return fmt.Sprintf("; %s: %s allocs/op (%s/op) in %s at %s", what, num(cs.AllocsPerOp), bytesText(cs.BytesPerOp), top.name(), where(c.file, c.line))
}

// changeKey names the change a fix cause's shape makes, for oneChange: ""
// for a shape whose causes are each their own.
func changeKey(c *cause) string {
	if c.section != document.SectionFix {
		return ""
	}
	if c.ifaceInst != "" && c.shape == nil {
		// A generic function's copies of interface elements: the
		// interface-based API, one change with its dynamic calls.
		return "iface\x00" + ifaceMethods(c.ifaceInst)
	}
	if c.shape == nil {
		return ""
	}
	s := c.shape
	switch s.Name {
	case "interface-dispatch":
		// "calls Less through the Item interface": the dynamic call of
		// an interface-based API (see ifaceInst).
		if _, rest, ok := strings.Cut(s.Says, " calls "); ok {
			if m, _, ok := strings.Cut(rest, " through the "); ok && !strings.ContainsAny(m, " .(") {
				return "iface\x00" + m
			}
		}
		return ""
	case "sort-boxed":
		// A sorter's Sort call and its Less, each a function's cost:
		// one sort, one change.
		for _, r := range s.Related {
			if r.Note == "the sort" {
				return fmt.Sprintf("%s\x00%s:%d", s.Name, r.File, r.Line)
			}
		}
		return s.Name + "\x00" + where(s.File, s.Line)
	case "text-round-trip":
		// The formatting and the parse back, each a function's cost,
		// whichever exported function formats: one change, at the
		// parse every path reaches.
		for _, r := range s.Related {
			if r.Note == "parsed back here" {
				return fmt.Sprintf("%s\x00%s:%d", s.Name, r.File, r.Line)
			}
		}
		return ""
	case "peek-skipped":
		// Peeked bytes consumed with Skip in several of a package's
		// reads (ReadUint64, ReadNil, ReadFloat64 …): one way of
		// reading to change, one change.
		return s.Name + "\x00" + path.Dir(s.File)
	case "fold-transformer":
		// The transformer's loop and the transform.String that runs
		// it, each a function's cause: one fold to replace.
		return fmt.Sprintf("%s\x00%s:%d", s.Name, s.File, s.Line)
	case "iface-var-loop":
		// The loops that call one package-level interface variable's
		// methods (a byte order's Uint64 and PutUint64): one switch
		// to its concrete values, one change.
		if _, rest, ok := strings.Cut(s.Says, " through "); ok {
			if v, _, ok := strings.Cut(rest, ", a package-level variable"); ok {
				return s.Name + "\x00" + path.Dir(s.File) + "\x00" + v
			}
		}
		return ""
	case "node-chunks":
		// Every constructor of one node type (a parser's newRegexNode,
		// newRegexNodeM, newRegexNodeStr …): one allocator of chunks
		// for the type, one change.
		if _, rest, ok := strings.Cut(s.Says, " makes every "); ok {
			if t, _, ok := strings.Cut(rest, " of the tree"); ok {
				return s.Name + "\x00" + path.Dir(s.File) + "\x00" + t
			}
		}
		return ""
	case "format-boxed":
		// The calls that box values into one formatter of the
		// package (sqlparser's Myprintf from formatID, ColName.Format,
		// SelectExprs.Format): one pattern, one change.
		if _, rest, ok := strings.Cut(s.Says, " calls "); ok {
			if f, _, ok := strings.Cut(rest, ", the package's own formatter"); ok {
				return s.Name + "\x00" + path.Dir(s.File) + "\x00" + f
			}
		}
		return ""
	case "buffer-empty", "scratch-per-call":
		// The write methods a buffer declared empty regrows through
		// (a bytes2.Buffer's Write and WriteByte under scanString):
		// one buffer, one change where it is declared.
		return s.Name + "\x00" + where(s.File, s.Line)
	case "parts-apart":
		// The slices one struct's value holds, made at several places
		// (a Match's counts in newMatch, a group's first capture in
		// addMatch): one change, made with the value.
		if t, _, ok := strings.Cut(s.Says, "'s parts are allocated"); ok {
			return s.Name + "\x00" + path.Dir(s.File) + "\x00" + t
		}
		return ""
	case "log-args-boxed", "map-value-indirect", "context-per-call":
		// Every debug call on one logger type, every map of one
		// large value type, every call passing one context type down
		// a tree: one change, its advice names the type.
		return s.Name + "\x00" + s.Advice
	case "rwmutex-exclusive", "paid-while-off":
		// One field of one type: the advice names it.
		if r := receiver(c.fn); r != "" {
			return s.Name + "\x00" + r + "\x00" + s.Advice
		}
	case "boxed-for-call":
		// Every method of a type that passes a literal to the same
		// callee's interface parameter (Context.String, Context.JSON
		// into Render): one pattern, one change.
		if _, rest, ok := strings.Cut(s.Says, " literal to "); ok {
			if callee, _, ok := strings.Cut(rest, "'s "); ok {
				return s.Name + "\x00" + path.Dir(s.File) + "\x00" + callee
			}
		}
		return ""
	case "call-inputs-recur":
		// Reflection's description of a type read per value (struct
		// tags, fields) in several functions of one package: one
		// change, a plan of the type worked out once and kept (gin's
		// binding reads its tags in mapping, tryToSetValue and
		// setTimeField).
		if strings.Contains(s.Says, "type information") {
			return s.Name + "\x00type\x00" + path.Dir(s.File)
		}
		return ""
	case "sync-map-wide-key":
		// The caches of one key type (a codec's decoders and its
		// encoders, each keyed by cacheKey): one way of keying, one
		// change.
		if _, rest, ok := strings.Cut(s.Says, "-byte "); ok {
			if t, _, ok := strings.Cut(rest, " {"); ok {
				return s.Name + "\x00" + path.Dir(s.File) + "\x00" + t
			}
		}
		return ""
	case "chan-iterator":
		// Every iterator of a package that hands its elements over a
		// channel (a set's Iter and Iterator, in its safe and unsafe
		// kinds): one design, one change.
		return s.Name + "\x00" + path.Dir(s.File)
	case "error-built":
		// One error text built the same way on the error paths of
		// several functions of a package (cast's toNumberE and
		// toUnsignedNumberE, "unable to cast %#v of type %T to %T"):
		// one change, an error type that formats it when it is read.
		if f, _, ok := strings.Cut(strings.TrimPrefix(s.Says, "fmt.Errorf("), ", …) builds "); ok && f != s.Says {
			return s.Name + "\x00" + path.Dir(s.File) + "\x00" + f
		}
		return ""
	case "join-entry":
		// Every walk of a package joining a directory and an entry's
		// name with path.Join (doublestar's Glob and GlobWalk): one
		// pattern, one change.
		return s.Name + "\x00" + path.Dir(s.File)
	case "table-fallback":
		// The function that computes beyond its table and the
		// callers it is inlined in: one table to extend.
		for _, r := range s.Related {
			if r.Note == "the value computed beyond the table" {
				return fmt.Sprintf("%s\x00%s:%d", s.Name, r.File, r.Line)
			}
		}
		return s.Name + "\x00" + where(s.File, s.Line)
	case "cow-copy":
		// The copy of a node and the copies of its slices: one
		// design's cost, at whichever function allocates it.
		return s.Name + "\x00" + where(s.File, s.Line)
	case "map-swept", "reflect-map-index", "output-returned", "sparse-table", "sprintf-fields", "read-buffered", "split-write", "reflect-temp":
		// One map field: its stores and its deletes; one reflective
		// lookup: the key it boxes and the lookup; one walker's way of
		// returning its text; one buffered read, whatever the profile
		// files under it (the refills' system calls, the transport's
		// decryption, its allocations); one message's writes; one
		// temporary per entry, its allocation and its time.
		return s.Name + "\x00" + where(s.File, s.Line)
	case "printf-wrapper":
		// The wrapper's own line, or the line its callers' shapes
		// name it at.
		for _, r := range s.Related {
			if r.Note == wrapperFprintf {
				return s.Name + "\x00" + where(r.File, r.Line)
			}
		}
		return s.Name + "\x00" + where(s.File, s.Line)
	}
	return ""
}

// shapeName is the name of a cause's shape, "" when it has none.
func shapeName(c *cause) string {
	if c.shape == nil {
		return ""
	}
	return c.shape.Name
}

// ifaceMethods names the methods of an interface type's text, joined by
// commas: "Less" from "interface { Less(btree.Item) bool }".
func ifaceMethods(iface string) string {
	body := strings.TrimSuffix(strings.TrimPrefix(iface, "interface {"), "}")
	var names []string
	for _, m := range strings.Split(body, ";") {
		m = strings.TrimSpace(m)
		if i := strings.IndexByte(m, '('); i > 0 {
			names = append(names, m[:i])
		}
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// wrapperFprintf is the note of a printf-wrapper shape's related location
// at the wrapper's fmt.Fprintf (internal/site).
const wrapperFprintf = "the wrapper's fmt.Fprintf"

// costlier returns the cause of the two with the greater impact (a when
// they tie), b when a is nil.
func costlier(a, b *cause) *cause {
	if a == nil {
		return b
	}
	ai, _ := a.impact()
	bi, _ := b.impact()
	if bi > ai {
		return b
	}
	return a
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
	min := d.t.AdvicePartShare
	if c.unnamed && d.t.AdviceUnnamedShare > 0 {
		min = d.t.AdviceUnnamedShare
	}
	shapes := d.fitting(c, c.shapesExplaining(at, min))
	if len(shapes) == 0 {
		shapes = d.allocShapes(c, at)
	}
	if len(shapes) == 0 {
		return
	}
	s := &shapes[0]
	if c.ledBy(*s) {
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
	if c.unnamed && !s.OwnWork {
		// The only change the cause names: it leads, the own code's
		// words follow.
		c.suggestion = fmt.Sprintf("%s (%.0f%% of it): %s: %s; the rest is its own code: %s", at1, 100*held/total, s.Says, s.Advice, c.suggestion)
		c.generic = false
	} else if !s.OwnWork && !apiShapes[s.Name] {
		// A change the code names, at a part: it leads, the
		// category's words for the rest follow.
		c.suggestion = fmt.Sprintf("%s (%.0f%% of it): %s: %s; the rest: %s", at1, 100*held/total, s.Says, s.Advice, c.suggestion)
		c.generic = false
	} else {
		c.suggestion = fmt.Sprintf("%s; %s (%.0f%% of it): %s: %s", c.suggestion, at1, 100*held/total, s.Says, s.Advice)
	}
	if !s.OwnWork {
		// The part names a change: the cause is no longer one that
		// names none.
		c.ownWork = false
	}
	c.addEvidence(fmt.Sprintf("code at %s: %s", where(s.File, s.Line), s.Says))
}

// allocShapes returns the shapes that name a change at a line where the
// cause allocates at least AdvicePartShare of its bytes per op in a
// benchmark it costs: the bytes do not vary from run to run as a CPU
// share does (a builder grown and dropped, half of a function's bytes
// and 16% of its CPU).
func (d *deriver) allocShapes(c *cause, at map[string][]document.Shape) []document.Shape {
	byLine := map[string]float64{}
	total := map[string]float64{}
	for _, a := range d.doc.Allocations {
		k := a.Package + " " + a.Benchmark
		if _, ok := c.costs[k]; !ok || !c.hasLine(a.File, a.Line) {
			continue
		}
		byLine[k+" "+where(a.File, a.Line)] += a.BytesPerOp
		total[k] += a.BytesPerOp
	}
	var out []document.Shape
	for _, l := range c.lines {
		for _, s := range at[where(l.File, l.Line)] {
			if s.OwnWork || s.Advice == "" || apiShapes[s.Name] || !c.explainedBy(s.Name) {
				continue
			}
			for k, t := range total {
				if t > 0 && byLine[k+" "+where(l.File, l.Line)] >= d.t.AdvicePartShare*t {
					out = append(out, s)
					break
				}
			}
		}
	}
	return out
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
			if !c.explainedBy(s.Name) || slices.ContainsFunc(cands, func(o document.Shape) bool { return o.Name == s.Name && o.File == s.File && o.Line == s.Line }) {
				continue
			}
			if s.OwnWork && c.kind == document.KindContention {
				// Goroutines wait on each other: "its own work,
				// nothing to change" is never what that costs.
				continue
			}
			held := 0.0
			for _, sl := range s.Lines() {
				held += c.lineShare[where(s.File, sl)]
			}
			if s.OwnWork && !c.ledBy(s) && !(total > 0 && held > 0.5*total) {
				// It names no change: the advice of the line
				// that leads the cause stays, unless the shape
				// holds most of the cause (a lock's Lock and
				// Unlock, around a lighter line that leads).
				continue
			}
			if total > 0 && held < minShare*total && !c.ledBy(s) {
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
	held := func(s document.Shape) float64 {
		h := 0.0
		for _, sl := range s.Lines() {
			h += c.lineShare[where(s.File, sl)]
		}
		return h
	}
	slices.SortStableFunc(cands, func(a, b document.Shape) int {
		own := func(s document.Shape) int {
			// A shape that holds most of the cause leads whatever
			// line the cause is at (a map grown from empty beside
			// a slice that regrows, at the slice's line).
			if c.ledBy(s) || total > 0 && held(s) > 0.5*total {
				return 0
			}
			return 1
		}
		// A shape that names a change before one that says its
		// lines are the function's own work, wherever they are.
		return cmp.Or(cmp.Compare(boolInt(a.OwnWork), boolInt(b.OwnWork)), cmp.Compare(own(a), own(b)),
			-cmp.Compare(c.lineShare[where(a.File, a.Line)], c.lineShare[where(b.File, b.Line)]),
			strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(narrower[b.Name], narrower[a.Name]), strings.Compare(a.Name, b.Name))
	})
	return cands
}

// ledBy reports whether shape s is at the line that leads the cause: its
// own line, or one of its related lines where its cost is as much
// (atRelated).
func (c *cause) ledBy(s document.Shape) bool {
	if s.File != c.file {
		return false
	}
	if s.Line == c.line {
		return true
	}
	return atRelated[s.Name] && slices.Contains(s.Lines(), c.line)
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

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// fitting drops the shapes whose change does not fit the cause: parts
// allocated apart that are made anew at every call (slice-remade), or
// whose allocations average PartsMaxBytes or more, where one allocation
// for them all saves the count, not the bytes that cost.
func (d *deriver) fitting(c *cause, shapes []document.Shape) []document.Shape {
	if c.kind != document.KindAlloc {
		return shapes
	}
	if slices.ContainsFunc(shapes, func(s document.Shape) bool { return s.Name == "slice-remade" }) {
		// The parts are made anew at every call: kept, they
		// allocate nothing, which beats allocating them together.
		return slices.DeleteFunc(shapes, func(s document.Shape) bool { return s.Name == "parts-apart" })
	}
	_, top := c.impact()
	if top == nil {
		return shapes
	}
	cs := c.costs[top.key]
	if cs == nil || cs.AllocsPerOp <= 0 || cs.BytesPerOp/cs.AllocsPerOp < d.t.PartsMaxBytes {
		return shapes
	}
	return slices.DeleteFunc(shapes, func(s document.Shape) bool { return s.Name == "parts-apart" })
}
