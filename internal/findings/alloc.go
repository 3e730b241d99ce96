package findings

import (
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// allocCauses finds the allocation causes of one benchmark (see the
// package doc) and merges them into d.causes.
func (d *deriver) allocCauses(b *bench) {
	if b.hasAllocs && b.allocsPerOp <= 0 && b.bytesPerOp <= 0 {
		return
	}
	for _, a := range b.allocs {
		if a.InTest || strings.HasSuffix(a.File, "_test.go") || a.File == "" || !d.isModule(a.Function) || harness(a.Via) {
			continue
		}
		share := max(a.BytesShare, a.ObjectsShare)
		if share < d.t.SiteMin && (share < d.t.ShapedSiteMin || !d.shapedSite(a)) {
			continue
		}
		allocs, bytes := a.AllocsPerOp, a.BytesPerOp
		if allocs == 0 && bytes == 0 && b.hasAllocs {
			// No per-op profile: the shares of the benchmark's metrics.
			allocs, bytes = a.ObjectsShare*b.allocsPerOp, a.BytesShare*b.bytesPerOp
		}
		if allocs > 0 && allocs < d.t.RareAllocs && (a.BytesShare < d.t.RareBytes || bytes < d.t.RareBytesPerOp) {
			continue // an error path or a rarely taken branch
		}
		e := document.Escape{}
		if a.Escape != nil {
			e = *a.Escape
		}
		if e.Cause == "append" && e.Param {
			// Appending to the caller's slice grows the caller's buffer:
			// the Append-style API already lets the caller reuse one.
			continue
		}
		if e.Cause == "callee" && isDirRead(e.Name) {
			// The entries a directory listing returns: the walk's
			// own allocations, counted with its reads.
			continue
		}
		if growsBuffer(a.Via) {
			// A bytes.Buffer or strings.Builder growing as it is written
			// to: the place to act is where the buffer is made (its own
			// site) or whoever passed it in, not the write.
			continue
		}
		// A function's allocations are one cause: the objects it makes on
		// one path (a node, its items, its children) are one cost.
		group := "allocations"
		owner := outer(document.PlainFunc(a.Function))
		if r := receiver(owner); r != "" && (e.Cause == "interface" || e.Cause == "concat") && returned(e) && !d.explainedAt(a, e) {
			// The methods of one type boxing or concatenating what they
			// return are one way of building output: one cause. A value
			// boxed to pass to a call is its method's allocation, and so
			// is one a shape of code at its line explains (a key boxed
			// for reflect's MapIndex): its own change.
			owner, group = r, string(e.Cause)
		}
		c := d.find(document.KindAlloc, owner, group)
		if c == nil {
			c = d.newCause(document.KindAlloc, group, owner, a.File, a.Line)
			c.rule = document.RuleAllocSite
			c.inherent = !d.avoidable(a) && (inherent(a, e, d.module) || d.returnsAddress(a) || d.resultOfAPI(a, e) || d.shapeAt("boxed-for-api", a.File, a.Line) != nil || d.shapeAt("conversion-for-api", a.File, a.Line) != nil || d.shapeAt("args-formatted", a.File, a.Line) != nil || d.shapeAt("json-map-api", a.File, a.Line) != nil || d.shapeOn("map-handed", a.File, a.Line) != nil || d.shapeOn("args-for-func-value", a.File, a.Line) != nil)
			if c.inherent {
				if adv, s := d.resultAdvice(a); adv != "" {
					c.suggestion, c.shape = adv, s
				}
			}
			if d.boxedIntoResult(a) {
				c.inherent = true
				c.suggestion = "the map of interface values the API returns or takes boxes every value stored into it: the API-level alternative is a typed result (a struct, or a map of the concrete type) or a callback per field"
			}
			if !c.inherent && d.decodes(b) && decodedValue(a, e) && d.shapeAt("reflect-temp", a.File, a.Line) == nil && !d.avoidable(a) {
				// (A reflect.New temporary copied into a slot the
				// decoder already made is not what decoding builds:
				// the reflect-temp shape says how to do without it.)
				c.inherent, c.decoded = true, true
				c.suggestion = decodedFix
				if set := reflectSet(e); set != "" {
					c.suggestion = fmt.Sprintf("the value is stored into the caller's value through reflection (%s): part of what decoding builds for the caller, a copy the API makes so that the result does not share the input's memory", set)
				}
			}
			if s := d.shapeOn("goroutine-per-call", a.File, a.Line); s != nil {
				// A goroutine and a channel per call: the design's.
				c.inherent, c.shape = true, s
				c.suggestion = s.Says + ": " + s.Advice
			}
			if s := d.shapeAt("grown-to-request", a.File, a.Line); s != nil {
				// Storage the caller's request needs (a set grown
				// to hold the bit it is given): what it asks for.
				c.inherent, c.shape = true, s
				c.suggestion = s.Says + ": " + s.Advice
			}
			if s := d.shapeAt("sized-by-caller", a.File, a.Line); s != nil {
				// A buffer of the size the caller passes, in the
				// value the constructor returns: its request.
				c.inherent, c.shape = true, s
				c.suggestion = s.Says + ": " + s.Advice
			}
			if s := d.shapeAt("linked-node", a.File, a.Line); s != nil {
				// One node per element: what a linked structure is.
				c.inherent, c.shape = true, s
				c.suggestion = s.Says + ": " + s.Advice
			}
			if !c.inherent && d.decodes(b) && e.Cause == "map" && strings.Contains(e.Reason, "grows as entries are added") && d.shapeAt("map-unsized", a.File, a.Line) == nil {
				// A map of the decoded document growing as the input
				// is read, with no count to size it by: the decoding's.
				c.inherent, c.decoded = true, true
				c.suggestion = fmt.Sprintf("the map %s is the decoded document's, filled as the input is read with no count of its entries known before: its growth is part of what decoding builds for the caller, not a map to reuse (the caller keeps it)", e.Name)
			}
			if !c.inherent && d.decodes(b) && unmarshalerStore(a, e) {
				// An Unmarshaler's store into its receiver, the
				// caller's value: one allocation of what it keeps.
				c.inherent, c.decoded, c.whole = true, true, true
				c.suggestion = fmt.Sprintf("%s keeps a copy of its input in its receiver, the caller's value: what decoding builds for the caller, copied so that it does not share the input's memory", shortName(a.Function))
			}
			if !c.inherent && d.helperResult(a, e) {
				// A helper's result: its module caller's choice
				// (see below), when it has one.
				c.inherent, c.helper = true, true
			}
			regrown := c.inherent && !c.whole && grows(a, e) && shapeName(c) != "linked-node"
			if c.inherent && (!regrown || !d.changeShapeAt(a.File, a.Line)) && d.shapeAt("concat-in-loop", a.File, a.Line) == nil {
				// What the API forces: a section of its own, never
				// what to do first. A result that grows by append is
				// allocated more than once: the regrowth is the
				// function's, a cause to fix where a shape at the line
				// names the change (a count known before the loop to
				// presize it by); with none, the count is known only
				// as the result is filled (a scan's matches, a lexer's
				// tokens): its regrowth is part of building it. A
				// string rebuilt by += in a loop is a cause to fix.
				c.section = document.SectionAPI
				if regrown {
					c.suggestion, c.shape = regrownFix(a, e), nil
				}
			}
			d.causes = append(d.causes, c)
		}
		note, inside := siteReason(a, e)
		c.addLine(a.File, a.Line, a.Function, note)
		if inside {
			c.markInside(a.File, a.Line)
		}
		if c.parents == nil {
			c.parents = map[string]float64{}
		}
		// "" is the benchmarks' own calls: a function they call
		// directly on most of its allocations joins no caller's cause.
		c.parents[outer(document.PlainFunc(a.Parent))] += a.BytesShare + a.ObjectsShare
		if a.Parent != "" {
			parent := outer(document.PlainFunc(a.Parent))
			if a.ParentLine > 0 && c.parentAt[parent].Line == 0 {
				if c.parentAt == nil {
					c.parentAt = map[string]document.Location{}
				}
				c.parentAt[parent] = document.Location{File: a.ParentFile, Line: a.ParentLine, Function: a.Parent}
			}
		}
		cs := c.cost(b)
		cs.AllocsPerOp += allocs
		cs.BytesPerOp += bytes
		cs.AllocShare = min(1, cs.AllocShare+share)
		est := b.memGC() * (a.BytesShare + a.ObjectsShare) / 2
		cs.CPUShare = min(1, cs.CPUShare+est)
		c.weigh(a.File, a.Line, max(est, share*b.memGC(), 1e-6))
		c.addEvidence(fmt.Sprintf("heap profile, per op with setup subtracted: %s allocates %s allocs/op, %s/op in %s (%s of its bytes, %s of its objects)",
			where(a.File, a.Line), num(allocs), bytesText(bytes), b.name(), pct(a.BytesShare), pct(a.ObjectsShare)))
		if e.Verdict != "" && e.Verdict != e.Reason {
			c.addEvidence(fmt.Sprintf("compiler (-gcflags=-m=2) at %s: %s", where(a.File, a.Line), clean(e.Verdict)))
		}
		if c.suggestion == "" {
			c.suggestion, c.generic = allocFix(a, e, c.inherent), !c.inherent
			if s := d.viaOnInputs(a, e, c.inherent); s != nil {
				// Another library's call computing from what the
				// function is given (zi.Lsh(x, n)): the call's own
				// work, no change of this code's to name first. A
				// call writing into state it is given (r.SetPathValue)
				// may write what is there already: it stays a fix.
				c.suggestion = s.Says + ": " + s.Advice + "; where the library has one, a variant that writes into a value you reuse"
				c.ownWork = s.OwnWork && !strings.Contains(s.Says, " works on the state of ")
			}
			if c.helper {
				c.helperFix = allocFix(a, e, false)
			}
		}
		c.siteMechs(a, e)
	}
	// What the API forces is the API's cost only when the user's call
	// makes it: a constructor the module's own code calls (a parser
	// making its nodes, a renderer built by default) is the module's
	// choice, a cause to fix at the caller.
	for _, c := range d.causes {
		if c.kind != document.KindAlloc || !c.inherent || c.section != document.SectionAPI || c.decoded {
			continue
		}
		if c.shape != nil && (c.shape.Name == "boxed-for-api" || c.shape.Name == "conversion-for-api" || c.shape.Name == "args-formatted" || c.shape.Name == "linked-node" || c.shape.Name == "args-for-func-value" || c.shape.Name == "grown-to-request" || c.shape.Name == "sized-by-caller" || c.shape.Name == "goroutine-per-call") {
			continue // the signature of the function it boxes for, the structure's node, the size asked for, whoever calls
		}
		caller := d.moduleCaller(c)
		if caller != "" && d.benchmarkCalls(c, caller) {
			// A micro-benchmark of the internal caller: the value is
			// that function's result, what the benchmark measures.
			continue
		}
		if at := c.parentAt[caller]; caller != "" && at.Line > 0 && d.apiResult(c.fn) && exported(caller) && d.calledByEvery(c, caller) && d.shapeAt("result-computed", at.File, at.Line) != nil {
			// An exported method's result that the exported function
			// the benchmarks call hands back as its own (Marshal's
			// return DefaultConfig.Marshal(schema, v)): the API's
			// cost still.
			continue
		}
		if caller != "" && exported(caller) && decoderName(caller) {
			// A decoder's exported method (a set's UnmarshalMsg)
			// calling what returns each decoded string: the value
			// decoding builds for the caller, the API's cost still.
			continue
		}
		if caller != "" {
			// The words name the caller, not what its code does
			// there: generic, until a shape at the call (see
			// weighCallerFix) says it.
			c.section = document.SectionFix
			c.generic = true
			c.suggestion = fmt.Sprintf("%s returns what it allocates, but the module's own %s calls it: the fix is there — call it only when its result is used, or allocate many at once in a chunk the caller owns", shortName(c.fn), shortName(caller))
			if at := c.parentAt[caller]; at.Line > 0 {
				c.addLine(at.File, at.Line, at.Function, "calls "+shortName(c.fn)+callerFixNote)
				// The call makes all of it: the code there explains
				// the cost (see advise).
				total := 0.0
				for k, v := range c.lineShare {
					if k != where(at.File, at.Line) {
						total += v
					}
				}
				c.weigh(at.File, at.Line, total-c.lineShare[where(at.File, at.Line)])
			}
		} else if c.helper {
			// An unexported helper no module function calls on most
			// of its allocations: its own cause, as the compiler's
			// reason says.
			c.section, c.inherent, c.helper = document.SectionFix, false, false
			c.suggestion, c.generic = c.helperFix, true
		}
	}
	// A constant capacity the module chose (a fixed-capacity shape at a
	// line of the cause), or a table of constants every value made
	// fills and carries (table-filled): the value may be the API's, its
	// size is not.
	for _, c := range d.causes {
		if c.kind != document.KindAlloc || c.section != document.SectionAPI || c.decoded {
			continue
		}
	lines:
		for _, l := range c.lines {
			for _, name := range []string{"fixed-capacity", "table-filled"} {
				if s := d.shapeAt(name, l.File, l.Line); s != nil {
					c.section, c.inherent, c.generic = document.SectionFix, false, false
					c.suggestion = s.Says + ": " + s.Advice
					break lines
				}
			}
		}
	}
	// A value a loop makes on every iteration and drops after it (a
	// made-per-iteration shape whose chain of functions making it holds
	// the cause's function or its main caller): the fix is at the loop,
	// one value reset per iteration, whatever the words at the site.
	for _, c := range d.causes {
		if c.kind != document.KindAlloc || c.section != document.SectionFix || c.decoded {
			continue
		}
		if s := d.madePerIteration(c.fn, mainParent(c)); s != nil && d.runsIn(c, s.Function) {
			c.suggestion, c.generic = s.Says+": "+s.Advice, false
			c.addLine(s.File, s.Line, s.Function, "makes one per iteration: where the fix is")
		}
	}
	// The CPU profile's allocation time under the cause's lines, when it
	// says more than the estimate.
	for _, c := range d.causes {
		if c.kind != document.KindAlloc || c.costs[b.key] == nil {
			continue
		}
		under := 0.0
		for _, l := range b.lines {
			if (l.Category == "memory" || l.Category == "gc") && c.hasLine(l.File, l.Line) {
				under += l.Self
			}
		}
		if cs := c.costs[b.key]; under > cs.CPUShare {
			cs.CPUShare = min(1, under)
		}
	}
}

// runsIn reports whether fn runs in a benchmark c costs: a hotspot of
// its CPU profile, a line of it, or an allocation's caller there. A loop
// that makes the value in a function none of them runs is not where the
// cost the benchmarks measured comes from (roaring's BenchmarkBSIClone
// cloning a BSI, not the compare loop that clones one per iteration).
// With no profile of the function's benchmarks at all, it is taken as
// running.
func (d *deriver) runsIn(c *cause, fn string) bool {
	plain := document.PlainFunc(fn)
	seen := false
	for k := range c.costs {
		b := d.byKey[k]
		if b == nil {
			continue
		}
		for _, h := range d.doc.Hotspots {
			if h.Benchmark != b.name() || h.Package != b.entry.Package {
				continue
			}
			seen = true
			if document.PlainFunc(h.Function) == plain {
				return true
			}
		}
		for _, l := range b.lines {
			seen = true
			if document.PlainFunc(l.Function) == plain {
				return true
			}
		}
		for _, a := range b.allocs {
			if document.PlainFunc(a.Parent) == plain || document.PlainFunc(a.Function) == plain {
				return true
			}
		}
	}
	return !seen
}

// returnsAddress reports whether an exported function returns the address
// of the local the site allocates (a returned-address shape at the
// site's line): the value is its result, whatever the compiler names
// first as its reason to move it to the heap.
func (d *deriver) returnsAddress(a *document.Allocation) bool {
	if !exported(a.Function) {
		return false
	}
	for _, s := range d.doc.Shapes {
		if s.Name == "returned-address" && s.File == a.File && s.Line == a.Line {
			return true
		}
	}
	return false
}

// boxedIntoResult reports whether an exported function's site boxes a
// value into a map of interface values it returns or its caller passed (a
// boxed-into-result shape at the site's line): the map's type asks for
// it.
func (d *deriver) boxedIntoResult(a *document.Allocation) bool {
	if !exported(a.Function) {
		return false
	}
	for _, s := range d.doc.Shapes {
		if s.Name == "boxed-into-result" && s.File == a.File && s.Line == a.Line {
			return true
		}
	}
	return false
}

// decodes reports whether b's dominant call path goes through an exported
// function of the module that decodes into a value its caller passes
// (Unmarshal, a Decoder's Decode): what it builds is the caller's value.
func (d *deriver) decodes(b *bench) bool {
	return d.through(b, "Unmarshal", "Decode")
}

// codes reports whether b's dominant call path goes through an exported
// function of the module that decodes (see decodes) or encodes
// (Marshal, an Encoder's Encode): a reflective codec's walk over the
// caller's value is what the benchmark measures.
func (d *deriver) codes(b *bench) bool {
	return d.through(b, "Unmarshal", "Decode", "Marshal", "Encode")
}

// through reports whether b's dominant call path goes through an exported
// function of the module whose name starts with one of the prefixes.
func (d *deriver) through(b *bench, prefixes ...string) bool {
	cp := b.entry.CallPath
	if cp == nil {
		return false
	}
	for _, f := range cp.Functions {
		fn := document.PlainFunc(f)
		if !d.isModule(fn) || !exported(fn) {
			continue
		}
		name := fn[strings.LastIndexAny(fn, ".)")+1:]
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
	}
	return false
}

// decodedValue reports whether an allocation is a value of the decoded
// document: one reflect makes (a slice, a map, a new element; an entry
// stored into a map), a string made from the input's bytes, a map or
// slice of interface values, a value boxed into an interface that
// escapes.
func decodedValue(a *document.Allocation, e document.Escape) bool {
	via := pkgFunc(a.Via)
	switch {
	case isReflectMake(via), via == "reflect.Value.SetMapIndex", reflectSet(e) != "":
		return true
	case e.Cause == "conversion" && (strings.HasPrefix(e.Name, "string(") || strings.HasPrefix(e.Verdict, "string(")):
		// (*(*string)(p) = string(s): the string stored through the
		// pointer to the caller's field names the store, not the
		// conversion.)
		return true
	case strings.Contains(e.Name, "interface {}") || strings.Contains(e.Name, "]any"):
		return true
	case e.Cause == "interface", e.Sink == "interface" && (e.Cause == "escapes" || e.Cause == "variable-make"):
		return true
	case storedThroughPointer(e):
		return true
	}
	return false
}

// storedThroughPointer reports whether the escape's flow stores the value
// through a pointer (*s = dst): a decoder's method filling the value its
// receiver or a parameter points at, the caller's.
func storedThroughPointer(e document.Escape) bool {
	for _, f := range e.Flow {
		if at, ok := strings.CutPrefix(strings.TrimSpace(f), "from *"); ok && strings.Contains(at, " = ") && strings.Contains(at, "(assign)") {
			return true
		}
	}
	return false
}

// reflectSet returns the reflect.Value setter the allocation's flow
// hands it to ("reflect.Value.SetBytes(v, src)"), or "": the value is
// stored into the caller's value through reflection.
func reflectSet(e document.Escape) string {
	for _, f := range e.Flow {
		at, ok := strings.CutPrefix(strings.TrimSpace(f), "from reflect.Value.Set")
		if !ok || !strings.Contains(at, "(call parameter)") {
			continue
		}
		call, _, _ := strings.Cut(at, " (call parameter)")
		return "reflect.Value.Set" + call
	}
	return ""
}

// unmarshalerStore reports whether the allocation is an Unmarshal
// method's store into its receiver (*m = append((*m)[0:0], data...)):
// the method is how the caller's value decodes itself, and what it
// stores there is the caller's.
func unmarshalerStore(a *document.Allocation, e document.Escape) bool {
	fn := document.PlainFunc(a.Function)
	name := fn[strings.LastIndexAny(fn, ".)")+1:]
	if !strings.HasPrefix(name, "Unmarshal") || !strings.Contains(fn, ").") {
		return false
	}
	for _, f := range e.Flow {
		if strings.Contains(f, "from *") && strings.Contains(f, "(assign)") {
			return true
		}
	}
	return false
}

// decodedFix is the advice for a value of the decoded document.
const decodedFix = "the value is part of what decoding builds for the caller (a map, a slice, a string or a boxed number of the document, stored into the value the caller passed): a cost of decoding into interface{} and map targets, which a struct target with typed fields mostly avoids"

// intoResult reports whether the compiler's flow stores the allocation in
// the function's result first (~r0 ← &{storage for …}) and the result
// then escapes through something other than the return (an append, a
// call): the value is part of what the function builds and hands on.
func intoResult(e document.Escape) bool {
	if len(e.Flow) == 0 || e.Sink == "return" {
		return false
	}
	head, ok := strings.CutPrefix(e.Flow[0], "flow: ~")
	return ok && len(head) > 1 && (head[0] == 'r' || head[0] == 'R') && strings.Contains(head, "← &{storage for ")
}

// grows reports whether the site allocates by growing a slice (an
// append): more than the one value a function's result needs.
func grows(a *document.Allocation, e document.Escape) bool {
	return e.Cause == "append" || a.Alloc == "runtime.growslice"
}

// moduleCaller returns the module function, other than the cause's own and
// the benchmarks' code, that calls the cause's function on most of its
// allocations, or "" (also when the benchmarks' own calls make at least as
// many).
func (d *deriver) moduleCaller(c *cause) string {
	best, share := "", 0.0
	for p, v := range c.parents {
		if p == c.fn || !d.isModule(p) || d.testFunc(p) || d.passesResult(c, p) || v < share || v == share && p > best {
			continue
		}
		best, share = p, v
	}
	if best != "" && c.parents[""] >= share {
		// The benchmarks' own calls make most of its allocations: the
		// user's call, not the module's choice.
		return ""
	}
	return best
}

// callerFixNote ends the note of the line where a module function calls
// the one whose allocation is its choice: the fix is there.
const callerFixNote = ": where the fix is"

// benchmarkCalls reports whether every benchmark the cause costs calls p
// directly from its own code (a micro-benchmark of the internal function
// p): the value p gets from the cause's function is what the benchmark
// measures, not a choice of the module's to fix at p.
func (d *deriver) benchmarkCalls(c *cause, p string) bool {
	return !exported(p) && d.calledByEvery(c, p)
}

// calledByEvery reports whether every benchmark of cause c calls p from
// its own code (its call path goes from the test to p).
func (d *deriver) calledByEvery(c *cause, p string) bool {
	if len(c.benches) == 0 {
		return false
	}
	for _, b := range c.benches {
		if b.entry.CallPath == nil || !d.calledFromTest(b, p) {
			return false
		}
	}
	return true
}

// find returns the cause of kind and group in function fn, if any.
func (d *deriver) find(kind document.Kind, fn, group string) *cause {
	for _, c := range d.causes {
		if c.kind == kind && c.fn == fn && c.group == group {
			return c
		}
	}
	return nil
}

// allocGroup is what makes two sites of one function one root cause: the
// same mechanism (the same escape cause, or the same library call).
func allocGroup(a *document.Allocation, e document.Escape) string {
	switch e.Cause {
	case "", "unknown", "callee":
		if a.Via != "" {
			return "via " + pkgOf(a.Via)
		}
		return "line " + fmt.Sprint(a.Line)
	case "escapes", "moved-to-heap":
		// Different values escaping are different causes.
		return string(e.Cause) + " " + strings.TrimPrefix(e.Name, "&")
	}
	return string(e.Cause)
}

// pkgOf returns the package part of a function name:
// "strings.(*Builder).Grow" → "strings".
func pkgOf(fn string) string {
	if pkg := document.FuncPackage(fn); pkg != "" {
		return pkg
	}
	return fn
}

// inherent reports whether the allocation is the API's contract: the
// value is returned to the caller (the compiler's flow ends in a return)
// by an exported function, the string a String method returns, or it is
// another package's object made by its constructor.
func inherent(a *document.Allocation, e document.Escape, module string) bool {
	if returned(e) && exported(a.Function) {
		return true
	}
	if stringResult(a, e) {
		return true
	}
	// runtime.CallersFrames, errors.New, …: another package's object.
	if a.Via != "" && (strings.HasPrefix(a.Via, "runtime.") || strings.HasPrefix(a.Via, "errors.")) && e.Cause == "callee" {
		return true
	}
	return false
}

// stringResult reports whether the allocation is the string a String
// method returns: a method named String (fmt.Stringer's String() string)
// whose site's value flows to its result, or is made by the conversion,
// the concatenation or the formatting call that builds a string. Its
// temporaries (a buffer it makes, a map) are not.
func stringResult(a *document.Allocation, e document.Escape) bool {
	fn := document.PlainFunc(a.Function)
	if receiver(fn) == "" || !strings.HasSuffix(shortName(fn), ".String") {
		return false
	}
	switch {
	case returned(e), e.Cause == "conversion", e.Cause == "concat":
		return true
	case e.Cause == "" || e.Cause == "unknown" || e.Cause == "callee":
		for _, p := range []string{"fmt.Sprint", "strconv.", "strings.Join", "strings.Repeat", "strings.(*Builder).String", "bytes.(*Buffer).String"} {
			if strings.HasPrefix(a.Via, p) {
				return true
			}
		}
	}
	return false
}

// returned reports whether the escape flow says the value leaves through
// the function's result.
func returned(e document.Escape) bool { return e.Sink == "return" }

// exported reports whether a full function name is part of the package's
// API: an exported function, or an exported method of an exported type.
func exported(fn string) bool {
	s := shortName(fn)
	if strings.Contains(s, ".func") {
		return false // a closure
	}
	if r := receiver(fn); r != "" {
		name := strings.TrimLeft(r[strings.LastIndexByte(r, '.')+1:], "(*")
		if name == "" || name[0] < 'A' || name[0] > 'Z' {
			return false
		}
	}
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// receiver returns a method's receiver type with its package
// ("example.com/m.(*T)"), or "" for a function.
func receiver(fn string) string {
	fn = document.PlainFunc(fn)
	s := shortName(fn)
	i := strings.LastIndexByte(s, '.')
	if i < 0 || strings.Contains(s, ".func") {
		return ""
	}
	return fn[:len(fn)-len(s)] + s[:i]
}

var resultName = regexp.MustCompile(`~[rR][0-9]+`)

// clean removes compiler-internal names from a message: "~r0" is the
// function's result.
func clean(s string) string {
	return resultName.ReplaceAllString(s, "the result")
}

// siteReason says in plain words why a site allocates, and whether it
// is inside a callee (the callee then says it; what the compiler says of
// the line is evidence).
func siteReason(a *document.Allocation, e document.Escape) (string, bool) {
	if e.Cause == "callee" && e.Name != "" {
		return "allocates inside " + e.Name, true
	}
	if e.Reason != "" {
		return clean(e.Reason), false
	}
	subject := e.Name
	if subject == "" {
		subject = "a value made here"
	}
	switch e.Cause {
	case "moved-to-heap":
		return subject + " is moved to the heap because its address outlives the function", false
	case "interface":
		return subject + " is converted to an interface (boxed) on the heap", false
	case "variable-make":
		return "a make with a size known only at run time", false
	case "append":
		return "append grows the slice: each time its capacity runs out it allocates a larger array and copies", false
	case "concat":
		return "string concatenation allocates a new string", false
	case "conversion":
		return "a string↔[]byte conversion copies into a new allocation", false
	case "map":
		return "the map grows as entries are added and allocates new storage", false
	case "closure":
		return "a func literal escapes, so its closure and captured variables are on the heap", false
	case "escapes":
		return clean(subject) + " escapes to the heap", false
	}
	if a.Via != "" {
		return "the allocation is inside " + a.Via + ", called on this line", false
	}
	return "allocates; no compiler verdict explains it", false
}

// bufferAPIs are calls that already write into a buffer the caller owns:
// their allocations are the buffer's growth, or the callee's own work.
var bufferAPIs = []string{"strconv.Append", "bytes.(*Buffer).", "strings.(*Builder).", "bufio.(*Writer).",
	"fmt.Fprint", "fmt.Append", "encoding/json.(*Encoder).", "encoding/binary.Append", "io.Copy", "append"}

func writesIntoBuffer(via string) bool {
	for _, p := range bufferAPIs {
		if strings.HasPrefix(via, p) {
			return true
		}
	}
	return false
}

// allocFix names the fix that fits a site's cause and code.
func allocFix(a *document.Allocation, e document.Escape, inherent bool) string {
	if inherent {
		if stringResult(a, e) {
			return "inherent to a String method: callers that only write it can use an Append or WriteTo form"
		}
		if a.Via != "" && strings.HasPrefix(a.Via, "runtime.") {
			return fmt.Sprintf("inherent to %s: avoid the call on the hot path (cache its result) rather than its allocation", a.Via)
		}
		return "inherent to the API: the function returns the value it allocates; the fix is an API-level change (an Append-style variant that writes into the caller's buffer, or a value the caller provides)"
	}
	if strings.HasPrefix(a.Via, "fmt.") || e.Cause == "interface" && strings.HasPrefix(e.Into, "fmt.") {
		if strings.HasPrefix(a.Via, "fmt.Fprint") || strings.HasPrefix(a.Via, "fmt.Append") {
			return "format without fmt's reflection: write the parts with strconv.Append* and direct writes to the buffer"
		}
		return "build the text with strconv.Append* into a reused []byte, or a strings.Builder, instead of fmt in the hot path"
	}
	switch e.Cause {
	case "moved-to-heap", "escapes":
		switch {
		case intoResult(e):
			return "the value is stored in what the function returns, so it outlives the call by design: inherent to that representation; only a result holding it by value (fixed fields, or an array of a known size) avoids the separate allocation"
		case e.Sink == "closure":
			return "avoid capturing by reference: pass the value to the func literal as an argument, or use a method on a struct"
		case e.Sink == "call" && e.Into == "append":
			// Appended to a slice the heap holds: kept with it.
			to := "the slice it is appended to"
			if s := appendedTo(e); s != "" {
				to = s
			}
			return fmt.Sprintf("the value is appended to %s, which keeps it: it outlives the call by design, as long as %s does; fewer allocations mean fewer values, or a slice of values instead of pointers (one allocation per growth, not per element)", to, to)
		case e.Sink == "call" && writeMethod(e.Into):
			return "keep the buffer in the enclosing struct and reuse it, or use a fixed-size array field, so it does not escape through the Write call"
		case e.Sink == "call" && staticCallee(e.Into):
			// The compiler saw the callee: its parameter leaks.
			m := e.Into[strings.LastIndex(e.Into, ".")+1:]
			return fmt.Sprintf("the value is passed to %s, which keeps it (the compiler finds its parameter kept beyond the call: %s stores it, or hands it to something that does): it outlives the call by design; fewer allocations here mean fewer values made (update the one already kept when the same key or item comes again), or values held in their keeper's own storage instead of pointers to them", e.Into, m)
		case e.Sink == "interface" || e.Sink == "call":
			return "the value escapes through an interface or indirect call the compiler cannot see through: make the call concrete, or keep one value and reuse it"
		case e.Sink == "return" && a.Function != "":
			return fmt.Sprintf("the value is %s's result, kept by its callers: it outlives the call by design; fewer allocations here mean fewer values made (callers reusing one they own), or a layout that holds them in one allocation with what keeps them", shortName(document.PlainFunc(a.Function)))
		case e.Sink == "heap":
			if to := storedInto(e); to != "" {
				return fmt.Sprintf("the value is stored in %s, which the heap holds: it outlives the call by design; fewer allocations mean a layout that holds it in its owner's own allocation (a fixed-size array field), or fewer owners made", to)
			}
		}
		return "keep the value from outliving the call, or reuse one value across calls instead of allocating one per op"
	case "variable-make":
		if receiver(document.PlainFunc(a.Function)) == "" {
			// A function with no receiver has no struct to keep it in.
			return "use a fixed-size array when n has a small bound (var buf [32]T; s := buf[:0]), or let the caller pass a buffer it reuses"
		}
		return "hoist the buffer into the enclosing struct and reuse it (buf = buf[:0]), or use a fixed-size array when n has a small bound"
	case "append":
		if f := receiverField(a, e); f != "" {
			x, _, _ := strings.Cut(f, ".")
			return fmt.Sprintf("%s is a field of %s, kept with it from call to call: it grows per op when a new %s is made per op, or when it is not reset (%s = %s[:0]) between uses; give it room where %s is made (a capacity, or inline storage: a small array field it starts on)", f, x, x, f, f, x)
		}
		return "preallocate with make([]T, 0, n) when the final length is known, or reuse the slice across calls (s = s[:0])"
	case "concat":
		return "append the parts into a reused []byte, or a strings.Builder with Grow"
	case "conversion":
		return "keep one representation (string or []byte) through the hot path; strconv.Append* for numbers"
	case "interface":
		return "avoid boxing in the hot path: concrete-typed calls instead of interface or ...any arguments"
	case "map":
		if returned(e) {
			// The caller keeps it: no reuse here (getMapFromFormData's
			// matches, returned by QueryMap).
			if mapGrows(a.Alloc) {
				return "the map is the function's result, handed to the caller, so it is not reused here; it grows while it is filled: make it with room for its entries where their number is known before the loop, and leave it where only a second pass over the input would tell (a filter's matches: for small inputs that pass costs what the growth does)"
			}
			return "the map is the function's result, handed to the caller: one per call is what the result costs; where callers want none, a variant that fills a map they pass in"
		}
		if mapGrows(a.Alloc) {
			return "size the map on creation (make(map[K]V, n)): it grows while it is filled; or reuse it with clear(m)"
		}
		return "avoid building a map per op: reuse one with clear(m), or use a slice or struct for a few known keys (a map of up to 8 entries is one allocation, which a size hint does not remove)"
	case "closure":
		return "avoid the escaping closure: pass what it captures as arguments, or call a method"
	}
	if a.Via != "" {
		if writesIntoBuffer(a.Via) {
			return fmt.Sprintf("the allocations are %s's growth of the buffer it writes into: size the buffer once (Grow) before writing; where the function returns the buffer's text, that one allocation is its result, and only a buffer the caller passes in removes it", a.Via)
		}
		return fmt.Sprintf("the allocation is inside %s: "+calleeAllocFix, a.Via)
	}
	return "allocate less here: reuse the value across calls or let the caller provide the memory"
}

// harness reports whether a callee is test support the benchmark handed
// the module (an httptest.ResponseRecorder behind an http.ResponseWriter):
// what it allocates or spends is the benchmark's fixture, which a real
// server's ResponseWriter does not cost.
func harness(callee string) bool {
	for _, p := range []string{"net/http/httptest.", "testing.", "testing/iotest.", "testing/fstest."} {
		if strings.HasPrefix(callee, p) {
			return true
		}
	}
	return false
}

// calleeAllocFix is the fallback for an allocation inside a library
// call: never "cache its result", which is wrong wherever the inputs
// change from call to call, as a request's or a record's do.
const calleeAllocFix = "a form of it that writes into a buffer you keep (an Append or Reset variant), or fewer calls of it"

// viaOnInputs returns the call-on-inputs shape of the call an allocation
// is inside of, when its fix would be the fallback (calleeAllocFix):
// the call works on what its function was given, so there is no result
// to cache.
func (d *deriver) viaOnInputs(a *document.Allocation, e document.Escape, inherent bool) *document.Shape {
	if inherent || a.Via == "" || !strings.HasSuffix(allocFix(a, e, false), calleeAllocFix) {
		return nil
	}
	return d.callShape("call-on-inputs", &document.LineCost{File: a.File, Line: a.Line, Callee: a.Via})
}

// receiverField returns the slice an append grows when it is a field of
// a value the heap holds, in a method ("v.exprs" of the receiver v), or "".
func receiverField(a *document.Allocation, e document.Escape) string {
	if e.Param || e.Sink != "heap" || receiver(document.PlainFunc(a.Function)) == "" {
		return ""
	}
	x, f, ok := strings.Cut(e.Name, ".")
	if !ok || !token.IsIdentifier(x) || !token.IsIdentifier(f) {
		return ""
	}
	return e.Name
}

// appendedTo returns the slice an escaping value is appended to, from the
// compiler's flow ("v.errs" of "from append(v.errs, &T{...}) (call
// parameter)"), or "".
func appendedTo(e document.Escape) string {
	for _, l := range e.Flow {
		rest, ok := strings.CutPrefix(strings.TrimSpace(l), "from append(")
		if !ok {
			continue
		}
		if s, _, ok := strings.Cut(rest, ", "); ok && s != "" && !strings.ContainsAny(s, " ()") {
			return s
		}
	}
	return ""
}

// storedInto returns what the compiler's flow says an escaping value is
// assigned to ("out.items" of "from out.items = make(…) (assign)"), or "".
func storedInto(e document.Escape) string {
	for _, l := range e.Flow {
		l = strings.TrimSpace(l)
		rest, ok := strings.CutPrefix(l, "from ")
		if !ok || !strings.Contains(rest, " (assign) at ") {
			continue
		}
		lhs, _, ok := strings.Cut(rest, " = ")
		if ok && lhs != "" && !strings.ContainsAny(lhs, " ()") {
			return lhs
		}
	}
	return ""
}

// writeMethod reports whether a called expression ("w.Write") is a Write
// method, whose io.Writer contract the compiler cannot see through.
func writeMethod(call string) bool {
	_, m, ok := strings.Cut(call, ".")
	for ok {
		call = m
		_, m, ok = strings.Cut(call, ".")
	}
	return call == "Write" || call == "WriteString" || call == "WriteAt"
}

// regrownFix is the API's words for a result that grows by append with
// no count to size it by before the loop.
func regrownFix(a *document.Allocation, e document.Escape) string {
	name := "the result"
	if e.Name != "" {
		name = e.Name
	}
	return fmt.Sprintf("%s grows by append as %s fills it, with no count known before the loop to size it by: its regrowth is part of building the result the API returns; an Append-style variant (the caller's slice, reused) or an iterator lets the caller avoid it", name, shortName(a.Function))
}

// growsBuffer reports whether via is a write method of a growable buffer.
func growsBuffer(via string) bool {
	for _, p := range []string{"bytes.(*Buffer).", "strings.(*Builder).Write", "strings.(*Builder).grow", "bufio.(*Writer)."} {
		if strings.HasPrefix(via, p) {
			return true
		}
	}
	return false
}

// mapGrows reports whether the runtime function that allocated a map's
// memory is its growth rather than its creation.
func mapGrows(alloc string) bool {
	for _, w := range []string{"grow", "Grow", "rehash", "split", "hashGrow", "evacuate"} {
		if strings.Contains(alloc, w) {
			return true
		}
	}
	return false
}

// siteMechs records the mechanisms of an allocation site: the compiler's
// reason, where the value goes, the package it is allocated in, what the
// runtime did (grow a slice, a map).
func (c *cause) siteMechs(a *document.Allocation, e document.Escape) {
	c.mech(string(e.Cause))
	c.mech(e.Sink)
	if a.Via != "" {
		c.mech(pkgOf(a.Via))
	}
	switch {
	case strings.HasSuffix(a.Alloc, "growslice"):
		c.mech("growslice")
	case mapGrows(a.Alloc):
		c.mech("map")
	}
}

// allocCPUCauses finds a run's allocation that its heap profile misses.
// A heap profile written without a final collection (-finalgc auto when
// the collection would cost much, -finalgc off) holds only the cycles the
// runtime completed: a phase that allocates at the end of the run (an
// interpreter's results after the input's decoding) is in no site of it.
// The CPU profile covers the whole run: the time of the runtime's
// allocator and collector under a module line that calls it (the time
// the CPU rules leave to the allocation causes) is allocation at that
// line. A function's such lines that the heap profile does not name are
// one cause when together they reach SiteMin of the run's allocator time
// (category memory), as a heap site needs SiteMin of the bytes: the
// allocator's work is the run's allocations', while the collector's is
// mostly its own workers' marking, under no line; it joins the
// function's cause from the heap profile when there is one.
func (d *deriver) allocCPUCauses(b *bench) {
	if !d.heapPartial(b) {
		return
	}
	named := map[string]bool{}
	for _, a := range b.allocs {
		named[where(a.File, a.Line)] = true
	}
	type fnLines struct {
		lines   []*document.LineCost
		alloc   []float64 // each line's allocation share
		share   float64
		callees []string
	}
	byFn := map[string]*fnLines{}
	var fns []string
	for _, l := range b.lines {
		share := l.Alloc
		if share == 0 && (l.Category == document.CategoryMemory || l.Category == document.CategoryGC) {
			share = l.Self // a document from before line costs had Alloc
		}
		if share <= 0 || !isRuntime(l.Callee) ||
			l.InTest || strings.HasSuffix(l.File, "_test.go") || !d.isModule(l.Function) || named[where(l.File, l.Line)] {
			continue
		}
		fn := outer(document.PlainFunc(l.Function))
		f := byFn[fn]
		if f == nil {
			f = &fnLines{}
			byFn[fn] = f
			fns = append(fns, fn)
		}
		f.lines = append(f.lines, l)
		f.alloc = append(f.alloc, share)
		f.share += share
		if !slices.Contains(f.callees, l.Callee) {
			f.callees = append(f.callees, l.Callee)
		}
	}
	for _, fn := range fns {
		f := byFn[fn]
		if f.share < d.t.SiteMin*b.cats["memory"] {
			continue
		}
		// The costliest line first: it names the cause.
		byLine := map[string]float64{}
		for i, l := range f.lines {
			byLine[where(l.File, l.Line)] += f.alloc[i]
		}
		first, callee := f.lines[0], f.lines[0].Callee
		for _, l := range f.lines[1:] {
			if byLine[where(l.File, l.Line)] > byLine[where(first.File, first.Line)] {
				first = l
			}
		}
		// Its advice is the one for its costliest call into the runtime.
		top := -1.0
		for i, l := range f.lines {
			if where(l.File, l.Line) == where(first.File, first.Line) && f.alloc[i] > top {
				top, callee = f.alloc[i], l.Callee
			}
		}
		c := d.find(document.KindAlloc, fn, "allocations")
		if c == nil {
			c = d.newCause(document.KindAlloc, "allocations", fn, first.File, first.Line)
			c.rule = document.RuleAllocCPU
			c.message = fmt.Sprintf("%s: %s of the run's CPU is allocation at %s (%s), which the heap profile does not name: it misses the run's last collection cycles, so the bytes allocated here are not known",
				shortName(fn), pctTenth(f.share), linesText(first, f.lines), strings.Join(f.callees, ", "))
			c.suggestion, c.generic = cpuAllocFix(callee)+"; -finalgc on writes the heap profile of the whole run, with the bytes allocated here", true
			d.causes = append(d.causes, c)
		}
		c.addLine(first.File, first.Line, first.Function, "")
		for i, l := range f.lines {
			c.addLine(l.File, l.Line, l.Function, fmt.Sprintf("allocation under %s: %s of CPU in %s", l.Callee, pctTenth(f.alloc[i]), b.name()))
			c.weigh(l.File, l.Line, f.alloc[i])
			switch {
			case strings.HasSuffix(l.Callee, "growslice"):
				c.mech("growslice")
			case mapGrows(l.Callee) || strings.HasPrefix(l.Callee, "runtime.mapassign") || strings.HasPrefix(l.Callee, "internal/runtime/maps."):
				c.mech("map")
			}
		}
		cs := c.cost(b)
		cs.CPUShare = min(1, cs.CPUShare+f.share)
		c.addEvidence(fmt.Sprintf("CPU profile of the whole run: the allocator and the collector under %s take %s of the CPU of %s (%s); the heap profile holds only the completed collection cycles and names none of these lines",
			linesText(first, f.lines), pctTenth(f.share), b.name(), strings.Join(f.callees, ", ")))
	}
}

// heapPartial reports whether b is a program's run whose heap profile is
// partial (document.RunVariant.HeapPartial).
func (d *deriver) heapPartial(b *bench) bool {
	if d.doc.Op != document.OpRun || d.doc.Run == nil {
		return false
	}
	for _, v := range d.doc.Run.Variants {
		if v.Name == b.entry.Name {
			return v.HeapPartial()
		}
	}
	return false
}

// linesText names a cause's lines, first the one that names it:
// "x.go:76", "x.go:76 and 1 more line".
func linesText(first *document.LineCost, lines []*document.LineCost) string {
	seen := map[string]bool{}
	for _, l := range lines {
		seen[where(l.File, l.Line)] = true
	}
	s := where(first.File, first.Line)
	if n := len(seen) - 1; n > 0 {
		s += fmt.Sprintf(" and %d more line%s", n, plural(n))
	}
	return s
}

// pctTenth formats a share with one decimal: "2.8%".
func pctTenth(x float64) string {
	return strconv.FormatFloat(100*x, 'f', 1, 64) + "%"
}

// cpuAllocFix is the advice for an allocation known by the runtime
// function a line calls into, as allocFix gives it for a heap site of the
// same kind.
func cpuAllocFix(callee string) string {
	a := &document.Allocation{Alloc: callee}
	var e document.Escape
	switch {
	case strings.HasSuffix(callee, "growslice"):
		e.Cause = "append"
	case strings.HasPrefix(callee, "runtime.convT"):
		e.Cause = "interface"
	case strings.HasPrefix(callee, "runtime.makemap"), strings.HasPrefix(callee, "runtime.mapassign"), strings.HasPrefix(callee, "internal/runtime/maps."):
		// Whether the map grows or is made anew the CPU profile does
		// not say: the advice for a map made per run.
		e.Cause = "map"
	case strings.HasPrefix(callee, "runtime.makeslice"):
		e.Cause = "variable-make"
	case strings.HasPrefix(callee, "runtime.concatstring"):
		e.Cause = "concat"
	case strings.HasPrefix(callee, "runtime.slicebytetostring"), strings.HasPrefix(callee, "runtime.stringtoslice"):
		e.Cause = "conversion"
	case strings.HasPrefix(callee, "runtime.newobject"):
		e.Cause = "moved-to-heap"
	}
	return allocFix(a, e, false)
}

// shapedSite reports whether a shape of code at an allocation's line
// names a change there and explains the allocation: such a site is a
// candidate from ShapedSiteMin, as an expert reading the line would count
// it (a copy made on every call for a branch that rarely needs it is one
// of a sub-benchmark's two allocations, a few percent of its parent's).
func (d *deriver) shapedSite(a *document.Allocation) bool {
	e := document.Escape{}
	if a.Escape != nil {
		e = *a.Escape
	}
	return d.changeShapeAt(a.File, a.Line) && d.explainedAt(a, e)
}

// explainedAt reports whether a shape of code at an allocation's line (or
// at a related line of a shape that speaks there, see atRelated)
// explains the allocation.
func (d *deriver) explainedAt(a *document.Allocation, e document.Escape) bool {
	if d.shapeLines == nil {
		d.shapeLines = shapesAt(d.doc)
	}
	c := &cause{}
	c.siteMechs(a, e)
	for _, s := range d.shapeLines[where(a.File, a.Line)] {
		if c.explainedBy(s.Name) {
			return true
		}
	}
	return false
}

// staticCallee reports whether the compiler's name for a call a value is
// passed to is a method it resolved: "(*Tree).insert", "CharSet.fill".
// "e.Read", "json.Unmarshal" or "opt" may be an interface method, a
// function or a func value: the words do not tell.
func staticCallee(into string) bool {
	if strings.HasPrefix(into, "(") {
		return strings.Contains(into, ").") && !strings.HasPrefix(into, "(func(")
	}
	recv, _, ok := strings.Cut(into, ".")
	return ok && !strings.Contains(into[len(recv)+1:], ".") && recv != "" && recv[0] >= 'A' && recv[0] <= 'Z'
}

// decoderName reports whether fn's name says it decodes into what it is
// given or returns: Unmarshal…, Decode… (UnmarshalMsg, DecodeMsg,
// UnmarshalJSON).
func decoderName(fn string) bool {
	name := shortName(fn)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return strings.HasPrefix(name, "Unmarshal") || strings.HasPrefix(name, "Decode")
}
