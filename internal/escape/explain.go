package escape

import (
	"cmp"
	"fmt"
	"io/fs"
	"regexp"
	"strings"
)

// A Cause names why a line allocates.
type Cause string

// The causes Explain gives, each resting on the compiler's words where it
// says something (see docs/escape.md for the words each relies on).
const (
	// CauseMovedToHeap: a variable is allocated on the heap because its
	// address outlives the function ("moved to heap: hdr").
	CauseMovedToHeap Cause = "moved-to-heap"
	// CauseInterface: a value is boxed by a conversion to an interface
	// that escapes, typically an argument of fmt.* ("id escapes to heap"
	// with a "... argument" flow, or runtime.convT*).
	CauseInterface Cause = "interface"
	// CauseVariableMake: a slice made with a size that is not a constant
	// ("non-constant size" in Go 1.24's flow; from Go 1.25 the compiler
	// says "does not escape" and keeps only sizes up to 32 bytes on the
	// stack).
	CauseVariableMake Cause = "variable-make"
	// CauseAppend: append grows the slice (runtime.growslice).
	CauseAppend Cause = "append"
	// CauseConcat: string concatenation (runtime.concatstrings).
	CauseConcat Cause = "concat"
	// CauseConversion: a []byte↔string or []rune↔string conversion copies
	// (runtime.slicebytetostring, runtime.stringtoslicebyte).
	CauseConversion Cause = "conversion"
	// CauseMap: a map is made or grows (runtime.makemap, hashGrow,
	// mapassign).
	CauseMap Cause = "map"
	// CauseClosure: a func literal escapes, so its closure (and the
	// variables it captures by reference) are heap-allocated.
	CauseClosure Cause = "closure"
	// CauseEscapes: any other value the compiler says escapes: returned,
	// stored in the heap, sent on a channel, too large for the stack.
	CauseEscapes Cause = "escapes"
	// CauseCallee: the allocation is inside a library function the line
	// calls; the line's own verdicts do not cover it.
	CauseCallee Cause = "callee"
	// CauseUnknown: nothing on the line explains the allocation.
	CauseUnknown Cause = "unknown"
)

// An Explanation says why a line allocates.
type Explanation struct {
	Cause Cause
	// Reason is one line in plain words: "hdr is moved to the heap
	// because its address escapes: w.Write(hdr[:]) (call parameter)".
	Reason string
	// Name is the variable or expression that allocates, when known:
	// "hdr", "buf", "append(out, i)".
	Name string
	// Verdict is the compiler's words the explanation rests on ("moved to
	// heap: hdr"), "" when it rests on the source or the profile alone.
	// Position is that diagnostic's file:line:col.
	Verdict, Position string
	// Flow is the verdict's flow (-m=2), as Diagnostic.Flow.
	Flow []string
	// Sink says where the value goes, from the flow (SinkReturn, …);
	// Into is the call it is passed to, when it leaves as a call's
	// parameter ("w.Write", "fmt.Sprintf").
	Sink Sink
	Into string
	// Diagnostics are every diagnostic on the site's lines, as Join
	// returns them.
	Diagnostics []Diagnostic
}

// An Explainer explains allocation sites with the verdicts of an Index and,
// where the compiler's words do not say enough, the source.
type Explainer struct {
	Index *Index
	// Source is the module's source tree (os.DirFS of the module root),
	// or nil. With it Explain recognises appends, variable-size makes,
	// concatenations, conversions and map writes on lines the compiler
	// says nothing about, and names the variables the compiler's
	// expressions are assigned to. Parsed files are cached: set Source
	// before the first Explain.
	Source fs.FS

	src *sourceCache
}

// NewExplainer returns an Explainer over ix reading source from src (nil
// for none).
func NewExplainer(ix *Index, src fs.FS) *Explainer {
	return &Explainer{Index: ix, Source: src}
}

// candidate is one possible explanation, with its strength.
type candidate struct {
	cause Cause
	name  string // variable, or expression when no variable is known
	expr  string // expression, "" if unknown
	rank  int    // 0 heap verdict for a variable, 1 heap verdict, 2 small-on-stack verdict, 3 source, 4 profile
	// secondary marks the verdicts of an inlined site's own line, which
	// are about the function compiled on its own, not the inlined copy.
	secondary bool
	diag      *Diagnostic
	// escaping names, for interface conversions of several arguments.
	names []string
}

