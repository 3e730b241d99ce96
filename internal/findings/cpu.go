package findings

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/perfloop/perfloop/internal/document"
)

// what a CPU category means at the line that calls into it, and the fix
// that usually fits.
var cpuWords = map[string][2]string{
	"sort":        {"sorting", "sort once and keep the order (or keep the data sorted as it is built); sort fewer elements, or skip the sort where order does not matter"},
	"fmt":         {"fmt formatting", "build the text with strconv.Append* into a reused []byte or a strings.Builder instead of fmt"},
	"reflect":     {"reflection", "reflect once and cache what it finds (per type), or use typed code: a type switch on the common dynamic types before reflecting, reflection only for the rest"},
	"regexp":      {"regular expressions", "compile once (a package-level regexp.MustCompile), or replace the pattern with strings functions"},
	"maps":        {"map access", "fewer lookups (look up once and keep the value), a struct key instead of a built string, or a slice indexed by a small dense key"},
	"strings":     {"string building and copying", "reuse buffers: append into a reused []byte or a strings.Builder with Grow; avoid converting back and forth"},
	"encoding":    {"encoding and decoding", "the library or the format decides: a code-generated or hand-written encoder, a binary format, or encode less"},
	"compression": {"compression", "the library or the level decides: compare implementations and levels, or compress less"},
	"crypto":      {"hashing and cryptography", "the algorithm and its key decide (a signature, a key parsed, a hash are the call's whole work): a cheaper algorithm or key size only where security allows; hash once and keep the sum where the same bytes are hashed again"},
	"syscall":     {"system calls", "buffer the I/O (bufio), batch writes, or read larger blocks"},
	"other":       {"library code", "call it less: keep its result where the same input recurs, or do the work once per input"},
	"application": {"the module's own code", "the algorithm itself: look at the lines with go tool pprof -list before tuning"},
}

// tlsFix is the fix of the time under a TLS connection's Read or Write.
const tlsFix = "the connection is TLS — the transport the caller chose (a benchmark's fixture, often): each record is sealed as a whole (its encryption, its MAC, its header), the transport's work, not this line's: fewer, larger writes make fewer records; at the read, nothing to change"

// isRuntime reports whether callee is the runtime's (its allocator, the
// write barrier): time below such a call is the allocation causes'.
func isRuntime(callee string) bool {
	return strings.HasPrefix(callee, "runtime.") || strings.HasPrefix(callee, "internal/runtime/") || callee == "gcWriteBarrier"
}

// calleePackages give a library callee's category by its package, for a
// line whose samples below are mostly the collector's.
var calleePackages = []struct{ prefix, cat string }{
	{"encoding/", "encoding"}, {"compress/", "compression"}, {"crypto/", "crypto"}, {"hash/", "crypto"},
	{"sort.", "sort"}, {"slices.Sort", "sort"}, {"fmt.", "fmt"}, {"regexp.", "regexp"}, {"reflect.", "reflect"},
	{"strconv.", "strings"}, {"strings.", "strings"}, {"bytes.", "strings"}, {"unicode/", "strings"},
	{"syscall.", "syscall"}, {"os.", "syscall"}, {"io.", "syscall"}, {"bufio.", "syscall"},
}

// calleeCategory is the category of a library callee by its package
// ("other" when none fits).
func calleeCategory(callee string) string {
	for _, p := range calleePackages {
		if strings.HasPrefix(callee, p.prefix) {
			return p.cat
		}
	}
	return "other"
}

// drivers are callees that call the module back once per item they
// visit: the time below them is the callbacks' work (a formatter's whole
// run under filepath.WalkDir), which the callbacks' own lines carry.
var drivers = []string{"path/filepath.WalkDir", "path/filepath.Walk", "io/fs.WalkDir", "sync.(*Once).Do", "sync.(*Once).doSlow"}

func isDriver(callee string) bool { return slices.Contains(drivers, callee) }

// stackWalks are callees whose cost is walking the goroutine's stack.
var stackWalks = []string{"runtime.Callers", "runtime.callers", "runtime.CallersFrames", "runtime.Caller", "runtime.(*Frames).Next", "runtime.FuncForPC", "runtime/debug.Stack"}

// lineCat is one module line's cost in one category, summed over the
// callees the profile names for it (a tail-calling assembly routine shows
// up under two names).
type lineCat struct {
	first     *document.LineCost // the costliest entry
	cum, self float64
}

// part is one component of a function's CPU cause: a kind of work at some
// of its lines (a call, its own code, not being inlined), with its share
// per benchmark.
type part struct {
	kind partKind
	// callee is the library function a call part names ("sort.Search");
	// what and fix are its words.
	callee, what, fix string
	// specific is set when fix comes from the code at the part's line
	// (a shape), not from its category; ownWork when that code is the
	// function's own work on its inputs, with no change to name.
	specific, ownWork bool
	// inline marks a call part whose callee, another module's function,
	// the compiler does not inline: the part's change is the call's.
	inline bool
	// joins marks a call part whose change is the same wherever the
	// callee is called so (a dependency's function not inlined, a
	// measure taken only to compare it): the causes it leads in several
	// functions are one (see merge). shape is the shape its words are.
	joins bool
	shape *document.Shape
	// floor is set on an own-code part whose costliest lines are a loop
	// at its floor (a scan at one table lookup per byte): nothing to
	// gain.
	floor bool
	share map[string]float64 // by bench key
}

// most is the part's largest share in any benchmark.
func (p *part) most() float64 {
	m := 0.0
	for _, v := range p.share {
		m = max(m, v)
	}
	return m
}

// partKind is what a part of a function's CPU is.
type partKind uint8

const (
	partCall       partKind = iota // a library call its lines make
	partOwn                        // its own code: the lines that call nothing
	partNotInlined                 // the compiler does not inline it
	partSpread                     // calls at several lines, none CPUMin alone
)

// rule is the rule a cause whose largest part is p fired.
func (p *part) rule() document.Rule {
	if p.inline {
		return document.RuleCPUNotInlined
	}
	switch p.kind {
	case partOwn:
		return document.RuleCPUOwnCode
	case partNotInlined:
		return document.RuleCPUNotInlined
	case partSpread:
		return document.RuleCPUSpread
	}
	return document.RuleCPUCall
}

// hotFunc returns the CPU cause of function fn (closures belong to the
// function they are in), creating it at file:line.
func (d *deriver) hotFunc(fn, file string, line int64) *cause {
	fn = outer(document.PlainFunc(fn))
	if c := d.find(document.KindCPU, fn, "function"); c != nil {
		return c
	}
	c := d.newCause(document.KindCPU, "function", fn, file, line)
	d.causes = append(d.causes, c)
	return c
}

// addPart adds share of benchmark b to c's part of that kind (and, for a
// call, that callee).
func (c *cause) addPart(b *bench, np part, share float64) {
	c.cost(b)
	for _, p := range c.parts {
		if p.kind != np.kind {
			continue
		}
		if p.kind == partOwn && np.fix != p.fix && share > slices.Max(slices.Collect(maps.Values(p.share))) {
			// Its own lines where they cost most.
			p.fix = np.fix
		}
		if p.kind == partCall && p.callee != np.callee && p.what != np.what {
			// Calls of one kind of work (two readers' ReadByte,
			// each "reading through an io.Reader") are one part,
			// named with both callees.
			kind, _, ok := strings.Cut(p.what, " (")
			nkind, _, nok := strings.Cut(np.what, " (")
			if !ok || !nok || kind != nkind {
				continue
			}
			if short := pkgFunc(np.callee); !strings.Contains(p.what, short) {
				p.what = strings.TrimSuffix(p.what, ")") + ", " + short + ")"
			}
		}
		if np.kind == partCall && p.callee == np.callee && np.inline && !p.inline {
			// The call's change, named at one of its lines, is
			// the part's.
			p.fix, p.specific, p.ownWork, p.inline, p.joins = np.fix, true, false, true, true
		}
		p.share[b.key] = min(1, p.share[b.key]+share)
		return
	}
	np.share = map[string]float64{b.key: share}
	c.parts = append(c.parts, &np)
}

