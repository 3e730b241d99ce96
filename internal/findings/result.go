package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// shapeAt returns the shape named name at file:line, or nil.
func (d *deriver) shapeAt(name, file string, line int64) *document.Shape {
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name == name && s.File == file && s.Line == line {
			return s
		}
	}
	return nil
}

// changeShapeAt reports whether a shape at file:line names a change to
// make there (one with advice that is not its function's own work).
func (d *deriver) changeShapeAt(file string, line int64) bool {
	for _, s := range d.doc.Shapes {
		if s.File == file && s.Line == line && s.Advice != "" && !s.OwnWork && !apiShapes[s.Name] {
			return true
		}
	}
	return false
}

// shapeOn returns the shape named name at file:line or with line among
// its related lines (a map made at one line, filled at others), or nil.
func (d *deriver) shapeOn(name, file string, line int64) *document.Shape {
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name == name && s.File == file && slices.Contains(s.Lines(), line) {
			return s
		}
	}
	return nil
}

// forwarded returns the result-forwarded shape of fn (an exported
// function returns its result), or nil.
func (d *deriver) forwarded(fn string) *document.Shape {
	fn = outer(document.PlainFunc(fn))
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name == "result-forwarded" && outer(document.PlainFunc(s.Function)) == fn {
			return s
		}
	}
	return nil
}

// apiResult reports whether what fn returns is what the package's API
// hands its caller: fn is exported, or an exported function returns its
// result (a result-forwarded shape).
func (d *deriver) apiResult(fn string) bool {
	return exported(outer(document.PlainFunc(fn))) || exportedMethod(fn) || d.forwarded(fn) != nil
}

// resultOfAPI reports whether a site allocates what the API returns: its
// value leaves through the result of a function whose result the API
// returns, or its line computes that result (a result-computed shape: the
// Int a Sub computes into, the entries of a sized map it returns).
func (d *deriver) resultOfAPI(a *document.Allocation, e document.Escape) bool {
	if !d.apiResult(a.Function) || d.rewriteAt(a.File, a.Line) || d.chainStep(a.File, a.Line) || d.avoidable(a) {
		return false
	}
	return returned(e) || d.shapeAt("result-computed", a.File, a.Line) != nil || d.inputConversion(a)
}

// inputConversion reports whether a site is the conversion of a string the
// exported function is given into runes or bytes (an input-converted shape
// at a conversion's allocation): the API's string, the algorithm's runes.
func (d *deriver) inputConversion(a *document.Allocation) bool {
	if d.shapeAt("input-converted", a.File, a.Line) == nil {
		return false
	}
	return a.Escape != nil && a.Escape.Cause == document.EscapeConversion || anyIn(a.Alloc+" "+a.Via, "stringtoslicerune", "stringtoslicebyte", "rawruneslice", "rawbyteslice")
}

// avoidable reports whether the code at an allocation's line says the
// value, though the function returns it, need not be allocated there: a
// step of a chain of copies, a growth past a capacity one short, an
// error whose text never changes, a map sized for a bound it rarely
// reaches, a slice boxed to go back into a pool.
func (d *deriver) avoidable(a *document.Allocation) bool {
	return d.chainStep(a.File, a.Line) || d.shapeAt("cap-short", a.File, a.Line) != nil || d.shapeAt("error-constant", a.File, a.Line) != nil || d.shapeAt("deref-copied", a.File, a.Line) != nil || d.shapeAt("options-applied", a.File, a.Line) != nil ||
		d.shapeAt("map-sized-by-bound", a.File, a.Line) != nil || d.shapeAt("copied-fresh", a.File, a.Line) != nil || d.shapeAt("pool-put-boxed", a.File, a.Line) != nil
}

// chainStep reports whether file:line is a step of a copy-chain shape: a
// string reassigned through calls that each make a new one, of which
// only the last is what the function returns; the others are copies
// along the way, not the API's cost.
func (d *deriver) chainStep(file string, line int64) bool {
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name == "copy-chain" && s.File == file && slices.Contains(s.Lines(), line) {
			return true
		}
	}
	return false
}

// rewriteAt reports whether a shape at file:line has a mechanical rewrite
// (perfloop fix's): the value the line computes may be the API's, but a
// cheaper way to compute it is there (fmt.Sprintf("%d", id) returned is
// strconv.Itoa(id)), so its cost is a fix, not the API's.
func (d *deriver) rewriteAt(file string, line int64) bool {
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Rewrite != "" && s.File == file && s.Line == line {
			return true
		}
	}
	return false
}