// Explain says why a site allocates: the cause, in plain words, with the
// compiler's verdict and flow when there is one. It uses, strongest first,
// the runtime or library function the profile says allocated (Callees),
// the compiler's verdicts on the site's lines (the caller's line for an
// inlined site, then the site's own), and the allocating constructs the
// source shows on the site's line.
func (e *Explainer) Explain(s Site) Explanation {
	if e.src == nil {
		e.src = &sourceCache{fsys: e.Source}
	}
	var diags []Diagnostic
	if e.Index != nil {
		diags = e.Index.Join(s)
	}
	var cands []candidate
	iface := -1 // the candidate that collects boxed arguments
	callerDiags := 0
	if s.Inlined() && e.Index != nil {
		callerDiags = len(e.Index.Line(s.CallerFile, s.CallerLine))
	}
	for i := range diags {
		d := &diags[i]
		c, ok := fromDiagnostic(d)
		if !ok {
			continue
		}
		c.secondary = s.Inlined() && i >= callerDiags
		if c.cause == CauseInterface && c.rank == 1 {
			// Several arguments boxed on one line are one explanation.
			if iface >= 0 {
				cands[iface].names = append(cands[iface].names, d.Name)
				continue
			}
			c.names = []string{d.Name}
			iface = len(cands)
		}
		cands = append(cands, c)
	}
	for _, k := range e.src.constructs(s.File, s.Line) {
		c := candidate{cause: k.cause, name: cmp.Or(k.name, k.expr), expr: k.expr, rank: 3}
		if k.cause == CauseCallee {
			c.name = k.name
		}
		cands = append(cands, c)
	}
	// Names from the source for the compiler's expressions:
	// "make([]byte, n)" is buf in "buf := make([]byte, n)".
	for i := range cands {
		c := &cands[i]
		if c.diag == nil || c.rank > 2 {
			continue
		}
		for _, k := range e.src.constructs(s.File, s.Line) {
			if k.cause == c.cause && (k.expr == normExpr(c.diag.Name) || c.diag.Name == "append") && k.name != "" {
				// "buf := make([]byte, n)": the variable names it.
				c.name = k.name
			}
		}
	}
	want, libs := fromCallees(s.Callees)
	if text := e.src.lineText(s.File, s.Line); text != "" && !strings.Contains(text, "map[") || hasCause(want, CauseMap) && !createsMap(s.Callees) {
		// The line makes no map (a make(map…) there is a helper's
		// inlined at it, an interning table's), or the runtime only
		// grew one as entries were stored: what it allocates is the
		// map it stores into, growing.
		cands = dropMapMakes(cands)
	}
	if len(libs) > 0 {
		// The allocation is inside a library call. The line's own verdicts
		// explain it only when they are about that library's code inlined
		// here ("&errors.errorString{...} escapes to heap" under
		// errors.New), or about boxing its arguments (fmt).
		kept := cands[:0]
		for _, c := range cands {
			if c.cause == CauseInterface && c.rank <= 1 && hasPrefix(libs, "fmt.") ||
				c.rank <= 1 && c.diag != nil && mentionsPackage(c.diag.Name, libs) {
				kept = append(kept, c)
			}
		}
		cands = kept
	}
	if s.Inlined() {
		// The caller's line holds the verdicts of everything inlined
		// there: keep those about a variable this line names.
		text := e.src.lineText(s.File, s.Line)
		var named []candidate
		for _, c := range cands {
			if c.diag != nil && c.name != "" && mentionsIdent(text, c.name) {
				named = append(named, c)
			}
		}
		if len(named) > 0 {
			cands = named
		}
	}
	if s.ObjectBytes >= boxedMax {
		// Objects this large are not boxed scalars: prefer what else the
		// line does.
		var other []candidate
		for _, c := range cands {
			if c.cause != CauseInterface {
				other = append(other, c)
			}
		}
		if len(other) > 0 {
			cands = other
		}
	}
	best := pick(cands, want)
	switch {
	case best != nil:
	case len(libs) > 0:
		best = &candidate{cause: CauseCallee, name: libs[0], rank: 4}
	case len(want) > 0:
		best = &candidate{cause: want[0], rank: 4}
	default:
		best = &candidate{cause: CauseUnknown}
	}
	callee := ""
	if len(libs) > 0 {
		callee = libs[0]
	}
	x := Explanation{Cause: best.cause, Name: best.name, Diagnostics: diags}
	switch {
	case len(best.names) > 1:
		x.Name = strings.Join(best.names, ", ")
	case best.cause == CauseAppend:
		x.Name = appendTarget(x.Name) // "append(b, x...)" appends to b
	}
	if d := best.diag; d != nil {
		x.Verdict, x.Position, x.Flow = d.Message, d.Position(), d.Flow
		x.Sink, x.Into = FlowSink(d.Flow)
		if x.Sink == SinkNone && len(d.Flow) > 0 {
			// "flow: bloomfilter ← &{storage for &Bloom{...}}:" and
			// no step further: a named result holds it, which the
			// caller gets.
			if to := flowTo(d.Flow[0]); to != "" && e.src.namedResult(s.File, s.Line, to) {
				x.Sink = SinkReturn
			}
		}
	}
	x.Reason = reason(best, x.Name, callee)
	return x
}