// outer drops a closure's suffix: "m.find.func1" → "m.find".
func outer(fn string) string {
	fn = document.SourceFunc(fn)
	for {
		i := strings.LastIndex(fn, ".func")
		if i < 0 || !isDigits(fn[i+len(".func"):]) {
			return fn
		}
		if strings.HasSuffix(fn[:i], ".init") && !strings.Contains(fn[:i], ".init.func") {
			// A func literal of a package-level var ("m.init.func97",
			// one builtin of a table): a function of its own, not
			// the package's initialization.
			return fn
		}
		fn = fn[:i]
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cpuCauses finds the CPU causes of one benchmark: per function of the
// module, the library calls its lines make (sort, fmt, a stack walk, …),
// its own code, and whether the compiler inlines it.
func (d *deriver) cpuCauses(b *bench) {
	if d.offCPU(b) {
		// It waits: its profile saw a few samples of the time it
		// ran, which say nothing of what its ns/op is spent on.
		return
	}
	d.measuredInputs(b)
	var order []string
	byKey := map[string]*lineCat{}
	for _, l := range b.lines {
		if l.InTest || !d.isModule(l.Function) {
			continue
		}
		cat := string(l.Category)
		if l.Callee == "" {
			cat = ""
		} else if isStackWalk(l.Callee) {
			cat = "stack walk"
		}
		k := fmt.Sprintf("%s:%d %s", l.File, l.Line, cat)
		lc := byKey[k]
		if lc == nil {
			lc = &lineCat{first: l}
			byKey[k] = lc
			order = append(order, k)
		}
		cum := l.Cum
		if isDriver(l.Callee) || calleeCategory(l.Callee) == "other" && l.Self < d.t.DriverSelf*l.Cum {
			// The callbacks are the module's work, at their own
			// lines: the call costs its own time. (A sort's
			// comparisons, an encoder's work below it, stay its
			// cost: they are what it is called for.)
			cum = l.Self
		}
		lc.cum += cum
		lc.self += l.Self
	}
	var small []*lineCat // calls below CPUMin: see spreadCauses
	for _, k := range order {
		lc := byKey[k]
		l := lc.first
		cat := string(l.Category)
		if (cat == "memory" || cat == "gc") && !isRuntime(l.Callee) && calleeCategory(l.Callee) != "syscall" {
			// A library call whose time below is mostly allocation
			// and collection (a decoder, a sort with a comparison
			// that allocates) is still that call's cost; an I/O call
			// whose time is copying into memory (a bufio.Writer
			// flushing into a bytes.Buffer) made no system call.
			cat = calleeCategory(l.Callee)
		}
		if isChanOp(l.Callee) {
			// The module's own channel sends and receives: a cost at
			// its lines, not the scheduler's.
			cat = "channel"
		}
		if cc := calleeCategory(l.Callee); spreadKinds[cc] == document.KindLibrary {
			// An encoder, a compressor or a hash is its library's
			// cost, whatever its time below is spent on (encoding/json
			// sorts a map's keys): the library or the format decides.
			cat = cc
		}
		switch {
		case l.Callee == "":
			continue // a line's own code: see ownCode
		case harness(l.Callee):
			continue // the benchmark's test support behind an interface: its fixture
		case cat == "memory" || cat == "gc":
			continue // the allocation causes' time
		case cat == "scheduler" && !b.entry.Parallel:
			continue
		case lc.cum < d.t.CPUMin:
			small = append(small, lc)
			continue
		}
		what, fix, wordsSpecific := lineWords(l, cat)
		fix = d.fixIn(fix)
		callee := pkgFunc(l.Callee)
		var c *cause
		kindCat := cat
		if cat == "scheduler" && d.cores[b.key] != nil {
			// Measured at several core counts: the scaling rules
			// judge contention; the call is a cost like any other.
			kindCat = ""
		}
		carried := d.carriedAt(l)
		if carried != nil {
			kindCat = "carried"
		}
		if spreadKinds[cat] == document.KindLibrary && d.wholeJob(b, lc) {
			// An encoder's or a hash's call the function returns
			// (return base64.RawURLEncoding.EncodeToString(seg)): the
			// function is the call, its cost its callers' use of it.
			continue
		}
		var apiShape *document.Shape
		if cat == "encoding" {
			if apiShape = d.shapeAt("json-map-api", l.File, l.Line); apiShape != nil {
				kindCat = "api"
			}
		}
		switch kindCat {
		case "api":
			// Decoding into a map the API exposes (a token's Header):
			// the boxing is the field's type's, a cost of the API.
			c = d.resultCause(l, apiShape)
			c.message = fmt.Sprintf("%s: %s (decoding into a map the API exposes)", shortName(outer(document.PlainFunc(l.Function))), pkgFunc(l.Callee))
			c.suggestion = apiShape.Says + ": " + apiShape.Advice
			c.cost(b).CPUShare = min(1, c.cost(b).CPUShare+lc.cum)
		case "carried":
			// A clock read or random bytes the value the function
			// returns carries: the API's cost.
			c = d.resultCause(l, carried)
			c.cost(b).CPUShare = min(1, c.cost(b).CPUShare+lc.cum)
		case "encoding", "compression", "crypto", "syscall", "scheduler":
			// The library, the I/O or the scheduler decides: a kind of
			// its own.
			kind := map[string]document.Kind{"encoding": document.KindLibrary, "compression": document.KindLibrary, "crypto": document.KindLibrary,
				"syscall": document.KindIO, "scheduler": document.KindContention}[cat]
			c = d.find(kind, document.PlainFunc(l.Function), cat)
			if c == nil {
				c = d.newCause(kind, cat, document.PlainFunc(l.Function), l.File, l.Line)
				c.rule = map[document.Kind]document.Rule{document.KindLibrary: document.RuleLibrary, document.KindIO: document.RuleSyscall, document.KindContention: document.RuleSchedulerShare}[kind]
				c.suggestion, c.generic = fix, true
				if isDirRead(l.Callee) {
					// Listing directories is a walk's job: bufio and
					// batching do not apply.
					c.suggestion, c.generic, c.ownWork = dirReadFix, false, true
				}
				if fix == tlsFix {
					c.generic, c.ownWork = false, true
				}
				if stdHash(l.Callee) {
					// A non-cryptographic hash of the standard library
					// (a hash table's maphash.String): the call is the
					// hash; no key size or security to weigh.
					c.suggestion = fmt.Sprintf("%s is the hash itself, the call's whole work: nothing to change at the call; where the same bytes are hashed again, hash once and keep the sum", pkgFunc(l.Callee))
					c.generic, c.ownWork = false, true
					c.message = fmt.Sprintf("hashing (%s) under %s", pkgFunc(l.Callee), shortName(l.Function))
				}
				c.message = fmt.Sprintf("%s under %s", what, shortName(l.Function))
				d.causes = append(d.causes, c)
			}
			c.cost(b).CPUShare = min(1, c.cost(b).CPUShare+lc.cum)
			if _, ok := d.byCallee[cat+" "+callee]; !ok {
				d.byCallee[cat+" "+callee] = c
			}
		default:
			if d.isModule(document.PlainFunc(l.Callee)) && !d.testFunc(l.Callee) {
				// A call into the module's own code is the callee's
				// cost: see callsIntoModule.
				d.moduleCalls = append(d.moduleCalls, moduleCall{b, lc})
				continue
			}
			lookupCost := d.shapeAt("registry-unset", l.File, l.Line) != nil || d.shapeAt("sync-map-wide-key", l.File, l.Line) != nil
			if !lookupCost && (d.wholeJob(b, lc) || returnedLookup(l) || d.lookupJob(b, lc)) || benchSubject(b, lc) || d.decodes(b) && storesDecoded(l.Callee) {
				// The function is the call: its cost is its callers'
				// use of it, not a finding at this line. (Unless the
				// lookup's own cost is avoidable: a registry nothing
				// filled, a key hashed wide on every call.)
				continue
			}
			if s := d.computesResult(l, cat); s != nil {
				// The call computes what the API returns: the
				// operation itself, the API's cost.
				c = d.resultCause(l, s)
				c.cost(b).CPUShare = min(1, c.cost(b).CPUShare+lc.cum)
				break
			}
			if d.fillsSizedMap(l) {
				// The entries of a map its caller gets, sized:
				// the decoding itself, no lookup to save.
				continue
			}
			fix, specific, ownWork := d.inputsFix(l, fix)
			specific = specific || wordsSpecific
			if isRuneDecode(l.Callee) {
				ownWork = true
			}
			ni := d.depNotInlined(l.Callee)
			if ni != nil {
				fix, specific, ownWork = d.depInlineFix(l, ni), true, false
			}
			c = d.hotFunc(l.Function, l.File, l.Line)
			c.addPart(b, part{kind: partCall, callee: callee, what: what, fix: fix, specific: specific, ownWork: ownWork, inline: ni != nil, joins: ni != nil}, lc.cum)
			if ni != nil {
				if c.depAt == nil {
					c.depAt = map[string]string{}
				}
				if _, ok := c.depAt[callee]; !ok {
					c.depAt[callee] = where(l.File, l.Line)
				}
				c.mech("not-inlined")
				c.addEvidence(fmt.Sprintf("compiler (-gcflags=-m=2 on %s): cannot inline %s: cost %d exceeds budget %d", pkgOf(ni.Function), shortName(ni.Function), ni.Cost, ni.Budget))
			}
			if wordsSpecific && c.ifaceInst == "" {
				c.ifaceInst = interfaceShape(l.Function)
			}
		}
		c.mech(cat)
		c.mech(pkgOf(l.Callee))
		c.mech(calleeMech(l.Callee))
		c.addLine(l.File, l.Line, l.Function, fmt.Sprintf("%s: %s of CPU (cum) in %s", callDesc(l), pct(lc.cum), b.name()))
		c.weigh(l.File, l.Line, lc.cum)
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s %s (%s cum, %s with no module code below)", b.name(), where(l.File, l.Line), callDesc(l), pct(lc.cum), pct(lc.self)))
	}
	d.repeatedCalls(b)
	d.spreadCauses(b, d.unclaimed(b, small), order, byKey)
	d.ownCode(b, order, byKey)
	d.notInlined(b)
	d.callsWithShapes(b)
}

// callerShapeWords are the shapes of code at a call of the module's own
// function that make the call a cause of its own (see
// callsWithShapes), with the words of the part they name.
var callerShapeWords = map[string]string{
	"computed-for-readers": "its call at line %d, computing a result only other methods read,",
	"lock-per-element":     "its call at line %d, which takes a lock for each element,",
	"string-compared":      "its calls at line %d, building both values' text only to compare them,",
	"table-fallback":       "its call at line %d, computing again at every call a value its table does not hold,",
}

// callsWithShapes makes a cause of a hot method's call of the module's
// own function when the code at its line is a shape of callerShapeWords:
// it computes, on every call, a result only other methods read (an
// iterator's Next running the whole Step where a cheaper function of the
// same signature gives what every caller needs), or it calls, once per
// element of a loop, a method that takes its receiver's lock (NewSet
// adding each value through Add). The profile names such a call only as
// its function's cumulative time (the hotspot's line), not as a line
// cost, since its callee is the module's.
func (d *deriver) callsWithShapes(b *bench) {
	for _, h := range d.doc.Hotspots {
		if h.Benchmark != b.name() || h.Package != "" && h.Package != b.entry.Package || h.Cum < d.t.CPUMin || !d.isModule(h.Function) || d.testFunc(h.Function) {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(callerShapeWords)) {
			s := d.shapeAt(name, h.File, h.Line)
			if s == nil || s.Function != "" && document.PlainFunc(s.Function) != outer(document.PlainFunc(h.Function)) {
				continue
			}
			c := d.hotFunc(h.Function, h.File, h.Line)
			c.addPart(b, part{kind: partCall, what: fmt.Sprintf(callerShapeWords[name], h.Line), fix: s.Says + ": " + s.Advice, specific: true}, h.Cum)
			if name == "table-fallback" && c.shape == nil {
				// The function and the callers it is inlined in: one
				// table to extend (see changeKey).
				c.shape = s
			}
			c.addLine(h.File, h.Line, h.Function, fmt.Sprintf("its call: %s of CPU (cum) in %s", pct(h.Cum), b.name()))
			c.weigh(h.File, h.Line, h.Cum)
			if name == "lock-per-element" {
				c.mech("lock")
			}
			if name == "string-compared" && !slices.Contains(c.avoided, b.key) {
				c.avoided = append(c.avoided, b.key)
			}
			c.addEvidence(fmt.Sprintf("CPU profile of %s: %s runs %s of the CPU (cum), at %s: %s", b.name(), shortName(h.Function), pct(h.Cum), where(h.File, h.Line), s.Says))
			break
		}
	}
}

// storesDecoded reports whether a runtime or reflect call boxes a value
// or stores an entry into a map: in a benchmark that decodes, the
// document's values going into the value the caller passed (see
// decodedValue), whose allocations are a cost of the API.
func storesDecoded(callee string) bool {
	short := pkgFunc(callee)
	return strings.HasPrefix(short, "runtime.mapassign") || strings.HasPrefix(short, "runtime.convT") || short == "reflect.Value.SetMapIndex"
}

// wholeJob reports whether the line's library call is its function's
// whole job: the line returns the call's result (return strings.Index(s,
// m.lit)) and the function's other lines cost less than OwnJoinMin
// together in b.
func (d *deriver) wholeJob(b *bench, lc *lineCat) bool {
	l := lc.first
	src := strings.TrimSpace(l.Source)
	expr, ok := strings.CutPrefix(src, "return ")
	if !ok {
		// A statement that is the call alone (a case's
		// pool.Put(buf)): the function's work on that path.
		expr, ok = src, !strings.ContainsAny(src[:max(strings.Index(src, "("), 0)], " =:")
	}
	if !ok && d.loopAt(l.File, l.Line) == nil {
		// The call's result assigned, outside any loop (a prefix
		// filter's offset = strings.Index(input[startAt:], prefix),
		// then returned): the search is done once per call; with the
		// function's other lines cheap, it is the function's job.
		if m := assignedCall.FindStringSubmatch(src); m != nil {
			expr, ok = m[1], true
		}
	}
	expr = unconverted(expr)
	if !ok || !callsFirst(expr, l.Callee) && !runtimeDirect(expr, l.Callee) && !appendCopies(expr, l.Callee) {
		return false
	}
	return d.aloneInFunc(b, l)
}

// appendCopies reports whether expr appends a whole slice to another
// (append(b.bs, p...)) and callee is the copy or the growth it makes: a
// buffer's Write, whose job is copying what it is given.
func appendCopies(expr, callee string) bool {
	switch pkgFunc(callee) {
	case "runtime.memmove", "runtime.growslice":
	default:
		return false
	}
	return strings.HasPrefix(expr, "append(") && strings.HasSuffix(expr, "...)") && balanced(expr[len("append("):len(expr)-1])
}

// assignedCall matches a call's result assigned to one or two variables
// or fields: "offset = strings.Index(s, p)", "i, ok := m.find(k)",
// "b.bs = strconv.AppendFloat(b.bs, f, 'f', -1, 64)".
var assignedCall = regexp.MustCompile(`^[\pL_][\pL\pN_.]*(?:, *[\pL_][\pL\pN_.]*)? :?= (.+\))$`)

// basicTypes are the conversions unconverted strips.
var basicTypes = []string{"uint64", "uint32", "uint16", "uint8", "uint", "int64", "int32", "int16", "int8", "int", "uintptr", "float64", "float32", "string", "[]byte", "byte", "rune", "bool"}

// unconverted strips a conversion to a basic type around a whole
// expression: "uint64(memhash(p, 0, n))" is the call "memhash(p, 0, n)".
func unconverted(expr string) string {
	for _, t := range basicTypes {
		if inner, ok := strings.CutPrefix(expr, t+"("); ok && strings.HasSuffix(inner, ")") && balanced(inner[:len(inner)-1]) {
			return inner[:len(inner)-1]
		}
	}
	return expr
}

// balanced reports whether s's parentheses pair up in order.
func balanced(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// runtimeDirect reports whether expr calls, by a bare name that is not a
// builtin, a function the profile shows as the runtime itself (callee):
// a function the module declares without a body, linked to the
// runtime's (//go:linkname memhash runtime.memhash, called by MemHash):
// a module function with a body would be a frame of its own between.
func runtimeDirect(expr, callee string) bool {
	if !strings.HasPrefix(pkgFunc(callee), "runtime.") && strings.Contains(callee, ".") {
		// (An assembly body's symbol has no package: aeshashbody.)
		return false
	}
	j := strings.Index(expr, "(")
	if j <= 0 {
		return false
	}
	name := expr[:j]
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	switch name {
	case "append", "make", "new", "copy", "len", "cap", "clear", "min", "max", "delete", "panic", "print", "println", "complex", "real", "imag", "close", "recover":
		return false
	}
	return !slices.Contains(basicTypes, name)
}

// aloneInFunc reports whether the other lines of l's function cost less
// than OwnJoinMin together in b: l is the function's whole job.
func (d *deriver) aloneInFunc(b *bench, l *document.LineCost) bool {
	fn := outer(document.PlainFunc(l.Function))
	other := 0.0
	for _, o := range b.lines {
		if o.InTest || outer(document.PlainFunc(o.Function)) != fn || o.File == l.File && o.Line == l.Line {
			continue
		}
		other += o.Self
	}
	return other < d.t.OwnJoinMin
}

// lookupAssigned matches a map lookup assigned to variables, alone
// (c, found = sc.m.Load().(map[K]V)[key]), or in an if's init with its
// found flag the condition (if s, ok := d.interned[string(b)]; ok {).
var lookupAssigned = regexp.MustCompile(`^(if )?[\pL_][\pL\pN_]*(, *[\pL_][\pL\pN_]*)? :?= [^;]*\[[^\[\]]+\](; *!?[\pL_][\pL\pN_]* \{)?$`)

// lookupJob reports whether a map lookup is its function's whole job: the
// line assigns the lookup (a cache's Get filling its named results) and
// the function's other lines cost less than OwnJoinMin together. The
// lookup is what its callers ask for; "look up less" is theirs to do.
func (d *deriver) lookupJob(b *bench, lc *lineCat) bool {
	l := lc.first
	if !strings.HasPrefix(l.Callee, "runtime.mapaccess") || !lookupAssigned.MatchString(strings.TrimSpace(l.Source)) {
		return false
	}
	return d.aloneInFunc(b, l)
}

// benchSubject reports whether a library call is what the benchmark is
// named for and most of its time (Benchmark_sort spending 73% in
// sort.Sort, under the sort builtin of an expression language): the
// benchmark measures that operation, and advice to do it less does not
// fit.
func benchSubject(b *bench, lc *lineCat) bool {
	if lc.cum < 0.5 {
		return false
	}
	callee := pkgFunc(lc.first.Callee)
	name := strings.ToLower(callee[strings.LastIndexAny(callee, ".)")+1:])
	if name == "" {
		return false
	}
	bench := strings.TrimPrefix(b.name(), "Benchmark")
	words := strings.FieldsFunc(bench, func(r rune) bool { return r == '_' || r == '/' || r == '-' })
	for _, w := range words {
		for _, part := range append(camelWords(w), w) {
			if strings.ToLower(part) == name {
				return true
			}
		}
	}
	return false
}

// camelWords splits "ParseFloat" into "Parse", "Float".
func camelWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i] >= 'A' && s[i] <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			out = append(out, s[start:i])
			start = i
		}
	}
	return append(out, s[start:])
}

