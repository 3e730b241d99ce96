package profiles

import (
	"cmp"
	"slices"
	"strings"
)

// LineCost is the CPU time a line of the module's own code decides: the
// time of the samples whose innermost module frame is the line (Self),
// split by the function the line calls into — its own code when Callee is
// "" — and the time below the call wherever the line is on the stack
// (Cum, which also counts callbacks into the module, so sort.Slice's cost
// at its call site includes the less function).
//
// This is the module frontier: time in the runtime and in other packages
// belongs to the module line that called them, the line the module can
// change. A _test.go line is a frontier too: the benchmark's own code.
type LineCost struct {
	Function string // full name of the function the line is in
	File     string // relative to the module root
	Line     int64
	InTest   bool
	// Callee is the function the line calls into (the first frame below
	// it that is not the module's), "" for the line's own code.
	Callee string
	// Category is the category of the time below the line
	// ("application" for its own code).
	Category string
	// Self and Cum are shares of the profile's total, as flat and cum are.
	Self, Cum float64
	// Alloc is the part of Self that is the runtime's allocator and
	// collector (categories memory and gc), whatever Category most of it
	// is in: a map assignment allocates when the map grows.
	Alloc float64
}

// Reach is the time of a function's own code (or of one callee below
// it, as LineCost splits it) on the stacks whose nearest changed frame,
// outward from the function's own frame, is one line: the changed
// line that makes the function run. A function a change did not touch
// can grow because a changed line now calls it more often; Reach says
// which line. Stacks with no changed frame have no Reach.
type Reach struct {
	Function string // full name of the innermost module frame's function
	Callee   string // as in LineCost: "" for the function's own code
	// AtFunction, AtFile and AtLine are the nearest changed frame.
	AtFunction, AtFile string
	AtLine             int64
	// Self is the share of the profile's total.
	Self float64
}

// reachKey is a function, a callee (-1: none) and a changed line.
type reachKey struct {
	fn, callee, at int32
}

// lineKey is a module line and the function it calls (-1: none).
type lineKey struct {
	line   int32
	callee int32
}

// lineCosts accumulates LineCosts over a profile's samples.
type lineCosts struct {
	self    map[lineKey]int64
	cum     map[lineKey]int64
	cat     map[lineKey]*[numClasses]int64
	seen    map[lineKey]int32 // sample stamp, so a recursive stack counts once
	reach   map[reachKey]int64
	changed []int8 // per line index: 0 not asked yet, 1 changed, 2 not
	module  int64  // samples with a non-test module frame
	callees int64  // samples where the benchmark calls out
}

func newLineCosts(int) *lineCosts {
	return &lineCosts{self: map[lineKey]int64{}, cum: map[lineKey]int64{},
		cat: map[lineKey]*[numClasses]int64{}, seen: map[lineKey]int32{}, reach: map[reachKey]int64{}}
}

// add counts one sample (stack leaf first, preemption frames trimmed);
// benchAt is the index of the outermost benchmark frame, or -1.
func (lc *lineCosts) add(ix *index, stack []frame, v int64, stamp int32, benchAt int) {
	inner := -1
	own := false
	for i, f := range stack {
		fn := &ix.funcs[f.fn]
		if !fn.module || fn.runtime {
			continue
		}
		if inner < 0 {
			inner = i
		}
		if !fn.inTest {
			own = true
		}
		// Cum: this module line calls into a non-module function.
		if i > 0 {
			below := &ix.funcs[stack[i-1].fn]
			if !below.module || below.runtime {
				if j := realCall(ix, stack, i); j >= 0 {
					k := lineKey{f.line, stack[j].fn}
					if lc.seen[k] != stamp {
						lc.seen[k] = stamp
						lc.cum[k] += v
					}
				}
			}
		}
	}
	if own {
		lc.module += v
	}
	if benchAt >= 0 {
		// The benchmark calls out when some frame below its innermost
		// frame is neither the runtime nor the benchmark itself.
		for i := 0; i < len(stack); i++ {
			fn := &ix.funcs[stack[i].fn]
			if fn.bench {
				break
			}
			if !fn.runtime {
				lc.callees += v
				break
			}
		}
	}
	if inner < 0 {
		return
	}
	k := lineKey{stack[inner].line, -1}
	cls := clsApplication
	if j := realCall(ix, stack, inner); j >= 0 {
		k.callee = stack[j].fn
		cls = ix.categorize(stack[:inner])
	}
	lc.self[k] += v
	if ix.opts.Changed != nil && !ix.funcs[stack[inner].fn].inTest {
		if at := lc.nearestChanged(ix, stack, inner); at >= 0 {
			lc.reach[reachKey{stack[inner].fn, k.callee, at}] += v
		}
	}
	if lc.cat[k] == nil {
		lc.cat[k] = new([numClasses]int64)
	}
	lc.cat[k][cls] += v
	if k.callee < 0 {
		// A line's own code: its cum is its self.
		lc.cum[k] += v
	}
}