// Sink says where an escaping value goes, as its flow (-m=2) tells.
type Sink string

// The sinks, from the flow's steps.
const (
	SinkNone      Sink = ""          // no flow, or none of these
	SinkReturn    Sink = "return"    // a result of the function: the caller gets it
	SinkClosure   Sink = "closure"   // captured by reference by a func literal
	SinkInterface Sink = "interface" // converted to an interface
	SinkCall      Sink = "call"      // a parameter of a call that keeps it (or that the compiler cannot see through)
	SinkHeap      Sink = "heap"      // stored where the heap holds it
)

// FlowSink classifies a verdict's flow (Diagnostic.Flow): the last step
// that says where the value goes wins (a value converted to an interface
// and then passed to a call leaves through the call), with the call's
// expression when the value leaves as its parameter. A value that flows
// into the result of a function inlined into its caller (~r0, ~R0) is
// that function's result: SinkReturn, whatever the caller does with it.
func FlowSink(flow []string) (Sink, string) {
	sink, into := SinkNone, ""
	for _, f := range flow {
		f = strings.TrimSpace(f)
		switch {
		case inlinedResult.MatchString(f):
			return SinkReturn, ""
		case strings.Contains(f, "captured by a closure"):
			sink = SinkClosure
		case strings.Contains(f, "(return)"):
			sink = SinkReturn
		case strings.Contains(f, "(call parameter)"):
			sink, into = SinkCall, callOf(f)
		case strings.Contains(f, "(interface-converted)"):
			if sink != SinkCall {
				sink = SinkInterface
			}
		case strings.Contains(f, "{heap}") && sink == SinkNone:
			sink = SinkHeap
		}
	}
	return sink, into
}

// flowTo returns the location a flow step's value goes to: "bloomfilter"
// of "flow: bloomfilter ← &{storage for &Bloom{...}}:", or "".
func flowTo(step string) string {
	rest, ok := strings.CutPrefix(strings.TrimSpace(step), "flow: ")
	if !ok {
		return ""
	}
	for _, sep := range []string{" ← ", " = "} {
		if to, _, ok := strings.Cut(rest, sep); ok && !strings.ContainsAny(to, " {}~") {
			return to
		}
	}
	return ""
}

// inlinedResult matches the flow step into an inlined function's
// unnamed result: "flow: ~r0 ← &{storage for x}:".
var inlinedResult = regexp.MustCompile(`^flow: ~[rR]\d+ (←|=) `)

// callOf returns the called expression of a flow step "from
// w.Write(hdr[:]) (call parameter) at codec.go:10:22": "w.Write"; and
// "(*rand.Rand).Intn" of "from (*rand.Rand).Intn(rng, 256) (call
// parameter)".
func callOf(step string) string {
	s, ok := strings.CutPrefix(step, "from ")
	if !ok {
		return ""
	}
	s, _, ok = strings.Cut(s, " (call parameter)")
	if !ok || !strings.HasSuffix(s, ")") {
		return ""
	}
	depth := 0
	for i := len(s) - 1; i >= 0; i-- {
		switch s[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return s[:i]
			}
		}
	}
	return ""
}

// boxedMax is the average object size from which a site's allocations are
// taken not to be values boxed in interfaces (a string header is 16 bytes,
// most boxed scalars and small structs are well under this).
const boxedMax = 96

// fromDiagnostic returns the candidate a diagnostic stands for.
func fromDiagnostic(d *Diagnostic) (candidate, bool) {
	c := candidate{name: d.Name, expr: d.Name, diag: d}
	switch d.Kind {
	case KindMovedToHeap:
		c.cause, c.rank = CauseMovedToHeap, 0
	case KindEscapes:
		c.cause, c.rank = escapeCause(d), 1
	case KindDoesNotEscape:
		// Values the compiler keeps on the stack only while small.
		c.rank = 2
		switch n := d.Name; {
		case variableMake(n):
			c.cause = CauseVariableMake
		case n == "append" || strings.HasPrefix(n, "append("):
			c.cause = CauseAppend
		case isConversion(n):
			c.cause = CauseConversion
		case strings.HasPrefix(n, "make(map[") || strings.HasPrefix(n, "map["):
			c.cause = CauseMap
		case isConcat(n):
			c.cause = CauseConcat
		default:
			return c, false
		}
	default:
		return c, false
	}
	return c, true
}