// lookupReturned matches a return of one map index expression, alone or
// with a constant second result: return m[key], return s.m[k], nil.
var lookupReturned = regexp.MustCompile(`^return [\pL_][\pL\pN_.]*\[[^\[\]]+\](, *(nil|true|false|ok))?$`)

// returnedLookup reports whether the line is a map lookup whose value it
// returns: the one lookup its caller asks for, which "look up less" does
// not fit.
func returnedLookup(l *document.LineCost) bool {
	return strings.HasPrefix(l.Callee, "runtime.mapaccess") && lookupReturned.MatchString(strings.TrimSpace(l.Source))
}

// callsFirst reports whether expr starts with a call of callee: a
// function as "strings.Index(", a method as a receiver expression then
// ".MatchString(".
func callsFirst(expr, callee string) bool {
	if rest, ok := strings.CutPrefix(pkgFunc(callee), "stringslite."); ok {
		// strings.Index inlined: the profile names its body in
		// internal/stringslite.
		return callsFirst(expr, "strings."+rest) || callsFirst(expr, "bytes."+rest)
	}
	name := pkgFunc(callee) // "strings.Index", "regexp.(*Regexp).MatchString", "cascadia.Selector.MatchAll"
	method := ""
	if i := strings.LastIndex(name, ")."); i >= 0 {
		method = name[i+2:]
	} else if parts := strings.Split(name, "."); len(parts) == 3 {
		method = parts[2] // a method of a value receiver
	}
	if method != "" {
		j := strings.Index(expr, "(")
		return j > 0 && strings.HasSuffix(expr[:j], "."+method) && !strings.ContainsAny(expr[:j], " +-*/<>=!&|")
	}
	if strings.HasPrefix(expr, name+"(") {
		return true
	}
	// An exported call whose body was inlined: the profile names the
	// package's unexported function under it (strconv.AppendFloat's
	// genericFtoa).
	pkg, fn, ok := strings.Cut(name, ".")
	if !ok || fn == "" || !unicode.IsLower([]rune(fn)[0]) {
		return false
	}
	call, ok := strings.CutPrefix(expr, pkg+".")
	j := strings.Index(call, "(")
	return ok && j > 0 && unicode.IsUpper([]rune(call)[0]) && !strings.ContainsAny(call[:j], " .+-*/<>=!&|")
}

// unclaimed drops the small calls a repeated call's cause of b holds
// already: the same call from two lines is that cause, not a spread one.
func (d *deriver) unclaimed(b *bench, small []*lineCat) []*lineCat {
	var out []*lineCat
	for _, lc := range small {
		claimed := false
		for _, c := range d.causes {
			if c.kind == document.KindRepeated && c.costs[b.key] != nil && c.hasLine(lc.first.File, lc.first.Line) {
				claimed = true
				break
			}
		}
		if !claimed {
			out = append(out, lc)
		}
	}
	return out
}

// spreadKinds are the categories whose calls are a kind of cause of
// their own (see cpuCauses), by category.
var spreadKinds = map[string]document.Kind{"encoding": document.KindLibrary, "compression": document.KindLibrary, "crypto": document.KindLibrary, "syscall": document.KindIO}

// spreadCauses finds the functions whose lines together cost SpreadMin
// of the benchmark though none reaches CPUMin alone: a normalizer whose
// five calls cost 3% each, two unbuffered writes of 3% each. small are
// the benchmark's call lines below CPUMin. A function's calls of a kind
// with causes of its own (system calls, encoding, compression, crypto)
// make that kind's cause; its other calls, with its own code when that is
// no part yet (ownCode joins it to the cause), its CPU cause.
func (d *deriver) spreadCauses(b *bench, small []*lineCat, order []string, byKey map[string]*lineCat) {
	type group struct {
		fn, cat string // cat is "" for the function's CPU cause
		lines   []*lineCat
		sum     float64
	}
	var groups []*group
	byGroup := map[[2]string]*group{}
	for _, lc := range small {
		fn := outer(document.PlainFunc(lc.first.Function))
		cat := string(lc.first.Category)
		if _, ok := spreadKinds[cat]; !ok {
			cat = ""
		}
		key := [2]string{fn, cat}
		if cat != "" {
			// Calls of a kind with causes of its own are grouped by
			// callee across the module: unbuffered writes from two
			// functions are one cause.
			key = [2]string{pkgFunc(lc.first.Callee), cat}
			if c := d.byCallee[cat+" "+key[0]]; c != nil {
				// A larger call to the same callee made a cause:
				// this line joins it.
				c.cost(b).CPUShare = min(1, c.cost(b).CPUShare+lc.cum)
				c.addLine(lc.first.File, lc.first.Line, lc.first.Function, fmt.Sprintf("%s: %s of CPU (cum) in %s", callDesc(lc.first), pct(lc.cum), b.name()))
				c.weigh(lc.first.File, lc.first.Line, lc.cum)
				continue
			}
		}
		g := byGroup[key]
		if g == nil {
			g = &group{fn: fn, cat: cat}
			byGroup[key] = g
			groups = append(groups, g)
		}
		g.lines = append(g.lines, lc)
		g.sum += lc.cum
	}
	own := map[string]float64{} // a function's own code, by function
	for _, k := range order {
		if lc := byKey[k]; lc.first.Callee == "" {
			own[outer(document.PlainFunc(lc.first.Function))] += lc.self
		}
	}
	for _, g := range groups {
		slices.SortStableFunc(g.lines, func(x, y *lineCat) int { return cmp.Compare(y.cum, x.cum) })
		total := g.sum
		if g.cat == "" && own[g.fn] < d.t.OwnCodeMin {
			total += own[g.fn]
		}
		if len(g.lines) < 2 || total < d.t.SpreadMin {
			continue
		}
		l := g.lines[0].first
		var callees []string
		for _, lc := range g.lines {
			if c := pkgFunc(lc.first.Callee); !slices.Contains(callees, c) {
				callees = append(callees, c)
			}
		}
		if len(callees) > 3 {
			callees = append(callees[:3], "…")
		}
		what, fix, specific := lineWords(l, string(l.Category))
		fix = d.fixIn(fix)
		ownWork := false
		if g.cat == "" {
			fix, specific, ownWork = d.inputsFix(l, fix)
			// A cost spread over lines is the function's way of
			// doing its job: a line of it whose inputs recur (a type's
			// methods looked up per value) names what to keep.
			for _, lc := range g.lines[1:] {
				if s := d.callShape("call-inputs-recur", lc.first); !specific && s != nil {
					fix, specific, ownWork = s.Says+": "+s.Advice, true, false
				}
			}
			if !specific && !slices.ContainsFunc(g.lines, func(lc *lineCat) bool { return !isRuneDecode(lc.first.Callee) }) {
				// Only decoding the input's runes: its own work.
				ownWork = true
			}
		}
		var c *cause
		if kind, ok := spreadKinds[g.cat]; ok {
			fn := outer(document.PlainFunc(l.Function))
			if d.find(kind, fn, g.cat) != nil {
				continue // a line of it costs CPUMin: the cause exists
			}
			var fns []string
			for _, lc := range g.lines {
				if f := shortName(outer(document.PlainFunc(lc.first.Function))); !slices.Contains(fns, f) {
					fns = append(fns, f)
				}
			}
			c = d.newCause(kind, g.cat, fn, l.File, l.Line)
			c.rule, c.suggestion, c.generic = document.RuleCPUSpread, fix, true
			c.message = fmt.Sprintf("%s under %s, over %d lines", what, strings.Join(fns, " and "), len(g.lines))
			d.causes = append(d.causes, c)
			c.cost(b).CPUShare = min(1, c.cost(b).CPUShare+g.sum)
			d.byCallee[g.cat+" "+pkgFunc(l.Callee)] = c
		} else {
			if ex := d.find(document.KindCPU, g.fn, "function"); ex != nil && ex.costs[b.key] != nil {
				continue // a line of it costs CPUMin: the cause exists
			}
			c = d.hotFunc(g.fn, l.File, l.Line)
			c.addPart(b, part{kind: partSpread, callee: strings.Join(callees, ", "),
				what: fmt.Sprintf("%d lines together (%s)", len(g.lines), strings.Join(callees, ", ")), fix: fix, specific: specific, ownWork: ownWork}, g.sum)
		}
		for _, lc := range g.lines {
			c.addLine(lc.first.File, lc.first.Line, lc.first.Function, fmt.Sprintf("%s: %s of CPU (cum) in %s", callDesc(lc.first), pct(lc.cum), b.name()))
			c.weigh(lc.first.File, lc.first.Line, lc.cum)
			// What the lines do, for the shapes that explain it (the
			// same map lookup at three of them).
			c.mech(string(lc.first.Category))
			c.mech(pkgOf(lc.first.Callee))
			c.mech(calleeMech(lc.first.Callee))
		}
		who := shortName(g.fn) + "'s calls"
		if g.cat != "" {
			who = "the calls of " + pkgFunc(l.Callee)
		}
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s cost %s over %d lines, none %s alone", b.name(), who, pct(g.sum), len(g.lines), pct(d.t.CPUMin)))
	}
}

// phaseCauses makes a cause of each phase of b (a part of a program's
// run its call path fans out into, whose time no one line carries) of at
// least PhaseMin whose function no other cause names: a parser's kind of
// statement, a formatter's printing, whose many lines each cost little.
// It is where the time goes rather than a fix, so it ranks as a
// function's own algorithm does; most of it in allocation sends the
// reader to the allocation causes.
func (d *deriver) phaseCauses(b *bench) {
	for _, ph := range b.phases {
		fn := outer(document.PlainFunc(ph.Function))
		if ph.Share < d.t.PhaseMin || !d.isModule(ph.Function) || d.names(fn) {
			continue
		}
		c := d.newCause(document.KindCPU, "phase", fn, ph.File, ph.Line)
		c.rule, c.lowOnly, c.generic = document.RuleCPUPhase, true, true
		c.cost(b).CPUShare = ph.Share
		c.message = fmt.Sprintf("%s: %s of the run, called from %s", shortName(fn), pct(ph.Share), shortName(ph.Caller))
		if ph.MemoryShare >= d.t.PhaseMemory {
			c.message += fmt.Sprintf(", %s of it allocation and garbage collection", pct(ph.MemoryShare))
			c.suggestion = fmt.Sprintf("allocate less in %s and below: its allocation findings come first; then its lines (go tool pprof -list '%s')", shortName(fn), shortName(fn))
		} else {
			c.suggestion = fmt.Sprintf("its time is spread over its lines and callees, none a cause alone: read them with go tool pprof -list '%s' (and -peek) before tuning", shortName(fn))
		}
		c.addLine(ph.File, ph.Line, ph.Caller, fmt.Sprintf("calls %s: %s of CPU (cum) in %s", shortName(fn), pct(ph.Share), b.name()))
		c.addEvidence(fmt.Sprintf("CPU profile of %s: the call path fans out at %s; %s takes %s, no line of the module more than half of that", b.name(), shortName(ph.Caller), shortName(fn), pct(ph.Share)))
		d.causes = append(d.causes, c)
	}
}