// nearestChanged returns the line index of the first module frame at
// or outside stack[inner] whose line Options.Changed says changed, or -1.
func (lc *lineCosts) nearestChanged(ix *index, stack []frame, inner int) int32 {
	if lc.changed == nil {
		lc.changed = make([]int8, len(ix.lines))
	}
	for _, f := range stack[inner:] {
		if fn := &ix.funcs[f.fn]; !fn.module || fn.runtime {
			continue
		}
		if lc.changed[f.line] == 0 {
			ln := ix.lines[f.line]
			lc.changed[f.line] = 2
			if ix.opts.Changed(ix.relFile(ln.file), ln.line) {
				lc.changed[f.line] = 1
			}
		}
		if lc.changed[f.line] == 1 {
			return f.line
		}
	}
	return -1
}

// realCall returns the index of the first frame below stack[i] that is a
// call rather than code inlined into the line: code the compiler inlined
// (time.Duration.Microseconds, a small accessor) is the line's own work.
// It returns -1 when everything below is inlined.
func realCall(ix *index, stack []frame, i int) int {
	j := i - 1
	for j >= 0 && stack[j].inlined {
		if ix.funcs[stack[j].fn].module && !ix.funcs[stack[j].fn].runtime && j < i-1 {
			// Inlined library code calling back into the module's
			// inlined code (a range-over-func iterator and the loop's
			// body): the library call is the frame below the line.
			return i - 1
		}
		j--
	}
	if j >= 0 && ix.funcs[stack[j].fn].module && !ix.funcs[stack[j].fn].runtime {
		// Inlined library code calling back into the module (sort.Search
		// inlined, calling its less function): the library call is the
		// inlined frame.
		return i - 1
	}
	return j
}

// minLineShare is the smallest self or cum share a LineCost is kept at.
const minLineShare = 0.005

func (lc *lineCosts) finish(ix *index, c *CPU, total float64) {
	c.ModuleShare = float64(lc.module) / total
	c.CalleeShare = float64(lc.callees) / total
	keys := map[lineKey]bool{}
	for k := range lc.self {
		keys[k] = true
	}
	for k := range lc.cum {
		keys[k] = true
	}
	for k := range keys {
		self, cum := float64(lc.self[k])/total, float64(lc.cum[k])/total
		if self < minLineShare && cum < minLineShare {
			continue
		}
		ln := ix.lines[k.line]
		fn := ix.funcs[ln.fn]
		lcost := LineCost{Function: fn.name, File: ix.relFile(ln.file), Line: ln.line, InTest: fn.inTest,
			Self: self, Cum: cum, Category: CategoryApplication}
		if cs := lc.cat[k]; cs != nil {
			lcost.Alloc = float64(cs[clsMemory]+cs[clsGC]) / total
		}
		if k.callee >= 0 {
			callee := ix.funcs[k.callee]
			lcost.Callee = callee.name
			lcost.Category = classNames[callee.class]
			if cs := lc.cat[k]; cs != nil {
				best := -1
				for cls, v := range cs {
					if v > 0 && (best < 0 || v > cs[best]) {
						best = cls
					}
				}
				if best >= 0 {
					lcost.Category = classNames[best]
				}
			}
			if lcost.Category == CategoryOther && callee.class == generic {
				lcost.Category = CategoryOther
			}
		}
		c.Lines = append(c.Lines, lcost)
	}
	for k, v := range lc.reach {
		at := ix.lines[k.at]
		r := Reach{Function: ix.funcs[k.fn].name, AtFunction: ix.funcs[at.fn].name, AtFile: ix.relFile(at.file), AtLine: at.line, Self: float64(v) / total}
		if k.callee >= 0 {
			r.Callee = ix.funcs[k.callee].name
		}
		c.Reach = append(c.Reach, r)
	}
	slices.SortFunc(c.Reach, func(a, b Reach) int {
		return cmp.Or(cmp.Compare(b.Self, a.Self), strings.Compare(a.Function, b.Function), strings.Compare(a.Callee, b.Callee),
			strings.Compare(a.AtFile, b.AtFile), cmp.Compare(a.AtLine, b.AtLine))
	})
	slices.SortFunc(c.Lines, func(a, b LineCost) int {
		return cmp.Or(cmp.Compare(b.Cum, a.Cum), cmp.Compare(b.Self, a.Self),
			strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Callee, b.Callee))
	})
}