// escapeCause classifies a heap verdict by the expression it names and its
// flow.
func escapeCause(d *Diagnostic) Cause {
	n := d.Name
	switch {
	case n == "func literal":
		return CauseClosure
	case n == "append" || strings.HasPrefix(n, "append("):
		return CauseAppend
	case strings.HasPrefix(n, "make(map[") || strings.HasPrefix(n, "map["):
		return CauseMap
	case strings.HasPrefix(n, "make(["):
		// A heap verdict with a flow is about where the value goes
		// (returned, stored, passed to a call the compiler cannot see
		// through), not its size, unless the flow says the size.
		if flowSays(d, "(non-constant size)") || variableMake(n) && !flowEscapes(d) {
			return CauseVariableMake
		}
		return CauseEscapes
	case strings.HasPrefix(n, "make("):
		// make(T, …) of a named slice or map type: the value escapes;
		// nothing is boxed.
		return CauseEscapes
	case isConversion(n):
		return CauseConversion
	case isConcat(n):
		return CauseConcat
	case strings.HasPrefix(n, "&") || strings.HasPrefix(n, "new(") || strings.Contains(n, "{"):
		// A pointer or composite: converting a pointer to an interface
		// boxes nothing, the pointee escapes.
		return CauseEscapes
	case flowSays(d, "... argument") || flowSays(d, "(interface-converted)"):
		return CauseInterface
	case flowSays(d, "&{storage for "+n+"}"):
		// The storage of a plain value escapes: the value was boxed in an
		// interface (sink = v, return error(v), any(v)).
		return CauseInterface
	}
	return CauseEscapes
}

// flowEscapes reports whether a diagnostic's flow shows the value leaving
// the function: to the heap, a result, or a call's parameter.
func flowEscapes(d *Diagnostic) bool {
	for _, f := range d.Flow {
		if strings.Contains(f, "{heap}") || strings.Contains(f, "(call parameter)") || strings.Contains(f, "(return)") {
			return true
		}
	}
	return false
}

func flowSays(d *Diagnostic, s string) bool {
	for _, f := range d.Flow {
		if strings.Contains(f, s) {
			return true
		}
	}
	return false
}

func isConversion(n string) bool {
	return strings.HasPrefix(n, "string(") || strings.HasPrefix(n, "([]byte)(") ||
		strings.HasPrefix(n, "([]rune)(") || strings.HasPrefix(n, "[]byte(") || strings.HasPrefix(n, "[]rune(")
}

// isConcat reports whether a printed expression is a concatenation: a "+"
// outside parentheses and string literals whose operands are not numbers.
func isConcat(n string) bool {
	depth, inStr := 0, false
	for i := 0; i < len(n); i++ {
		switch ch := n[i]; {
		case inStr:
			if ch == '\\' {
				i++
			} else if ch == '"' {
				inStr = false
			}
		case ch == '"':
			inStr = true
		case ch == '(' || ch == '[' || ch == '{':
			depth++
		case ch == ')' || ch == ']' || ch == '}':
			depth--
		case ch == '+' && depth == 0 && i > 0 && i+1 < len(n) && n[i-1] == ' ' && n[i+1] == ' ':
			return true
		}
	}
	return false
}

// dropMapMakes leaves out the verdicts about a map being made.
func dropMapMakes(cands []candidate) []candidate {
	kept := cands[:0]
	for _, c := range cands {
		if c.cause != CauseMap || c.diag == nil || !strings.HasPrefix(c.diag.Name, "make(map[") && !strings.HasPrefix(c.diag.Name, "map[") {
			kept = append(kept, c)
		}
	}
	return kept
}

// createsMap reports whether the runtime functions that allocated include
// one that makes a map (rather than growing one as entries are stored).
func createsMap(callees []string) bool {
	for _, f := range callees {
		if strings.HasPrefix(f, "runtime.makemap") || strings.HasPrefix(f, "internal/runtime/maps.NewMap") || f == "internal/runtime/maps.NewEmptyMap" {
			return true
		}
	}
	return false
}