// names reports whether a cause (other than a phase) names function fn.
func (d *deriver) names(fn string) bool {
	for _, c := range d.causes {
		if c.fn == fn && c.group != "phase" {
			return true
		}
	}
	return false
}

// ownChangeAt reports whether a shape that explains own code and names a
// change (not the function's own work) is at one of the lines.
func (d *deriver) ownChangeAt(lines []*lineCat) bool {
	for _, lc := range lines {
		for _, s := range d.doc.Shapes {
			if s.File != lc.first.File || s.Line != lc.first.Line || s.OwnWork || s.Advice == "" || !slices.Contains(explains[s.Name], "own") {
				continue
			}
			return true
		}
	}
	return false
}

// ownCode adds each module function's own code to its CPU cause: the
// lines that run no library call, when together they are a real share of
// the benchmark (a loop around a comparison is part of the same cost).
func (d *deriver) ownCode(b *bench, order []string, byKey map[string]*lineCat) {
	byFn := map[string][]*lineCat{}
	var fns []string
	for _, k := range order {
		lc := byKey[k]
		if lc.first.Callee != "" {
			continue
		}
		fn := outer(document.PlainFunc(lc.first.Function))
		if byFn[fn] == nil {
			fns = append(fns, fn)
		}
		byFn[fn] = append(byFn[fn], lc)
	}
	for _, fn := range fns {
		lines := byFn[fn]
		sum := 0.0
		for _, lc := range lines {
			sum += lc.self
		}
		existing := d.find(document.KindCPU, fn, "function")
		min := d.t.OwnCodeMin
		if d.ownChangeAt(lines) {
			// Its lines' code names a change (a loop walking from
			// the front to find a tail): a cost as a call is.
			min = d.t.CPUMin
		}
		if sum < min && (existing == nil || existing.costs[b.key] == nil || sum < d.t.OwnJoinMin) {
			continue
		}
		slices.SortFunc(lines, func(x, y *lineCat) int { return int(y.self*1e6) - int(x.self*1e6) })
		c := d.hotFunc(fn, lines[0].first.File, lines[0].first.Line)
		own := ownPart()
		if where, advice, floor := d.ownLines(b, lines); floor {
			// The costliest lines are a loop at its floor.
			own.fix, own.specific, own.floor = where+" — "+advice, true, true
		} else if advice != "" {
			// The costliest lines are a loop whose work another way
			// does in far fewer steps: that way is the fix.
			own.fix, own.specific = where+" — "+advice, true
		} else if where != "" {
			own.fix = where + " — " + own.fix
		}
		c.addPart(b, own, sum)
		c.mech("own")
		for _, lc := range lines {
			if lc.self >= d.t.OwnJoinMin {
				c.addLine(lc.first.File, lc.first.Line, lc.first.Function, fmt.Sprintf("its own code: %s of CPU in %s", pct(lc.self), b.name()))
				c.weigh(lc.first.File, lc.first.Line, lc.self)
			}
		}
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s's own code (no library call below) runs %s of the CPU", b.name(), shortName(fn), pct(sum)))
	}
}

