package findings

import (
	"fmt"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// what a CPU category means at the line that calls into it, and the fix
// that usually fits.
var cpuWords = map[string][2]string{
	"sort":        {"sorting", "sort once and keep the order (or keep the data sorted as it is built); sort fewer elements, or skip the sort where order does not matter"},
	"fmt":         {"fmt formatting", "build the text with strconv.Append* into a reused []byte or a strings.Builder instead of fmt"},
	"reflect":     {"reflection", "reflect once and cache what it finds (per type), or use typed code"},
	"regexp":      {"regular expressions", "compile once (a package-level regexp.MustCompile), or replace the pattern with strings functions"},
	"maps":        {"map access", "fewer lookups (look up once and keep the value), a struct key instead of a built string, or a slice indexed by a small dense key"},
	"strings":     {"string building and copying", "reuse buffers: append into a reused []byte or a strings.Builder with Grow; avoid converting back and forth"},
	"encoding":    {"encoding and decoding", "the library or the format decides: a code-generated or hand-written encoder, a binary format, or encode less"},
	"compression": {"compression", "the library or the level decides: compare implementations and levels, or compress less"},
	"crypto":      {"hashing and cryptography", "the algorithm decides: a faster hash where security allows, hash once and keep the sum"},
	"syscall":     {"system calls", "buffer the I/O (bufio), batch writes, or read larger blocks"},
	"other":       {"library code", "call it less: cache its result, or do the work once per input"},
	"application": {"the module's own code", "the algorithm itself: look at the lines with go tool pprof -list before tuning"},
}

// stackWalks are callees whose cost is walking the goroutine's stack.
var stackWalks = []string{"runtime.Callers", "runtime.CallersFrames", "runtime.Caller", "runtime.(*Frames).Next", "runtime.FuncForPC", "runtime/debug.Stack"}

// lineCat is one module line's cost in one category, summed over the
// callees the profile names for it (a tail-calling assembly routine shows
// up under two names).
type lineCat struct {
	first     *document.LineCost // the costliest entry
	cum, self float64
}

// cpuCauses finds the CPU causes of one benchmark.
func (d *deriver) cpuCauses(b *bench) {
	var order []string
	byKey := map[string]*lineCat{}
	for _, l := range b.lines {
		if l.InTest || !d.isModule(l.Function) {
			continue
		}
		cat := l.Category
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
		lc.cum += l.Cum
		lc.self += l.Self
	}
	for _, k := range order {
		lc := byKey[k]
		l := lc.first
		cat := l.Category
		switch {
		case l.Callee == "":
			continue // a line's own code: see ownCode
		case lc.cum < cpuMin:
			continue
		case cat == "memory" || cat == "gc":
			continue // the allocation causes' time
		case cat == "scheduler" && !b.entry.Parallel:
			continue
		}
		what, fix := calleeWords(l.Callee, cat)
		kind := KindCPU
		switch cat {
		case "encoding", "compression", "crypto":
			kind = KindLibrary
		case "syscall":
			kind = KindIO
		case "scheduler":
			kind = KindContention
		}
		group := cat
		if isStackWalk(l.Callee) {
			group = "stack walk"
		}
		c := d.find(kind, plain(l.Function), group)
		if c == nil {
			c = newCause(kind, group, plain(l.Function), l.File, l.Line)
			c.suggestion = fix
			c.message = fmt.Sprintf("%s under %s", what, shortName(l.Function))
			d.causes = append(d.causes, c)
		}
		c.addLine(l.File, l.Line, l.Function, fmt.Sprintf("%s: %s of CPU (cum) in %s", callDesc(l), pct(lc.cum), b.name()))
		cs := c.cost(b)
		cs.CPUShare = min(1, cs.CPUShare+lc.cum)
		c.addEvidence(fmt.Sprintf("CPU profile of %s: %s %s (%s cum, %s with no module code below)", b.name(), where(l.File, l.Line), callDesc(l), pct(lc.cum), pct(lc.self)))
	}
	d.ownCode(b, order, byKey)
	d.repeatedCalls(b)
	d.notInlined(b)
}

// ownCode adds a function's own lines near a CPU cause of it to the cause
// (the loop around a comparison is the same cost), and makes the remaining
// clusters of hot own-code lines — the algorithm itself — causes of low
// severity.
func (d *deriver) ownCode(b *bench, order []string, byKey map[string]*lineCat) {
	type own struct {
		l    *document.LineCost
		self float64
	}
	byFn := map[string][]own{}
	var fns []string
	for _, k := range order {
		lc := byKey[k]
		if lc.first.Callee != "" {
			continue
		}
		fn := plain(lc.first.Function)
		if byFn[fn] == nil {
			fns = append(fns, fn)
		}
		byFn[fn] = append(byFn[fn], own{lc.first, lc.self})
	}
	for _, fn := range fns {
		lines := byFn[fn]
		slices.SortFunc(lines, func(a, b own) int { return int(a.l.Line - b.l.Line) })
		// Own lines within a few lines of a cause of the same function
		// join it.
		var rest []own
		for _, o := range lines {
			joined := false
			for _, c := range d.causes {
				if c.fn != fn || c.costs[b.key] == nil || c.lowOnly || c.kind == KindAlloc {
					continue
				}
				for _, cl := range c.lines {
					if cl.File == o.l.File && abs(cl.Line-o.l.Line) <= ownNear && o.self >= ownJoinMin {
						c.addLine(o.l.File, o.l.Line, fn, fmt.Sprintf("its own code: %s of CPU in %s", pct(o.self), b.name()))
						c.costs[b.key].CPUShare = min(1, c.costs[b.key].CPUShare+o.self)
						joined = true
						break
					}
				}
				if joined {
					break
				}
			}
			if !joined {
				rest = append(rest, o)
			}
		}
		// Clusters of nearby own lines.
		for i := 0; i < len(rest); {
			j, sum, top := i, rest[i].self, rest[i]
			for j+1 < len(rest) && rest[j+1].l.File == rest[j].l.File && rest[j+1].l.Line-rest[j].l.Line <= ownNear {
				j++
				sum += rest[j].self
				if rest[j].self > top.self {
					top = rest[j]
				}
			}
			if sum >= ownCodeMin {
				c := d.find(KindCPU, fn, fmt.Sprintf("own %d", top.l.Line))
				if c == nil {
					c = newCause(KindCPU, fmt.Sprintf("own %d", top.l.Line), fn, top.l.File, top.l.Line)
					c.lowOnly = true
					c.message = fmt.Sprintf("the module's own code in %s (its algorithm)", shortName(fn))
					c.suggestion = cpuWords["application"][1]
					d.causes = append(d.causes, c)
				}
				for _, o := range rest[i : j+1] {
					c.addLine(o.l.File, o.l.Line, fn, fmt.Sprintf("its own code: %s of CPU in %s", pct(o.self), b.name()))
				}
				cs := c.cost(b)
				cs.CPUShare = max(cs.CPUShare, min(1, sum))
				c.addEvidence(fmt.Sprintf("CPU profile of %s: lines %d–%d of %s run %s of the CPU in their own code", b.name(), rest[i].l.Line, rest[j].l.Line, shortName(fn), pct(sum)))
			}
			i = j + 1
		}
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// calleeWords says what a line's call costs and the fix that usually fits,
// from the callee and its category.
func calleeWords(callee, cat string) (what, fix string) {
	short := pkgFunc(callee)
	switch {
	case isStackWalk(callee):
		return "walking the stack (" + short + ")", "walk the stack once per call site and cache the result by program counter, or make it optional on the hot path"
	case strings.HasPrefix(callee, "strconv."):
		return "number conversion (" + short + ")", "convert once and keep the number (or the text); avoid converting the same value back and forth"
	case anyIn(callee, "memequal", "memeqbody", "cmpbody", "Compare", "EqualFold", "Equal"):
		return "comparing strings or bytes (" + short + ")", "compare less: an index (a map, or a sorted slice with binary search) instead of a linear scan, or compare a cheaper key first"
	case anyIn(callee, "indexbyte", "IndexByte", "Index", "Contains", "Count", "memchr", "Cut", "Fields", "Split"):
		return "searching strings or bytes (" + short + ")", "search less: scan the input once, or keep the positions found instead of searching again"
	case anyIn(callee, "memmove", "Copy", "Builder", "concat", "Join", "Repeat", "Buffer"):
		return "copying bytes (" + short + ")", "copy less: write into the final buffer directly, reuse buffers, avoid converting between string and []byte"
	}
	if w, ok := cpuWords[cat]; ok && cat != "other" && cat != "application" {
		return w[0] + " (" + short + ")", w[1]
	}
	return short, cpuWords["other"][1]
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
		if l.InTest || l.Callee == "" || l.Cum < repeatMin || l.Category == "memory" || l.Category == "gc" {
			continue
		}
		k := key{plain(l.Function), plain(l.Callee)}
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
		c := d.find(KindRepeated, k.fn, k.callee)
		if c == nil {
			c = newCause(KindRepeated, k.callee, k.fn, ls[0].File, ls[0].Line)
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

// notInlined finds hot module functions the compiler did not inline
// because their cost is just over the budget: each call pays for the call.
func (d *deriver) notInlined(b *bench) {
	for _, ni := range d.doc.NotInlined {
		if float64(ni.Cost) > inlineNear*float64(ni.Budget) {
			continue
		}
		flat := 0.0
		for _, h := range d.doc.Hotspots {
			if h.Function == ni.Function && (h.Package == "" || h.Package == b.entry.Package) && h.Benchmark == b.name() {
				flat = h.Flat
			}
		}
		if flat < inlineHot {
			continue
		}
		c := d.find(KindCPU, plain(ni.Function), "inline")
		if c == nil {
			c = newCause(KindCPU, "inline", plain(ni.Function), ni.File, ni.Line)
			c.message = fmt.Sprintf("%s is hot but not inlined: its cost %d is over the compiler's budget of %d, so every call pays for the call", shortName(ni.Function), ni.Cost, ni.Budget)
			c.suggestion = "bring it under the budget: move the rarely taken slow path into a separate function marked //go:noinline, or split the function, then check with go build -gcflags=-m that it inlines"
			c.addLine(ni.File, ni.Line, ni.Function, "")
			d.causes = append(d.causes, c)
		}
		cs := c.cost(b)
		// The call overhead is part of the function's own time.
		cs.CPUShare = max(cs.CPUShare, flat/2)
		c.addEvidence(fmt.Sprintf("compiler (-gcflags=-m): cannot inline %s: cost %d exceeds budget %d; CPU profile of %s: %s flat", shortName(ni.Function), ni.Cost, ni.Budget, b.name(), pct(flat)))
	}
}