// fromCallees maps the functions the profile says allocated to the causes
// they imply. When the line called a library function that allocated (the
// outermost callee is not the runtime's), it returns the library functions
// instead, outermost first: the runtime frames below them are the
// library's.
func fromCallees(callees []string) (want []Cause, libs []string) {
	if n := len(callees); n > 0 && !isRuntime(callees[n-1]) {
		for i := n - 1; i >= 0; i-- {
			if !isRuntime(callees[i]) {
				libs = append(libs, callees[i])
			}
		}
		return nil, libs
	}
	for _, f := range callees {
		switch {
		case f == "runtime.growslice":
			want = append(want, CauseAppend)
		case strings.HasPrefix(f, "runtime.concatstring") || strings.HasPrefix(f, "runtime.concatbyte"):
			want = append(want, CauseConcat)
		case f == "runtime.slicebytetostring" || f == "runtime.stringtoslicebyte" || f == "runtime.stringtoslicerune" ||
			f == "runtime.slicerunetostring" || f == "runtime.intstring" || f == "runtime.rawbyteslice" || f == "runtime.rawruneslice":
			want = append(want, CauseConversion)
		case strings.HasPrefix(f, "runtime.makemap") || f == "runtime.hashGrow" || f == "runtime.growWork" ||
			strings.HasPrefix(f, "runtime.mapassign") || strings.HasPrefix(f, "internal/runtime/maps."):
			want = append(want, CauseMap)
		case strings.HasPrefix(f, "runtime.convT"):
			want = append(want, CauseInterface)
		case f == "runtime.makeslice" || f == "runtime.makeslicecopy":
			want = append(want, CauseVariableMake, CauseEscapes)
		case f == "runtime.newobject":
			want = append(want, CauseMovedToHeap, CauseClosure, CauseEscapes)
		}
	}
	return want, nil
}

// isRuntime reports whether a function is the runtime's (or an empty
// name, which says nothing).
func isRuntime(f string) bool {
	return f == "" || strings.HasPrefix(f, "runtime.") || strings.HasPrefix(f, "internal/runtime/")
}

func hasPrefix(fs []string, prefix string) bool {
	for _, f := range fs {
		if strings.HasPrefix(f, prefix) {
			return true
		}
	}
	return false
}

// mentionsPackage reports whether a compiler expression names the package
// of one of fns: the compiler qualifies inlined code's names
// ("&errors.errorString{...}", "bytes.b.buf").
func mentionsPackage(expr string, fns []string) bool {
	for _, f := range fns {
		pkg := f
		if i := strings.LastIndexByte(pkg, '/'); i >= 0 {
			pkg = pkg[i+1:]
		}
		if i := strings.IndexByte(pkg, '.'); i > 0 {
			pkg = pkg[:i]
		}
		if pkg != "" && strings.Contains(expr, pkg+".") {
			return true
		}
	}
	return false
}

// pick returns the strongest candidate with a wanted cause (any candidate
// if want is empty or none has one), the first of equals.
func pick(cands []candidate, want []Cause) *candidate {
	var best *candidate
	for i := range cands {
		c := &cands[i]
		if len(want) > 0 && !hasCause(want, c.cause) {
			continue
		}
		if best == nil || !c.secondary && best.secondary || c.secondary == best.secondary && c.rank < best.rank {
			best = c
		}
	}
	if best == nil && len(want) == 0 {
		return nil
	}
	return best
}