// ownLines names where a function's own code spends its time in b: its
// costliest lines (sorted costliest first), the lines of one loop
// together as the loop a "loop" shape describes, others by their source,
// each with its share and, when the profile's sample count is known, its
// samples. advice is the costliest group's loop's advice, when its shape
// has one.
func (d *deriver) ownLines(b *bench, lines []*lineCat) (at, advice string, floor bool) {
	type group struct {
		text, advice string
		floor        bool
		share        float64
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, lc := range lines {
		l := lc.first
		k, text := where(l.File, l.Line), fmt.Sprintf("line %d", l.Line)
		if src := strings.TrimSpace(l.Source); src != "" {
			text += " `" + src + "`"
		}
		adv, atFloor := "", false
		if s := d.loopAt(l.File, l.Line); s != nil {
			k, text, adv, atFloor = where(s.File, s.Line)+" loop", s.Says, s.Advice, s.OwnWork
		}
		g := byKey[k]
		if g == nil {
			g = &group{text: text, advice: adv, floor: atFloor}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.share += lc.self
	}
	slices.SortStableFunc(groups, func(x, y *group) int { return cmp.Compare(y.share, x.share) })
	if len(groups) > 1 && groups[0].advice == "" {
		// A part that names a change, tied with the first within the
		// profile's sampling error (8 samples and 6), leads: which of
		// the two comes first is noise, and the same code must give
		// the same advice.
		se := func(p float64) float64 {
			if n := b.entry.CPUSamples; n > 0 {
				return math.Sqrt(p * (1 - p) / float64(n))
			}
			return 0
		}
		for i, g := range groups[1:] {
			if g.advice != "" && d.tied(groups[0].share, se(groups[0].share), g.share, se(g.share)) {
				lead := groups[i+1]
				copy(groups[1:i+2], groups[:i+1])
				groups[0] = lead
				break
			}
		}
	}
	var out []string
	for i, g := range groups {
		if i == 3 || i > 0 && g.share < d.t.OwnJoinMin {
			break
		}
		of := pct(g.share)
		if i == 0 {
			of += " of " + b.name()
		}
		if n := b.entry.CPUSamples; n > 0 {
			k := int64(math.Round(g.share * float64(n)))
			of += fmt.Sprintf(", %d sample%s", k, map[bool]string{true: "s"}[k != 1])
		}
		out = append(out, fmt.Sprintf("%s (%s)", g.text, of))
	}
	if len(groups) > 0 {
		advice = groups[0].advice
		// At its floor when the loop holds most of the function's own
		// time: the rest is too little to name a change for.
		total := 0.0
		for _, g := range groups {
			total += g.share
		}
		floor = groups[0].floor && groups[0].share >= 0.5*total
	}
	return strings.Join(out, "; "), advice, floor
}

// loopAt returns the innermost loop (a "loop" shape) whose lines hold
// file:line, or nil.
func (d *deriver) loopAt(file string, line int64) *document.Shape {
	var best *document.Shape
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name != "loop" || s.File != file || line < s.Line || len(s.Related) == 0 || line > s.Related[0].Line {
			continue
		}
		if best == nil || s.Line > best.Line {
			best = s
		}
	}
	return best
}

// finishCPU composes each function's CPU cause from its parts: its cost
// per benchmark is the parts' sum, its words the largest part's first, and
// a function whose only part is its own code is its algorithm (low
// severity).
func (d *deriver) finishCPU() {
	defer d.dropEmpty()
	held := d.callsIntoModule()
	defer func() {
		for _, mc := range held {
			c := d.find(document.KindCPU, outer(document.PlainFunc(mc.lc.first.Callee)), "function")
			cs := c.cost(mc.b)
			cs.CPUShare = max(cs.CPUShare, mc.lc.cum)
		}
	}()
	for _, c := range d.causes {
		if c.kind != document.KindCPU || c.group != "function" || len(c.parts) == 0 {
			continue
		}
		d.compose(c)
	}
}

// compose makes a function's CPU cause from its parts (see finishCPU).
func (d *deriver) compose(c *cause) {
	for _, cs := range c.costs {
		cs.CPUShare = 0
	}
	total := (*part).most
	// Costliest first; the note that the function is not inlined goes
	// right after its own code, whose call overhead it is (last when
	// there is no own-code part).
	slices.SortStableFunc(c.parts, func(x, y *part) int {
		if ni := cmp.Compare(boolInt(x.kind == partNotInlined), boolInt(y.kind == partNotInlined)); ni != 0 {
			return ni
		}
		return int(total(y)*1e6) - int(total(x)*1e6)
	})
	if n := len(c.parts); n > 1 && c.parts[n-1].kind == partNotInlined {
		if i := slices.IndexFunc(c.parts, func(p *part) bool { return p.kind == partOwn }); i >= 0 {
			ni := c.parts[n-1]
			c.parts = slices.Insert(c.parts[:n-1], i+1, ni)
		}
	}
	var words []string
	own := true
	for _, p := range c.parts {
		if p.kind == partNotInlined {
			words = append(words, p.fix)
			continue
		}
		if len(words) == 0 || total(p) >= d.t.PartMin {
			words = append(words, fmt.Sprintf("%s %s", p.what, pct(total(p))))
		}
		own = own && p.kind == partOwn
		for k, v := range p.share {
			if c.costs[k] == nil {
				continue
			}
			c.costs[k].CPUShare = min(1, c.costs[k].CPUShare+v)
		}
	}
	// A function's own algorithm, unless its costliest lines name a
	// change (a loop another way does in far fewer steps).
	c.lowOnly = own && !c.notInlined && (len(c.parts) == 0 || !c.parts[0].specific)
	// Its own code and calls that are its own work on its inputs:
	// nothing names a change.
	noChange := !c.notInlined && len(c.parts) > 0
	for _, p := range c.parts {
		noChange = noChange && (p.kind == partOwn && !p.specific || p.ownWork)
	}
	c.mainLine()
	if c.lowOnly || d.onlyInternal(c) {
		d.dropInternalMicro(c)
	}
	c.message = fmt.Sprintf("%s: %s", shortName(c.fn), strings.Join(words, "; "))
	var lead *part
	// A part whose code names a change leads the advice over a larger
	// one that names none (a loop's own code beside a call of another
	// module's function the compiler does not inline).
	named := slices.IndexFunc(c.parts, func(p *part) bool {
		return p.kind != partNotInlined && p.specific && !p.ownWork && total(p) >= d.t.PartMin
	})
	for i, p := range c.parts {
		if p.kind == partNotInlined || named > 0 && !c.parts[0].specific && i != named && lead == nil {
			continue
		}
		if lead == nil {
			lead = p
			c.suggestion, c.generic, c.rule, c.ownWork = p.fix, !p.specific, p.rule(), p.ownWork || noChange && !c.lowOnly
			if p.joins {
				c.depCall = p.callee
			}
			if p.shape != nil {
				c.shape = p.shape
			}
			if c.suggestion == compareFix && isComparator(c.fn) {
				c.suggestion = comparatorFix
			}
			continue
		}
		// A second library call the message names, with a fix of its
		// own (a clock read beside a lock): its words too.
		if p.kind == partCall && lead.kind == partCall && p.fix != lead.fix && total(p) >= d.t.PartMin && !p.ownWork && p.fix != cpuWords["other"][1] {
			c.suggestion += "; " + p.what + ": " + p.fix
		}
		break
	}
	if lead != nil && lead.kind == partOwn && !lead.specific {
		c.unnamed = !slices.ContainsFunc(c.parts, func(p *part) bool {
			return p.kind != partNotInlined && p.specific && !p.ownWork
		})
	}
	if own && len(c.parts) > 0 && c.parts[0].floor {
		// Its own code, a loop at its floor: nothing to gain, whether
		// or not it inlines.
		c.section, c.rule, c.generic, c.lowOnly, c.ownWork = document.SectionLeaveAlone, document.RuleLeaveFloor, false, true, false
		return
	}
	if c.notInlined && (c.rule == "" || c.rule == document.RuleCPUOwnCode) {
		// Its own code, paying for a call on every use: the
		// inlining is the cause's handle.
		c.rule = document.RuleCPUNotInlined
	}
	if c.notInlined && c.overBudget > 0 && c.overBudget <= d.t.InlineClose {
		// A few nodes over the budget: a small edit inlines it, a
		// change the compiler's numbers name.
		// The change leads; where its time goes follows, without
		// the words that say there is none.
		rest := strings.TrimPrefix(strings.Replace(c.suggestion, " — "+cpuWords["application"][1], "", 1), cpuWords["application"][1])
		c.suggestion = fmt.Sprintf("it is %d over the inlining budget of %d: a small edit inlines it — write a small inlined helper's expression in place of its call (each inlined call adds its body's cost), or move the rarely taken path behind a call; then check with go build -gcflags=-m that it inlines", c.overBudget, c.budget)
		if rest = strings.Trim(rest, "; "); rest != "" {
			c.suggestion += "; where its time goes: " + rest
		}
		c.generic, c.unnamed, c.ownWork = false, false, false
	} else if c.notInlined {
		c.suggestion += "; and bring it under the inlining budget: move the rarely taken slow path into a function marked //go:noinline, then check with go build -gcflags=-m that it inlines"
	}
}

// callsIntoModule settles the lines whose callee is the module's own
// function (a generic method's dictionary wrapper, which the profile
// counts as a callee): when the callee has a CPU cause, the call's cost
// in the caller's benchmark is that cause's (the callee's time, seen from
// its call), not a cause of the caller's, and the call is returned, to be
// counted once the callee's cause is composed; when it has none, the call
// is a part of the caller's cause as any call is.
func (d *deriver) callsIntoModule() []moduleCall {
	var held []moduleCall
	for _, mc := range d.moduleCalls {
		l := mc.lc.first
		if c := d.find(document.KindCPU, outer(document.PlainFunc(l.Callee)), "function"); c != nil {
			held = append(held, mc)
			c.addEvidence(fmt.Sprintf("CPU profile of %s: %s calls it at %s: %s (cum)", mc.b.name(), shortName(l.Function), where(l.File, l.Line), pct(mc.lc.cum)))
			continue
		}
		what, fix, wordsSpecific := lineWords(l, string(l.Category))
		fix, specific, ownWork := d.inputsFix(l, d.fixIn(fix))
		specific = specific || wordsSpecific
		c := d.hotFunc(l.Function, l.File, l.Line)
		c.addPart(mc.b, part{kind: partCall, callee: pkgFunc(l.Callee), what: what, fix: fix, specific: specific, ownWork: ownWork}, mc.lc.cum)
		c.addLine(l.File, l.Line, l.Function, fmt.Sprintf("%s: %s of CPU (cum) in %s", callDesc(l), pct(mc.lc.cum), mc.b.name()))
		c.weigh(l.File, l.Line, mc.lc.cum)
	}
	return held
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// runLibraryFix is the advice for other library code in a program's run,
// where a call's result is usually computed once per input: caching it
// buys nothing.
const runLibraryFix = "look at what the call does per input item (go tool pprof -list on its function): less work per item, or a faster library; a cache helps only where the same input comes back"

// fixIn is fix for the document's op: library code in a program's run
// gets runLibraryFix instead of "call it less: cache its result".
func (d *deriver) fixIn(fix string) string {
	if d.doc.Op == document.OpRun && fix == cpuWords["other"][1] {
		return runLibraryFix
	}
	return fix
}

// inputsFix is the fix for a line's call from what its inputs are: a
// call whose inputs recur (a call-inputs-recur shape: constants, or
// values its loop does not change) is to be made once, in the shape's
// words, whatever its category; a call whose fix is the category's
// "call it less: cache its result" but which works on what its function
// was given (a call-on-inputs shape) is that function's work, with no
// cache advice. specific is set when the fix names one; ownWork when it
// says the call is the function's own work and names no change.
func (d *deriver) inputsFix(l *document.LineCost, fix string) (_ string, specific, ownWork bool) {
	if s := d.callShape("call-inputs-recur", l); s != nil {
		return s.Says + ": " + s.Advice, true, false
	}
	if s := d.shapeAt("computed-for-readers", l.File, l.Line); s != nil {
		// A value every update computes for what only a read needs.
		return s.Says + ": " + s.Advice, true, false
	}
	if short := pkgFunc(l.Callee); isReflectMake(short) || strings.HasPrefix(short, "reflect.Value.Set") || strings.HasPrefix(short, "runtime.") && d.decodedAt(l.File, l.Line) {
		if b := d.benchOf(l.Package, l.Benchmark); b != nil && d.decodes(b) {
			// Making the decoded value, or storing into the caller's
			// value: what decoding builds for the caller.
			return fmt.Sprintf("%s makes or stores a value of the decoded document in the caller's value: what decoding builds for the caller, a cost of the API's targets (typed struct fields need less of it than interface{} and maps)", short), false, true
		}
	}
	if (fix == poolFix || fix == syncMapFix) && d.oncePerCall(l) {
		// A pool's Get or a cache's lookup that runs once per call
		// of a function its callers call once each: the reuse's or
		// the cache's price, paid once per operation.
		return fmt.Sprintf("%s runs once per call of %s, and its callers call %s once each, outside any loop: %s; once per operation is that price's floor", pkgFunc(l.Callee), shortName(l.Function), shortName(l.Function), strings.SplitN(fix, ":", 2)[0]), false, true
	}
	if fix == poolFix && d.notLooped(l) {
		return fmt.Sprintf("%s runs once per call of %s, and no loop the report sees runs it more often: %s; once per operation is that price's floor", pkgFunc(l.Callee), shortName(l.Function), strings.SplitN(fix, ":", 2)[0]), false, true
	}
	if fix == cpuWords["maps"][1] {
		if s := d.shapeAt("map-unsized", l.File, l.Line); s != nil {
			// A store into a map made without a size: it grows
			// while the loop fills it.
			return s.Says + ": " + s.Advice, true, false
		}
		// A map operation on what the function was given, with the
		// key it was given: its own work, nothing to look up once.
		if s := d.shapeAt("map-small-key", l.File, l.Line); s != nil {
			return s.Says + ": " + s.Advice, true, false
		}
		if s := d.shapeAt("map-on-inputs", l.File, l.Line); s != nil {
			return s.Says + ": " + s.Advice, false, true
		}
	}
	if isBufferWrite(l.Callee) {
		if s := d.callShape("call-on-inputs", l); s != nil {
			// Writing into the buffer it was given: its output,
			// the function's job.
			return s.Says + ": the function's output, written into the buffer its caller gave it: its job, not a copy to save", false, true
		}
	}
	if isReaderCall(l.Callee) {
		if s := d.shapeAt("read-whole", l.File, l.Line); s != nil {
			// A whole record in one read: the copy is the
			// reader's price, no smaller pieces to join.
			return s.Says + ": " + s.Advice, false, true
		}
	}
	if fix == mathFix {
		if s := d.callShape("call-on-inputs", l); s != nil {
			// Math on what the function was given: its arithmetic,
			// with nothing that recurs to compute once.
			return s.Says + ": the function's arithmetic on its inputs, nothing that recurs to compute once; a cheaper formula, or fewer calls, is a change to the algorithm", false, true
		}
	}
	if !slices.Contains(repeatFixes, fix) {
		return fix, false, false
	}
	if lp := d.loopDrivenBy(l); lp != nil {
		// for g.Next() { … }: the call steps the loop over the input.
		return fmt.Sprintf("%s drives the loop at lines %d–%d: each call steps the iteration to its next element, so its cost is per element, not a value to cache; fewer elements, or a cheaper step, is a change to the algorithm",
			pkgFunc(l.Callee), lp.Line, lp.Related[0].Line), false, true
	}
	if s := d.callShape("call-on-inputs", l); s != nil {
		if fix == cpuWords["reflect"][1] || fix == reflectValueFix {
			// Reflection on the values given, not on their types: a
			// cache per type keeps none of it.
			if b := d.benchOf(l.Package, l.Benchmark); b != nil && d.codes(b) {
				// A reflective encoder's or decoder's walk over the
				// caller's value: its job.
				return s.Says + ": " + s.Advice + "; walking the caller's value through reflection is what a reflective encoder or decoder does (typed fast paths for the common types are a larger change, not one at this line)", false, true
			}
			return s.Says + ": " + s.Advice + "; typed code for the common types (a type switch before reflecting) does the same without reflection", false, false
		}
		return s.Says + ": " + s.Advice, false, s.OwnWork
	}
	return fix, false, false
}

// The advice of a sync.Pool's Get and Put and of a sync.Map lookup.
const (
	poolFix    = "the pool is how the function reuses its state, and Get and Put are that reuse's price: one Get per call (not per value) keeps it low; a value the caller keeps across calls avoids it"
	syncMapFix = "the lookup is the cache: keep its result where the caller already is (look it up once per type or per call, not per value), or a plain map built once and read without a lock"
)

// oncePerCall reports whether the call at l runs once per call of its
// function (in no loop of it) and its function is called once per call
// of the API (a called-once shape), or every module line that calls it,
// in the profile, does so outside any loop: once per operation of the
// caller, not once per value.
func (d *deriver) oncePerCall(l *document.LineCost) bool {
	if d.loopAt(l.File, l.Line) != nil {
		return false
	}
	if d.calledOnce(l.Function, "", 0) {
		return true
	}
	fn := document.PlainFunc(l.Function)
	callers := 0
	for i := range d.doc.Lines {
		c := &d.doc.Lines[i]
		if c.Callee == "" || document.PlainFunc(c.Callee) != fn || !d.isModule(c.Function) {
			continue
		}
		if d.loopAt(c.File, c.Line) != nil {
			return false
		}
		callers++
	}
	return callers > 0
}

// notLooped reports whether no loop is known to run the line: none
// encloses it, and no module line calling its function is in one. A
// pool's Get or Put there is once per call of its function: the reuse's
// price, however its callers are reached.
func (d *deriver) notLooped(l *document.LineCost) bool {
	if d.loopAt(l.File, l.Line) != nil {
		return false
	}
	fn := document.PlainFunc(l.Function)
	for i := range d.doc.Lines {
		c := &d.doc.Lines[i]
		if c.Callee != "" && document.PlainFunc(c.Callee) == fn && d.isModule(c.Function) && d.loopAt(c.File, c.Line) != nil {
			return false
		}
	}
	return true
}

// isBufferWrite reports whether callee writes into an in-memory buffer:
// a bytes.Buffer's, strings.Builder's or bufio.Writer's Write methods.
func isBufferWrite(callee string) bool {
	for _, t := range []string{"bytes.(*Buffer).Write", "strings.(*Builder).Write", "bufio.(*Writer).Write"} {
		if strings.Contains(callee, t) {
			return true
		}
	}
	return false
}

// loopDrivenBy returns the loop whose condition, on the call's line, calls
// the callee's method (for g.Next() && …), or nil.
func (d *deriver) loopDrivenBy(l *document.LineCost) *document.Shape {
	lp := d.loopAt(l.File, l.Line)
	if lp == nil || lp.Line != l.Line {
		return nil
	}
	method := pkgFunc(l.Callee)
	if i := strings.LastIndexByte(method, '.'); i >= 0 {
		method = method[i+1:]
	}
	_, cond, ok := strings.Cut(lp.Says, " runs while ")
	if !ok || method == "" {
		return nil
	}
	cond, _, _ = strings.Cut(cond, ":")
	if !strings.Contains(cond, "."+method+"(") {
		return nil
	}
	return lp
}

// isReflectMake reports whether a reflect function makes a new value
// (reflect.MakeSlice, reflect.New, reflect.Append).
func isReflectMake(short string) bool {
	for _, f := range []string{"reflect.MakeSlice", "reflect.MakeMap", "reflect.MakeMapWithSize", "reflect.MakeChan", "reflect.New", "reflect.Append", "reflect.AppendSlice", "reflect.unsafe_New", "reflect.unsafe_NewArray", "reflect.makemap"} {
		if short == f {
			return true
		}
	}
	return false
}

// reflectValueFix is the fix for reflection's work on each value.
const reflectValueFix = "typed code for the types that are common here (a type switch or assertion before reflecting, or typed fields read directly): a cache per type does not remove work done on every value"

// reflectOnValues reports whether a reflect function works on a value
// (Value.Interface boxing it, Value.Index, Value.Set) rather than on a
// type (a method or field search, a type's layout).
func reflectOnValues(callee string) bool {
	short := pkgFunc(callee)
	switch {
	case strings.HasPrefix(short, "reflect.valueInterface"), strings.HasPrefix(short, "reflect.packEface"), strings.HasPrefix(short, "reflect.unsafe_New"):
		return true
	case strings.HasPrefix(short, "reflect.Value."):
		m := strings.TrimPrefix(short, "reflect.Value.")
		for _, typeOp := range []string{"MethodByName", "FieldByName", "Method", "NumMethod", "Type", "Convert", "Call", "MapIndex", "MapKeys", "SetMapIndex"} {
			if m == typeOp || strings.HasPrefix(m, typeOp+"(") {
				return false
			}
		}
		return true
	}
	return false
}

// regexpMatchFix is the fix for the time a regexp's match takes.
const regexpMatchFix = "the match itself costs: run it once per input (one call's submatches answer the others), a pattern the one-pass matcher takes (anchored, one way to match), or strings functions or a hand-written scan for a fixed format"

// regexpCompiles reports whether a regexp function compiles a pattern
// (regexp.MustCompile, regexp/syntax.Parse) rather than matching one.
func regexpCompiles(callee string) bool {
	short := pkgFunc(callee)
	return strings.HasPrefix(short, "syntax.") || anyIn(short, "regexp.Compile", "regexp.MustCompile", "regexp.compile", "regexp.CompilePOSIX", "regexp.MustCompilePOSIX", "regexp.compileOnePass", "regexp.onePassCopy", "regexp.minInputLen")
}

// repeatFixes are the category fixes that assume the call repeats work
// (cache its result, convert once, reuse buffers across calls, reflect
// once per type): a call on what its function was given has no repeat to
// remove.
var repeatFixes = []string{cpuWords["other"][1], runLibraryFix, cpuWords["strings"][1], strconvFix, cpuWords["reflect"][1], reflectValueFix, searchFix}

// mathFix is the fix for a call of package math: arithmetic on what it
// is given.
const mathFix = "arithmetic on the values it is given, with nothing to cache while they vary: an argument that is the same on every call (a base, a constant of the caller's) can be taken out — its part computed once, in a package-level value, gives the same result"

// compareFix is the fix calleeWords gives a comparison of strings or
// bytes; comparatorFix the one for a comparison that is its function's
// job (a Less or Compare its caller, a tree or a sort, calls about
// log2 n times per operation): no index replaces it.
const (
	compareFix    = "compare less: an index (a map, or a sorted slice with binary search) instead of a linear scan, or compare a cheaper key first"
	comparatorFix = "the comparison is this comparator's job, and its caller (a tree, a sort) calls it about log2 n times per operation: make each call cheaper — the common case compared first and the rare ones (a type switch, flags) after it, or a comparator of its own for the collection that is hot — and keys that compare without chasing a pointer"
)

// isComparator reports whether a function's name says it compares two
// values for a tree or a sort: Less, Compare, less, cmp, …
func isComparator(fn string) bool {
	name := shortName(fn)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch strings.ToLower(name) {
	case "less", "compare", "cmp", "lessthan", "comparator", "lessfunc":
		return true
	}
	return false
}

// searchFix is the fix calleeWords gives a search of strings or bytes: it
// assumes the search repeats (searching again what was searched).
const searchFix = "search less: scan the input once, or keep the positions found instead of searching again"

// strconvFix is the fix calleeWords gives a strconv call.
const strconvFix = "convert once and keep the number (or the text); avoid converting the same value back and forth"

// callShape returns the shape named name of the call a line's cost is
// in: the only one at the line, or of several the one that calls the
// callee's method (big.(*Int).exp is the profile's name for Exp).
func (d *deriver) callShape(name string, l *document.LineCost) *document.Shape {
	var at []*document.Shape
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name == name && s.File == l.File && s.Line == l.Line {
			at = append(at, s)
		}
	}
	orig := pkgFunc(l.Callee)
	if i := strings.LastIndexByte(orig, '.'); i >= 0 {
		orig = orig[i+1:]
	}
	method := strings.ToLower(orig)
	for _, s := range at {
		call := s.Says
		for _, sep := range []string{" works on what ", " works on the state of ", " is given the same ", "'s inputs do not change ", " reads type information"} {
			call, _, _ = strings.Cut(call, sep)
		}
		// The profile may name an internal variant of the method
		// (reflect.valueInterface for Value.Interface,
		// utf8.decodeRuneInStringSlow for DecodeRuneInString).
		mOrig := outerCallee(call)
		if strings.HasPrefix(mOrig, "strconv.") && strings.HasPrefix(pkgFunc(l.Callee), "strconv.") {
			// strconv.AppendFloat runs as strconv.genericFtoa,
			// strconv.Itoa as formatBits: the line's conversion.
			return s
		}
		if i := strings.LastIndexByte(mOrig, '.'); i >= 0 {
			mOrig = mOrig[i+1:]
		}
		m := strings.ToLower(mOrig)
		if a, ok := stdImpl[m]; ok && a == method && anyIn(l.Callee, "internal/stringslite.", "internal/bytealg.", "strings.", "bytes.") {
			// strings.Contains runs as internal/stringslite.Index,
			// strings.ContainsRune as strings.IndexRune.
			m = a
		}
		if m != "" && (m == method || strings.HasSuffix(method, m) || len(m) >= 4 && strings.HasPrefix(method, m)) {
			return s
		}
		if m != "" && len(orig) > len(mOrig) && strings.HasPrefix(orig, mOrig) && orig[len(mOrig)] >= 'A' && orig[len(mOrig)] <= 'Z' {
			// The variant the call inlines to (a B-tree's Set
			// calling SetHint): the method's name and a word more.
			return s
		}
		if m == "" && len(at) == 1 {
			return s // a call the words cannot name: the line's only one
		}
	}
	return nil
}

// stdImpl names, by the lower-case name of a strings or bytes function,
// the function of internal/stringslite or internal/bytealg it runs as,
// which the profile shows in its place.
var stdImpl = map[string]string{"contains": "index", "containsrune": "indexrune", "containsany": "indexany", "cut": "index", "containsfunc": "indexfunc"}

// outerCallee returns the function a call's text calls, as written:
// "new(big.int).exp(sum, big.newint(k), nil)" → "new(big.int).exp". A
// text cut short ("strconv.ParseUint(strings.TrimLeft(s, "+"), …") is
// closed first.
func outerCallee(call string) string {
	if open := strings.Count(call, "(") - strings.Count(call, ")"); open > 0 {
		call += strings.Repeat(")", open)
	}
	depth := 0
	for i := len(call) - 1; i >= 0; i-- {
		switch call[i] {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return call[:i]
			}
		}
	}
	return call
}