// resultAdvice is the advice for an allocation of what the API returns,
// from the shapes that say so; "" when they say nothing more than
// allocFix does.
func (d *deriver) resultAdvice(a *document.Allocation) (string, *document.Shape) {
	if s := d.shapeAt("boxed-for-api", a.File, a.Line); s != nil {
		return s.Says + ": " + s.Advice, s
	}
	if s := d.shapeAt("args-formatted", a.File, a.Line); s != nil {
		// A Sprint-style API formatting its caller's ...any values.
		return s.Says + ": " + s.Advice, s
	}
	if s := d.shapeAt("conversion-for-api", a.File, a.Line); s != nil {
		// Bytes converted for another package's API taking a string
		// (a logger's message).
		return s.Says + ": " + s.Advice, s
	}
	if s := d.shapeOn("map-handed", a.File, a.Line); s != nil {
		// The map the API hands its user's callback (a request
		// logger's values), whatever function fills it.
		return s.Says + ": " + s.Advice, s
	}
	if s := d.shapeOn("args-for-func-value", a.File, a.Line); s != nil {
		// The arguments a signature takes through a func value.
		return s.Says + ": " + s.Advice, s
	}
	if s := d.shapeAt("result-computed", a.File, a.Line); s != nil && strings.Contains(s.Says, "made with its size") {
		return s.Says + ": a cost of the API — the map is sized once from the input's count and the caller keeps it, so neither a hint nor reuse removes it", s
	}
	if exported(outer(document.PlainFunc(a.Function))) {
		return "", nil
	}
	if s := d.forwarded(a.Function); s != nil {
		return s.Says + ": inherent to the API, which returns the value allocated here; the fix is an API-level change (a variant that writes into a value the caller provides)", s
	}
	return "", nil
}

// passesResult reports whether the module function p's call of the
// cause's function hands the result on to p's caller (a result-passed
// shape at the call's line) and p's result is the API's (p is exported,
// an exported function returns its result, or p stores it through a
// pointer parameter its caller gave): the value is still what
// the API returns, not p's choice. An unexported p whose result no
// exported function returns (a parser's addChild returning the node it
// made with NewNode and linked into the tree) chooses to make it: the
// cause is to fix there.
func (d *deriver) passesResult(c *cause, p string) bool {
	at, ok := c.parentAt[p]
	if !ok || at.Line <= 0 {
		return false
	}
	s := d.shapeAt("result-passed", at.File, at.Line)
	if s == nil || d.shapeAt("built-unless-used", at.File, at.Line) != nil {
		// A part of the value it returns that it builds whether or not
		// it is ever read (a renderer made for a flag that is off): its
		// own choice, not what the API asks for.
		return false
	}
	// Stored through a pointer parameter: its caller's value (a
	// decoder's Decode(v)).
	return strings.Contains(s.Says, "through its pointer parameter") || d.apiResult(p)
}