func hasCause(cs []Cause, c Cause) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// reason writes the one-line reason for a candidate.
func reason(c *candidate, name, callee string) string {
	var via string
	if c.diag != nil {
		via = lastStep(c.diag.Flow)
	}
	onStack := c.rank == 2 // "does not escape" of a value kept on the stack only while small
	switch c.cause {
	case CauseMovedToHeap:
		switch {
		case c.diag != nil && flowSays(c.diag, "(captured by a closure)"):
			return fmt.Sprintf("%s is moved to the heap because a closure that outlives the function captures it by reference", name)
		case via != "":
			return fmt.Sprintf("%s is moved to the heap because its address escapes: %s", name, via)
		}
		return fmt.Sprintf("%s is moved to the heap because its address outlives the function (-m=2 shows the flow)", name)
	case CauseInterface:
		verb := "escapes"
		if strings.Contains(name, ", ") {
			verb = "escape"
		}
		s := fmt.Sprintf("%s %s to the heap: converted to an interface", name, verb)
		switch {
		case via != "":
			s += " that escapes: " + via
		case callee != "":
			s += " for " + callee
		}
		if callee != "" && c.rank < 4 {
			s += fmt.Sprintf("; %s allocates too", callee)
		}
		if name == "" {
			return fmt.Sprintf("a value is converted to an interface (boxed) on the heap%s", cond(callee != "", " for "+callee, ""))
		}
		return s
	case CauseVariableMake:
		expr := describe(c, name, "a slice made here")
		if onStack || c.diag == nil {
			return fmt.Sprintf("%s has a size known only at run time: the compiler keeps it on the stack only when it fits a 32-byte buffer (Go 1.25+); larger ones go to the heap", expr)
		}
		return fmt.Sprintf("%s has a size known only at run time, so it is allocated on the heap", expr)
	case CauseAppend:
		s := "append grows the slice: when its capacity runs out, runtime.growslice allocates a larger backing array and copies"
		if name != "" {
			s = fmt.Sprintf("append to %s grows it: when its capacity runs out, runtime.growslice allocates a larger backing array and copies", appendTarget(name))
		}
		return s
	case CauseConcat:
		return fmt.Sprintf("%s concatenates strings: each concatenation allocates a new string%s",
			describe(c, name, "this line"), cond(onStack, " (kept on the stack only when the result is small and does not escape)", ""))
	case CauseConversion:
		return fmt.Sprintf("%s converts between string and []byte (or []rune), which copies into a new allocation%s",
			describe(c, name, "a conversion here"), cond(onStack, " unless it is small and does not escape", ""))
	case CauseMap:
		if c.diag != nil && c.rank == 1 {
			return fmt.Sprintf("the map made by %s escapes, so it and its storage are on the heap; it grows as entries are added", c.diag.Name)
		}
		return fmt.Sprintf("the map%s grows as entries are added: it allocates its first table at its first insert, and a larger one, rehashing its entries, each time it fills", cond(name != "", " "+name, ""))
	case CauseClosure:
		if via != "" {
			return fmt.Sprintf("the func literal escapes via %s, so its closure and the variables it captures by reference are heap-allocated", via)
		}
		return "the func literal escapes, so its closure and the variables it captures by reference are heap-allocated"
	case CauseEscapes:
		if name == "" {
			return "a value made here escapes to the heap"
		}
		if via != "" {
			return fmt.Sprintf("%s escapes to the heap: %s", name, via)
		}
		return fmt.Sprintf("%s escapes to the heap", name)
	case CauseCallee:
		return fmt.Sprintf("the allocation is inside %s, called on this line; the compiler's verdicts for the line do not cover it", name)
	}
	return "no compiler diagnostic on this line explains the allocation"
}

// describe names a candidate's expression and the variable it goes to:
// "make([]byte, n) (buf)".
func describe(c *candidate, name, none string) string {
	switch {
	case c.expr != "" && name != "" && name != c.expr:
		return fmt.Sprintf("%s (%s)", c.expr, name)
	case c.expr != "":
		return c.expr
	case name != "":
		return name
	}
	return none
}

// normExpr writes a conversion as the source does: the compiler prints
// "([]byte)(s)" for []byte(s).
func normExpr(e string) string {
	for _, t := range []string{"[]byte", "[]rune"} {
		if rest, ok := strings.CutPrefix(e, "("+t+")("); ok {
			return t + "(" + rest
		}
	}
	return e
}

// lastStep returns the last "from X (why)" step of a flow without its
// position: where the value finally escapes.
func lastStep(flow []string) string {
	for i := len(flow) - 1; i >= 0; i-- {
		f := strings.TrimSpace(flow[i])
		if s, ok := strings.CutPrefix(f, "from "); ok {
			if j := strings.LastIndex(s, " at "); j >= 0 {
				s = s[:j]
			}
			return s
		}
	}
	return ""
}

// appendTarget returns the slice of "append(out, i)", "" for a bare
// "append", or name itself.
func appendTarget(name string) string {
	if name == "append" {
		return ""
	}
	if s, ok := strings.CutPrefix(name, "append("); ok {
		if i := strings.IndexAny(s, ",)"); i > 0 {
			return s[:i]
		}
	}
	return name
}

func cond(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

// mentionsIdent reports whether text contains name as a whole identifier.
func mentionsIdent(text, name string) bool {
	for i := strings.Index(text, name); i >= 0; {
		end := i + len(name)
		if (i == 0 || !isIdentByte(text[i-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return true
		}
		j := strings.Index(text[i+1:], name)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