// lineWords says what a line's call costs and the fix that fits it: the
// callee's words (calleeWords), or, for copies of pointers in a generic
// function instantiated with an interface, words about that
// instantiation.
func lineWords(l *document.LineCost, cat string) (what, fix string, specific bool) {
	what, fix = calleeWords(l.Callee, cat)
	if anyIn(l.Callee, "typedslicecopy", "typedmemmove", "bulkBarrierPreWrite", "wbMove") {
		if iface := interfaceShape(l.Function); iface != "" {
			// A generic function instantiated with an interface
			// element: the pointers are the interface's.
			fix = fmt.Sprintf("%s is instantiated here with an interface element (%s): every element copied is an interface value, a pointer the write barrier follows while the collector marks — inherent to the interface-based API; instantiated with a concrete, pointer-free type (the generic API with an int or a struct of numbers), the same copy is a plain memmove and the comparisons are direct calls", shortName(document.PlainFunc(l.Function)), iface)
			specific = true
		}
	}
	return what, fix, specific
}

// decodeFix is the advice for decoding a string's runes: the function's
// own work on its input.
const decodeFix = "decoding each rune of the input (a range over a string, utf8.DecodeRuneInString) is reading what the function is given, once: its own work on its input; where the input is mostly ASCII, a loop that handles bytes below utf8.RuneSelf without decoding is the lever"

// isRuneDecode reports whether callee decodes UTF-8 into runes: the
// runtime's range-over-string decoder or unicode/utf8's.
func isRuneDecode(callee string) bool {
	short := pkgFunc(callee)
	return short == "runtime.decoderune" || strings.HasPrefix(short, "utf8.DecodeRune") || strings.HasPrefix(short, "utf8.DecodeLastRune") || strings.HasPrefix(short, "utf8.decodeRune")
}

// interfaceShape returns the interface type argument a generic
// function's profile name shows it instantiated with ("interface {
// Less(Item) bool }" from "(*items[go.shape.interface { Less(….Item) bool
// }]).removeAt"), or "".
func interfaceShape(fn string) string {
	const p = "go.shape.interface {"
	i := strings.Index(fn, p)
	if i < 0 {
		return ""
	}
	j := strings.Index(fn[i:], "}")
	if j < 0 {
		return ""
	}
	return "interface {" + stripPkgPaths(fn[i+len(p):i+j]) + "}"
}

// stripPkgPaths shortens the package paths in a type's text to their
// last element: "github.com/google/btree.Item" → "btree.Item".
func stripPkgPaths(s string) string {
	var b strings.Builder
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != ' ' && s[i] != '(' && s[i] != ')' && s[i] != ',' {
			continue
		}
		tok := s[start:i]
		if k := strings.LastIndexByte(tok, '/'); k >= 0 {
			tok = tok[k+1:]
		}
		b.WriteString(tok)
		if i < len(s) {
			b.WriteByte(s[i])
		}
		start = i + 1
	}
	return b.String()
}

// calleeWords says what a line's call costs and the fix that usually fits,
// from the callee and its category.
func calleeWords(callee, cat string) (what, fix string) {
	short := pkgFunc(callee)
	switch {
	case isRuneDecode(callee):
		// A range over a string, or utf8.DecodeRuneInString: reading
		// the input's runes, not building strings.
		return "decoding UTF-8 (" + short + ")", decodeFix
	case isStackWalk(callee):
		return "walking the stack (" + short + ")", "walk the stack once per call site and cache the result by program counter, or make it optional on the hot path"
	case strings.HasPrefix(callee, "crypto/tls.(*Conn)."):
		// The connection the code writes to or reads from is TLS (a
		// transport its caller chose: yamux's benchmarks run every
		// session over one): sealing and opening records is the
		// transport's work.
		return "TLS record encryption (" + short + ")", tlsFix
	case cat != "syscall" && isReaderCall(callee):
		// Small reads through an interface: the bytes are often in
		// memory already, and each call moves a few of them.
		return "reading through an io.Reader (" + short + ")", "read fewer, larger pieces: decode from the []byte directly when the input is already in memory, or read a whole value per call instead of a few bytes"
	case anyIn(callee, "sync.(*Map).Load", "sync.(*HashTrieMap", "sync.(*Map).LoadOrStore"):
		// The lookup is the cache itself: caching its result again is
		// no advice.
		return "a sync.Map lookup (" + short + ")", syncMapFix
	case isDeferMachinery(callee):
		// A defer the compiler did not open-code, run through the
		// runtime at every exit.
		return "running defers through the runtime (" + short + ")", deferFix
	case strings.HasPrefix(short, "sync.(*Pool)."):
		// The pool is the reuse: caching its result again is no
		// advice.
		return "a sync.Pool's Get and Put (" + short + ")", poolFix
	case anyIn(short, "sync.(*RWMutex).Lock", "sync.(*RWMutex).Unlock", "sync.(*RWMutex).RLock", "sync.(*RWMutex).RUnlock"):
		// A lock round trip: there is no result to cache.
		return "taking and releasing a lock (" + short + ")", "a lock round trip per call costs its atomic operations, and an RWMutex's Lock and Unlock the reader count's besides: fewer round trips per operation (one lock where two are taken in turn), a sync.Mutex where the RWMutex is always taken exclusively, or state split so that calls do not share one lock"
	case anyIn(short, "sync.(*Mutex).Lock", "sync.(*Mutex).Unlock", "internal/sync.(*Mutex)."):
		return "taking and releasing a lock (" + short + ")", "a lock round trip per call costs its atomic operations: fewer round trips per operation (one lock where two are taken in turn), or state split so that calls do not share one lock"
	case isChanOp(callee):
		// A send or receive takes the channel's lock: nothing to cache.
		return "channel operations (" + short + ")", "each send and receive takes the channel's lock (and a select polls every case): a channel that only counts (empty tokens for a backlog or a semaphore) is an atomic counter's work; within one goroutine a slice does a queue's work without; across goroutines, fewer and larger items per send"
	case strings.HasPrefix(short, "math.") && !strings.HasPrefix(short, "math.rand") && !strings.HasPrefix(short, "math/"):
		// math.Log, math.Pow, math.archLog: arithmetic on the
		// arguments, which vary; "cache its result" does not fit.
		return "floating-point math (" + short + ")", mathFix
	case short == "time.Now":
		// A clock read per operation: caching "its result" is a stale
		// clock.
		return "reading the clock (" + short + ")", "read the clock once per operation and pass the time down; where only elapsed time matters, time.Since of one base time (a monotonic read); a coarse clock a ticker updates where its precision is enough"
	case anyIn(short, "runtime.ifaceeq", "runtime.efaceeq", "runtime.nilinterequal", "runtime.interequal"):
		// A switch or == on interface values (reflect.Type cases): each
		// comparison calls the runtime to compare type and data.
		return "comparing interface values (" + short + ")", "each == or switch case on an interface value compares its type and then its data through the runtime, case after case: decide first by something cheap (a Kind or type switch, a field), or one map lookup keyed by the value instead of a chain of comparisons"
	case short == "time.Since" || short == "time.Until":
		// Elapsed time from a clock read: the same "stale clock" as
		// caching time.Now.
		return "reading the clock (" + short + ")", "a clock read per call, which cannot be kept: read it once per operation and pass the time down, or compute what depends on it when it is needed rather than on every update"
	case strings.HasPrefix(callee, "math/rand.") || strings.HasPrefix(callee, "math/rand/v2."):
		// A random number: a cached one is no longer random.
		return "drawing random numbers (" + short + ")", "a random draw cannot be kept: draw fewer (one draw split into several values), or a cheaper generator held by the caller (math/rand/v2's PCG in the caller's state) instead of the package's shared source"
	case anyIn(callee, "reflect.Value.SetMapIndex"):
		// A store that copies its key and value into the map: not a
		// lookup, and the values it was given are free again after it.
		return "storing into a map through reflection (" + short + ")", "SetMapIndex copies the key and the value into the map, so one key and one value made once per map (reflect.New before the loop, SetZero between entries) can serve every entry instead of new ones per entry"
	case anyIn(callee, "reflect.(*MapIter)"):
		return "iterating a map through reflection (" + short + ")", "iter.Key() and iter.Value() copy every entry out, into a new allocation for values that are not a pointer: SetIterKey and SetIterValue copy into values you own (one reused when each entry is done with before the next, the elements of one slice made for all of them when they are kept); for the map types common here (map[string]any) a typed range over the map needs no reflection at all"
	case isReflectMake(short):
		// A value made through reflection is a value the code needs:
		// nothing about it recurs to cache.
		return "making values through reflection (" + short + ")", "the value is made through reflection because its type is known only at run time; its allocation is the value's, and stays wherever the value is kept: typed code for the types that are common here (a type switch before reflecting) makes it without reflection's overhead"
	case short == "sort.Slice" || short == "sort.SliceStable":
		// Its cost shows in reflection (the swapper), but it is a sort.
		return "sorting through reflection (" + short + ")", "sort the typed slice with slices.SortFunc (slices.Sort for a slice of strings or numbers): no reflection; and sort only where the order is needed"
	case anyIn(short, "reflect.funcLayout", "reflect.methodReceiver", "reflect.callMethod", "reflect.methodValueCall", "reflect.callReflect", "reflect.moveMakeFuncArgFrame"):
		// reflect's call machinery under a func value it made (a
		// method value from Value.Method(i).Interface(), MakeFunc):
		// every call pays it.
		return "calling through a function reflect made (" + short + ")", "each call of a method value made by reflect (Value.Method(i).Interface(), MakeFunc) goes through reflect's call machinery: call the method directly instead (an interface assertion, or a method expression called with the receiver)"
	case cat == "reflect" && reflectOnValues(callee):
		// Work on each value (boxing it, indexing it): a cache per
		// type keeps none of it.
		return "reflection on each value (" + short + ")", reflectValueFix
	case cat == "regexp" && !regexpCompiles(callee):
		// The match, not the compile: the pattern is compiled
		// already (a compile per call is a compile in the profile).
		return "regular expression matching (" + short + ")", regexpMatchFix
	case anyIn(short, "runtime.mapaccess", "runtime.mapassign", "runtime.mapdelete") && cat != "maps":
		// A map operation whose samples ended below it, in the hash
		// of a struct key (the category of the leaf): still a map
		// operation, never a result to cache.
		w := cpuWords["maps"]
		return w[0] + " (" + short + ")", w[1]
	case cat == "reflect" || cat == "fmt" || cat == "regexp" || cat == "sort" || cat == "maps" || cat == "encoding" || cat == "compression" || cat == "crypto" || cat == "syscall":
		w := cpuWords[cat]
		return w[0] + " (" + short + ")", w[1]
	case strings.HasPrefix(short, "strconv."):
		return "number conversion (" + short + ")", strconvFix
	case anyIn(callee, "memequal", "memeqbody", "cmpbody", "Compare", "EqualFold", "Equal"):
		return "comparing strings or bytes (" + short + ")", compareFix
	case anyIn(callee, "indexbyte", "IndexByte", "Index", "Contains", "Count", "memchr", "Cut", "Fields", "Split"):
		return "searching strings or bytes (" + short + ")", searchFix
	case anyIn(callee, "concatstring", "concatbyte"):
		return "string concatenation (" + short + ")", "build the string once: append the parts into a reused []byte, or a strings.Builder with Grow"
	case anyIn(callee, "typedslicecopy", "typedmemmove", "bulkBarrierPreWrite", "wbMove"):
		// Copying elements that hold pointers: an append or copy of a
		// slice of strings, interfaces or pointers, with the
		// collector's write barriers while it marks.
		return "copying values that hold pointers (" + short + ")", "copy less: an append or copy of elements with pointers (strings, interfaces, pointers) goes through the write barrier while the collector marks; copy only what changed, keep one slice and index it, or hold the elements by index instead of copying them"
	case anyIn(callee, "memmove", "Copy", "Builder", "Join", "Repeat", "Buffer"):
		return "copying bytes (" + short + ")", "copy less: write into the final buffer directly, reuse buffers, avoid converting between string and []byte"
	}
	if w, ok := cpuWords[cat]; ok && cat != "other" && cat != "application" {
		return w[0] + " (" + short + ")", w[1]
	}
	return short, cpuWords["other"][1]
}