// exportedMethod reports whether fn is a method with an exported name,
// whatever its receiver: a method of an unexported type behind an
// exported interface (a thread-safe set's Difference wrapping the
// unsynchronized set's) is how the API is called.
func exportedMethod(fn string) bool {
	if receiver(fn) == "" {
		return false
	}
	s := shortName(outer(document.PlainFunc(fn)))
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// computesResult reports whether a call line's library call computes the
// value its function returns and that value is the API's result (a
// result-computed shape at the line, in a function whose result the API
// returns): the arithmetic of a Sub, the store into the sized map a
// decoder returns, and a strconv call converting the function's own
// parameter (an input-converted shape: a float-to-decimal constructor's
// formatting), and the store into a map every caller fills from an
// exported field (a map-handed shape). Only calls whose advice would otherwise be the
// category's ("call it less: cache its result", "fewer lookups",
// "convert once").
func (d *deriver) computesResult(l *document.LineCost, cat string) *document.Shape {
	if d.rewriteAt(l.File, l.Line) || d.chainStep(l.File, l.Line) {
		return nil
	}
	if s := d.shapeAt("boxed-for-api", l.File, l.Line); s != nil && strings.HasPrefix(pkgFunc(l.Callee), "reflect.") {
		// reflect's Interface boxing an element for an exported
		// function that takes any: that function's signature.
		return s
	}
	if strings.HasPrefix(l.Callee, "runtime.mapassign") {
		if s := d.shapeAt("map-handed", l.File, l.Line); s != nil {
			// An entry of the map the API hands its user (a
			// router's match.Vars), whatever function fills it.
			return s
		}
	}
	if s := d.shapeOn("grown-to-request", l.File, l.Line); s != nil {
		// A grow's copy of the old contents: what the size the
		// caller asks for costs.
		return s
	}
	if !d.apiResult(l.Function) {
		return nil
	}
	switch {
	case anyIn(l.Callee, "runtime.stringtoslicerune", "runtime.stringtoslicebyte", "runtime.encoderune", "runtime.countrunes", "runtime.rawruneslice", "runtime.rawbyteslice"):
		// []rune(text) of the string the exported function is given
		// (an input-converted shape): the API takes strings.
		return d.shapeAt("input-converted", l.File, l.Line)
	case strings.HasPrefix(pkgFunc(l.Callee), "strconv."): // strconv, internal/strconv
		// The conversion of its own input (an input-converted shape),
		// or the text it returns (strconv.Itoa(n) in a String).
		if s := d.shapeAt("input-converted", l.File, l.Line); s != nil {
			return s
		}
		return d.shapeAt("result-computed", l.File, l.Line)
	case strings.HasPrefix(pkgFunc(l.Callee), "strings.Repeat"):
		// The padding a returned concatenation is built from.
		return d.shapeAt("result-computed", l.File, l.Line)
	case cat == "other" || calleeCategory(l.Callee) == "other" || strings.HasPrefix(l.Callee, "runtime.mapassign"):
		// A call of a package with no category of its own
		// (math/big's SetString), whatever the profile files its
		// time below under (the digits it scans).
		return d.shapeAt("result-computed", l.File, l.Line)
	}
	return nil
}

// resultCause is the API cost of fn's calls that compute what it returns
// (see computesResult): the operation itself, in "Costs of the API".
func (d *deriver) resultCause(l *document.LineCost, s *document.Shape) *cause {
	fn := outer(document.PlainFunc(l.Function))
	if c := d.find(document.KindCPU, fn, "result"); c != nil {
		return c
	}
	c := d.newCause(document.KindCPU, "result", fn, l.File, l.Line)
	c.rule = document.RuleCPUCall
	c.section = document.SectionAPI
	c.inherent = true
	c.message = fmt.Sprintf("%s: %s (computing the value it returns)", shortName(fn), pkgFunc(l.Callee))
	c.shape = s
	c.suggestion = s.Says + ": the operation itself, what the caller asks for — a cost of the API, which caching or calling less does not remove"
	if s.Name == "clock-carried" || s.Name == "random-carried" || s.Name == "value-generated" {
		c.message = fmt.Sprintf("%s: %s (what the value it returns carries)", shortName(fn), pkgFunc(l.Callee))
		c.suggestion = s.Says + ": " + s.Advice
	}
	if s.Name == "grown-to-request" {
		c.message = fmt.Sprintf("%s: %s (growing to the size its caller asks for)", shortName(fn), pkgFunc(l.Callee))
		c.suggestion = s.Says + ": " + s.Advice
	}
	if s.Name == "input-converted" {
		c.message = fmt.Sprintf("%s: %s (converting what it is given)", shortName(fn), pkgFunc(l.Callee))
		c.suggestion = s.Says + ": " + s.Advice
	}
	if s.Name == "boxed-for-api" {
		c.message = fmt.Sprintf("%s: %s (boxing each value for an exported function's any)", shortName(fn), pkgFunc(l.Callee))
		c.suggestion = s.Says + ": " + s.Advice
	}
	d.causes = append(d.causes, c)
	return c
}

// carriedAt returns the clock-carried or random-carried shape at a call
// line whose callee fits it (time.Now; a read that reaches the system's
// randomness), or nil.
func (d *deriver) carriedAt(l *document.LineCost) *document.Shape {
	if s := d.shapeAt("clock-carried", l.File, l.Line); s != nil && strings.HasPrefix(pkgFunc(l.Callee), "time.") {
		return s
	}
	if s := d.shapeAt("random-carried", l.File, l.Line); s != nil && (strings.HasPrefix(pkgFunc(l.Callee), "io.") || strings.HasPrefix(pkgFunc(l.Callee), "crypto/")) {
		return s
	}
	if s := d.shapeAt("value-generated", l.File, l.Line); s != nil && !d.isModule(l.Callee) {
		return s
	}
	return nil
}

// helperResult reports whether a site of a function whose result the API
// does not return allocates that result: a helper (newValue returning
// reflect.New(t)) whose value is its caller's to keep or not.
func (d *deriver) helperResult(a *document.Allocation, e document.Escape) bool {
	if d.apiResult(a.Function) || grows(a, e) {
		return false
	}
	return d.shapeAt("result-computed", a.File, a.Line) != nil
}

// fillsSizedMap reports whether a line's map assignment stores into a map
// the function returns or fills for its caller, made with its size (a
// result-computed shape that says so): each store is an entry of the
// result, so "fewer lookups" does not fit it.
func (d *deriver) fillsSizedMap(l *document.LineCost) bool {
	if !strings.HasPrefix(l.Callee, "runtime.mapassign") {
		return false
	}
	s := d.shapeAt("result-computed", l.File, l.Line)
	return s != nil && strings.Contains(s.Says, "made with its size")
}

// madePerIteration returns the made-per-iteration shape of a loop that
// calls one of fns for a new value on every iteration (the function that
// makes it is the shape's related "makes the value" line), or nil.
func (d *deriver) madePerIteration(fns ...string) *document.Shape {
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name != "made-per-iteration" {
			continue
		}
		for _, r := range s.Related {
			if r.Note != "makes the value" {
				continue // the loop's own function
			}
			for _, fn := range fns {
				if fn != "" && r.Function != "" && document.PlainFunc(r.Function) == outer(document.PlainFunc(fn)) {
					return s
				}
			}
		}
	}
	return nil
}