// isChanOp reports whether callee is the runtime's implementation of a
// channel send, receive or select: what a module line that uses a
// channel calls.
func isChanOp(callee string) bool {
	return anyIn(callee, "runtime.chansend", "runtime.chanrecv", "runtime.selectnb", "runtime.selectgo", "runtime.closechan")
}

// isReaderCall reports whether callee reads through an io.Reader or an
// in-memory reader: io.ReadFull and io.ReadAtLeast, and the Read methods
// of bytes.Reader, bytes.Buffer, strings.Reader and bufio.Reader.
// isDirRead reports whether callee lists a directory or stats a path
// (fs.ReadDir, os.ReadDir, (*os.File).ReadDir, fs.Stat, os.Lstat …).
func isDirRead(callee string) bool {
	short := pkgFunc(callee)
	return anyIn(short, "fs.ReadDir", "os.ReadDir", "(*File).ReadDir", "(*File).Readdir", "fs.Stat", "os.Stat", "os.Lstat", "(*File).Stat", "fs.Glob", "fs.WalkDir", "filepath.WalkDir")
}

// dirReadFix is the advice for a walk's directory reads.
const dirReadFix = "listing a directory (or stating a path) is a walk's own job, system calls per directory that buffering does not batch: read each directory once (a pattern that lists one directory twice pays twice), and take an entry's type from its DirEntry instead of a Stat"

func isReaderCall(callee string) bool {
	short := pkgFunc(callee)
	if short == "io.ReadFull" || short == "io.ReadAtLeast" {
		return true
	}
	for _, r := range []string{"bytes.(*Reader).Read", "bytes.(*Buffer).Read", "strings.(*Reader).Read", "bufio.(*Reader).Read"} {
		if strings.Contains(callee, r) {
			return true
		}
	}
	return false
}

// calleeMech names what a runtime callee does, for the shapes that
// explain it: growing a slice, concatenating strings, copying bytes.
func calleeMech(callee string) string {
	switch {
	case isDeferMachinery(callee):
		return "defer"
	case strings.HasSuffix(callee, "growslice"):
		return "growslice"
	case anyIn(callee, "concatstring", "concatbyte"):
		return "concatenation"
	case anyIn(callee, "memmove", "Copy"):
		return "copying"
	}
	return ""
}

// deferFix is the fix for defers run through the runtime.
const deferFix = "the function's defers are not open-coded (a defer in a loop, more than 8, or return statements × defers over 15): each call records them and runs them through the runtime; do the deferred work explicitly at one exit (move the body with its returns into a function of its own), or cut the returns"

// isDeferMachinery reports whether callee is the runtime's code for
// defers that are not open-coded: recording them, and running them at
// the function's exit.
func isDeferMachinery(callee string) bool {
	return anyIn(callee, "runtime.deferreturn", "runtime.deferprocStack", "runtime.deferproc", "runtime.(*_panic).nextDefer", "runtime.(*_panic).start", "runtime.popDefer", "runtime.freedefer", "runtime.newdefer")
}

func anyIn(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func isStackWalk(callee string) bool {
	for _, s := range stackWalks {
		if callee == s {
			return true
		}
	}
	return false
}

// callDesc says what a line does: "calls sort.Slice".
func callDesc(l *document.LineCost) string {
	if l.Callee == "" {
		return "runs its own code"
	}
	return "calls " + pkgFunc(l.Callee)
}

// repeatedCalls finds one function calling the same callee from two or
// more lines, each at least repeatMin of the benchmark's CPU.
func (d *deriver) repeatedCalls(b *bench) {
	type key struct{ fn, callee string }
	calls := map[key][]*document.LineCost{}
	var order []key
	for _, l := range b.lines {
		if l.InTest || l.Callee == "" || l.Cum < d.t.RepeatMin || l.Category == "memory" || l.Category == "gc" {
			continue
		}
		k := key{document.PlainFunc(l.Function), document.PlainFunc(l.Callee)}
		if calls[k] == nil {
			order = append(order, k)
		}
		calls[k] = append(calls[k], l)
	}
	for _, k := range order {
		ls := calls[k]
		if len(ls) < 2 {
			continue
		}
		slices.SortFunc(ls, func(a, b *document.LineCost) int { return int(a.Line - b.Line) })
		if !sameArguments(ls, k.callee) {
			// Different arguments are different work, not a repeat.
			continue
		}
		if len(d.doc.Shapes) > 0 && !d.sameCallShape(ls) {
			// The matchers read the code and found no repeat here:
			// the calls are on exclusive branches, or their values
			// change between them.
			continue
		}
		c := d.find(document.KindRepeated, k.fn, k.callee)
		if c == nil {
			c = d.newCause(document.KindRepeated, k.callee, k.fn, ls[0].File, ls[0].Line)
			c.rule = document.RuleRepeatedCall
			c.mech("repeated-call")
			c.message = fmt.Sprintf("%s calls %s %d times on the same input", shortName(k.fn), pkgFunc(k.callee), len(ls))
			c.suggestion = fmt.Sprintf("call %s once and keep the result for the other uses", pkgFunc(k.callee))
			d.causes = append(d.causes, c)
		}
		cs := c.cost(b)
		total := 0.0
		for _, l := range ls {
			c.addLine(l.File, l.Line, l.Function, fmt.Sprintf("%s: %s of CPU in %s", strings.TrimSpace(l.Source), pct(l.Cum), b.name()))
			total += l.Cum
		}
		cs.CPUShare = max(cs.CPUShare, min(1, total))
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s called from %d lines of %s, %s in all", b.name(), pkgFunc(k.callee), len(ls), shortName(k.fn), pct(total)))
	}
}

// sameCallShape reports whether a same-call-repeated shape holds two of
// the lines.
func (d *deriver) sameCallShape(ls []*document.LineCost) bool {
	for _, s := range d.doc.Shapes {
		if s.Name != "same-call-repeated" {
			continue
		}
		at := map[string]bool{where(s.File, s.Line): true}
		for _, r := range s.Related {
			at[where(r.File, r.Line)] = true
		}
		n := 0
		for _, l := range ls {
			if at[where(l.File, l.Line)] {
				n++
			}
		}
		if n >= 2 {
			return true
		}
	}
	return false
}

// sameArguments reports whether the calls of callee on the lines read the
// same: the same argument text.
func sameArguments(ls []*document.LineCost, callee string) bool {
	name := shortName(callee)
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	args := ""
	for i, l := range ls {
		a := callArgs(l.Source, name)
		if a == "" {
			return false
		}
		if i == 0 {
			args = a
		} else if a != args {
			return false
		}
	}
	return true
}

// callArgs returns the argument text of the first call of name in src.
func callArgs(src, name string) string {
	i := strings.Index(src, name+"(")
	if i < 0 {
		return ""
	}
	depth := 0
	start := i + len(name)
	for j := start; j < len(src); j++ {
		switch src[j] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return src[start+1 : j]
			}
		}
	}
	return ""
}

// wrapper reports whether fn is one call of another module function, its
// result handed back (a wrapper-call shape): over the budget because the
// callee was inlined into it, so inlining it would only move that call.
func (d *deriver) wrapper(fn string) bool {
	for i := range d.doc.Shapes {
		if s := &d.doc.Shapes[i]; s.Name == "wrapper-call" && s.Function == fn {
			return true
		}
	}
	return false
}

// notInlined marks hot module functions the compiler did not inline
// because their cost is just over the budget: each call pays for the call.
func (d *deriver) notInlined(b *bench) {
	for _, ni := range d.doc.NotInlined {
		if float64(ni.Cost) > d.t.InlineNear*float64(ni.Budget) || strings.HasSuffix(ni.File, "_test.go") || !d.isModule(ni.Function) {
			continue
		}
		flat, cum := 0.0, 0.0
		for _, h := range d.doc.Hotspots {
			if h.Function == ni.Function && (h.Package == "" || h.Package == b.entry.Package) && h.Benchmark == b.name() {
				flat, cum = h.Flat, h.Cum
			}
		}
		if flat < d.t.CalleeBound*cum {
			// Its time is in what it calls (a hash's helper calling
			// the hash): each call does enough that the call's own
			// cost is a small part of it.
			continue
		}
		if flat < d.t.InlineHot || d.interfaceOnly(ni) || d.wrapper(ni.Function) || d.loopBound(b, ni.Function) || d.calledOnce(ni.Function, ni.File, ni.Line) {
			continue
		}
		c := d.hotFunc(ni.Function, ni.File, ni.Line)
		if over := ni.Cost - ni.Budget; over > 0 && (!c.notInlined || over < c.overBudget) {
			c.overBudget, c.budget = over, ni.Budget
		}
		c.notInlined = true
		c.mech("not-inlined")
		c.cost(b)
		// The call overhead is part of the function's own time, which
		// its own-code part counts; without one, half its flat time.
		c.addPart(b, part{kind: partNotInlined, what: "not inlined", fix: fmt.Sprintf("not inlined: its cost %d is over the compiler's budget of %d, so every call pays for the call", ni.Cost, ni.Budget)}, 0)
		hasOwn := false
		for _, p := range c.parts {
			hasOwn = hasOwn || p.kind == partOwn && p.share[b.key] > 0
		}
		if !hasOwn {
			c.addPart(b, ownPart(), d.t.NotInlinedOwn*flat)
		}
		c.addLine(ni.File, ni.Line, ni.Function, "declared here")
		c.addEvidence(fmt.Sprintf("compiler (-gcflags=-m): cannot inline %s: cost %d exceeds budget %d; CPU profile of %s: %s flat", shortName(ni.Function), ni.Cost, ni.Budget, b.name(), pct(flat)))
	}
}

// measuredInputs makes a cause of each measure-compared shape whose
// function b runs and whose measuring function costs b at least CPUMin
// (cumulative): the caller measures all of its input only to compare the
// measure with a bound, so the change is at its call, and what the
// measure costs in b is the call's (the profile's lines stop at the
// measuring function's own, the innermost module frames).
func (d *deriver) measuredInputs(b *bench) {
	for i := range d.doc.Shapes {
		s := &d.doc.Shapes[i]
		if s.Name != "measure-compared" || len(s.Related) == 0 || s.Related[0].Function == "" {
			continue
		}
		measure, caller := document.PlainFunc(s.Related[0].Function), document.PlainFunc(s.Function)
		var cum float64
		runs := false
		for _, h := range d.doc.Hotspots {
			if h.Benchmark != b.name() || h.Package != "" && h.Package != b.entry.Package {
				continue
			}
			switch document.PlainFunc(h.Function) {
			case measure:
				cum = h.Cum
			case caller:
				runs = true
			}
		}
		if !runs || cum < d.t.CPUMin {
			continue
		}
		c := d.hotFunc(caller, s.File, s.Line)
		c.addPart(b, part{kind: partCall, callee: shortName(measure), what: "measuring its whole input (" + shortName(measure) + ")", fix: s.Says + ": " + s.Advice, specific: true, joins: true, shape: s}, cum)
		if c.depAt == nil {
			c.depAt = map[string]string{}
		}
		c.depAt[shortName(measure)] = where(s.File, s.Line)
		c.addLine(s.File, s.Line, caller, fmt.Sprintf("calls %s: %s of CPU (cum) in %s", shortName(measure), pct(cum), b.name()))
		c.weigh(s.File, s.Line, cum)
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s %s cum; code at %s: %s", b.name(), shortName(measure), pct(cum), where(s.File, s.Line), s.Says))
	}
}

// depNotInlined returns the entry of a function of another module that
// the compiler did not inline for a cost just over its budget (InlineNear),
// nil for any other callee.
func (d *deriver) depNotInlined(callee string) *document.NotInlined {
	for i, ni := range d.doc.NotInlined {
		if ni.Dependency && ni.Function == callee && float64(ni.Cost) <= d.t.InlineNear*float64(ni.Budget) {
			return &d.doc.NotInlined[i]
		}
	}
	return nil
}

// depInlineFix is the change for a hot call of another module's function
// the compiler does not inline: the call's own cost is what is paid per
// call, so the fix is at the call, where the module can make it.
func (d *deriver) depInlineFix(l *document.LineCost, ni *document.NotInlined) string {
	name := shortName(ni.Function)
	per := "each call"
	if lp := d.loopAt(l.File, l.Line); lp != nil {
		per = fmt.Sprintf("each call, once per iteration of the loop at lines %d–%d,", lp.Line, lp.Related[0].Line)
	}
	return fmt.Sprintf("%s is another module's function the compiler does not inline (cost %d, over its budget of %d), so %s pays for a call: write its common case out at line %d (calling %s only for the rest), or build the program with PGO, which inlines a hot call like this one",
		name, ni.Cost, ni.Budget, per, l.Line, name)
}

// loopBound reports whether most of a function's own time in b is in
// its loops (the lines of "loop" shapes): each call runs a loop over its
// input, so what a call costs is amortized over the loop's iterations
// and inlining it removes next to nothing (a scanner's ugly(src, dst)
// called once per document).
func (d *deriver) loopBound(b *bench, fn string) bool {
	in, all := 0.0, 0.0
	for _, l := range b.lines {
		if l.Function != fn || l.Callee != "" {
			continue
		}
		all += l.Self
		if d.loopAt(l.File, l.Line) != nil {
			in += l.Self
		}
	}
	return all > 0 && in >= 0.5*all
}

// calledOnce reports whether a shape says the function is called once per
// call of the module's API (a called-once shape): not inlining it costs
// one call per operation, too little for advice.
func (d *deriver) calledOnce(fn, file string, line int64) bool {
	for _, s := range d.doc.Shapes {
		if s.Name == "called-once" && (document.PlainFunc(s.Function) == document.PlainFunc(fn) || file != "" && s.File == file && s.Line == line) {
			return true
		}
	}
	return false
}

// interfaceOnly reports whether a shape says the function is a method
// its package calls only through an interface: no call of it is static,
// so inlining advice does not fit it.
func (d *deriver) interfaceOnly(ni document.NotInlined) bool {
	for _, s := range d.doc.Shapes {
		if s.Name == "interface-only" && (document.PlainFunc(s.Function) == document.PlainFunc(ni.Function) || s.File == ni.File && s.Line == ni.Line) {
			return true
		}
	}
	return false
}

// dropInternalMicro removes from an algorithm-only cause the benchmarks
// that call its function directly from test code when the function is
// unexported: a micro-benchmark of an internal function measures its
// algorithm, which only the API that calls it can show to be worth
// changing. Those benchmarks are left alone instead.
// onlyInternal reports whether every benchmark a cause of an unexported
// function costs calls that function directly from test code, and the
// module has benchmarks of its exported API too: they do not reach it
// enough for a cost of its own (a table search the API answers from a
// lookup table, benchmarked by itself), so only those benchmarks measure
// its algorithm.
func (d *deriver) onlyInternal(c *cause) bool {
	if exported(c.fn) || len(c.benches) == 0 || !d.apiBenchmarks() {
		return false
	}
	for _, b := range c.benches {
		if b.entry.CallPath == nil || !d.calledFromTest(b, c.fn) {
			return false
		}
	}
	// Nor does any other benchmark's profile show it.
	for _, h := range d.doc.Hotspots {
		if outer(document.PlainFunc(h.Function)) != c.fn || h.Cum < d.t.OwnJoinMin {
			continue
		}
		if b := d.benchOf(h.Package, h.Benchmark); b != nil && (b.entry.CallPath == nil || !d.calledFromTest(b, c.fn)) {
			return false
		}
	}
	// Nor do its lines take OwnJoinMin of another benchmark's time
	// together (a few samples of a rarely taken path do not count).
	self := map[*bench]float64{}
	for _, l := range d.doc.Lines {
		if outer(document.PlainFunc(l.Function)) != c.fn {
			continue
		}
		if b := d.benchOf(l.Package, l.Benchmark); b != nil && (b.entry.CallPath == nil || !d.calledFromTest(b, c.fn)) {
			self[b] += l.Self
			if self[b] >= d.t.OwnJoinMin {
				return false
			}
		}
	}
	return true
}

// apiBenchmarks reports whether a benchmark of the module enters it at an
// exported function.
func (d *deriver) apiBenchmarks() bool {
	for _, b := range d.benches {
		if e := d.entryOf(b); e != "" && exported(e) {
			return true
		}
	}
	return false
}

func (d *deriver) dropInternalMicro(c *cause) {
	if exported(c.fn) {
		return
	}
	for k, b := range c.benches {
		if b.entry.CallPath == nil || !d.calledFromTest(b, c.fn) {
			continue
		}
		delete(c.costs, k)
		delete(c.benches, k)
		if d.micro == nil {
			d.micro = map[string]string{}
		}
		d.micro[k] = shortName(c.fn)
	}
}

// calledFromTest reports whether, on b's dominant call path, fn is called
// by the benchmark's own code.
func (d *deriver) calledFromTest(b *bench, fn string) bool {
	path := b.entry.CallPath.Functions
	for i := 1; i < len(path); i++ {
		if outer(document.PlainFunc(path[i])) != fn {
			continue
		}
		prev := path[i-1]
		return strings.Contains(prev, ".Benchmark") || d.testFunc(prev)
	}
	return false
}

// testFunc reports whether a function is the benchmarks' own code (in a
// _test.go file), as the line costs say.
func (d *deriver) testFunc(fn string) bool {
	for _, l := range d.doc.Lines {
		if l.Function == fn {
			return l.InTest
		}
	}
	return false
}

// dropEmpty removes the causes left without a benchmark.
func (d *deriver) dropEmpty() {
	out := d.causes[:0]
	for _, c := range d.causes {
		if len(c.costs) > 0 || c.section != document.SectionFix {
			out = append(out, c)
		}
	}
	d.causes = out
}

// weigh adds share to what a line of the cause costs, for mainLine.
func (c *cause) weigh(file string, line int64, share float64) {
	if c.lineShare == nil {
		c.lineShare = map[string]float64{}
	}
	c.lineShare[where(file, line)] += share
}

// mainLine makes the cause's costliest line its own, with costs compared
// in steps of rankBucket and ties going to the earlier line, so the line a
// report points at does not change with run-to-run noise.
func (c *cause) mainLine() {
	best, bestV := -1, -1.0
	for i, l := range c.lines {
		v := math.Round(c.lineShare[where(l.File, l.Line)] / c.t.RankBucket)
		if v > bestV || v == bestV && (l.File < c.lines[best].File || l.File == c.lines[best].File && l.Line < c.lines[best].Line) {
			best, bestV = i, v
		}
	}
	if best >= 0 {
		c.file, c.line = c.lines[best].File, c.lines[best].Line
	}
}

// ownPart is a function's own code as a part of its CPU cause.
func ownPart() part {
	return part{kind: partOwn, what: "its own code", fix: cpuWords["application"][1]}
}

// callsAvoided gives a call its shape names avoidable (string-compared:
// two values formatted only for their texts to be compared) what its
// callees cost in the benchmarks where it is the dominant path's caller
// of them: go-version's Compare calls String, which calls bytes, whose
// strconv.AppendInt and buffer growth are then Compare's cost in the
// comparison benchmarks, not a second cause ranked beside it. A callee's
// cause keeps the benchmarks that call it otherwise (String measured
// alone), and goes when none is left.
func (d *deriver) callsAvoided() {
	for _, c := range d.causes {
		for _, k := range c.avoided {
			b := d.byKey[k]
			if b == nil || b.entry.CallPath == nil {
				continue
			}
			path := b.entry.CallPath.Functions
			i := slices.Index(path, c.fn)
			if i < 0 {
				continue
			}
			below := path[i+1:]
			for _, o := range d.causes {
				cs := o.costs[k]
				if o == c || cs == nil || o.section != document.SectionFix || !slices.Contains(below, o.fn) {
					continue
				}
				to := c.cost(b)
				to.AllocsPerOp += cs.AllocsPerOp
				to.BytesPerOp += cs.BytesPerOp
				to.AllocShare = max(to.AllocShare, cs.AllocShare)
				c.addEvidence(fmt.Sprintf("%s: %s's cost under this call (%s of CPU) is the call's", b.name(), shortName(o.fn), pct(cs.CPUShare)))
				delete(o.costs, k)
				delete(o.benches, k)
			}
		}
	}
	d.causes = slices.DeleteFunc(d.causes, func(c *cause) bool {
		return c.section == document.SectionFix && len(c.costs) == 0 && len(c.benches) == 0 && c.kind != document.KindContention
	})
}

// stdHash reports whether callee is in one of the standard library's
// non-cryptographic hash packages (hash/maphash, hash/fnv, hash/crc32,
// hash/crc64, hash/adler32).
func stdHash(callee string) bool {
	for _, p := range []string{"hash/maphash.", "hash/fnv.", "hash/crc32.", "hash/crc64.", "hash/adler32."} {
		if strings.HasPrefix(document.PlainFunc(callee), p) {
			return true
		}
	}
	return false
}

// decodedAt reports whether an allocation at file:line is a value a
// decoder builds for its caller (see decodedValue): make(Int64, sz)
// stored through the pointer the decoder was given (*s = dst), a string
// copied into the caller's field (*(*string)(p) = string(s)). The
// runtime's time at such a line (makemap, slicebytetostring) is that
// value's making.
func (d *deriver) decodedAt(file string, line int64) bool {
	for i := range d.doc.Allocations {
		a := &d.doc.Allocations[i]
		if a.File == file && a.Line == line && a.Escape != nil && decodedValue(a, *a.Escape) {
			return true
		}
	}
	return false
}
