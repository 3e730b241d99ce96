package profiles

import (
	"cmp"
	"maps"
	"slices"

	"github.com/google/pprof/profile"
)

// Phase is a part of the work that the dominant call path fans out into:
// a function of the module called from a frame on the path, whose share
// is its own (not nine tenths of the frame that calls it), which holds no
// deeper phase (a call on the path that fans out further is not one), and
// whose time no single module line carries more than half of (that is the
// line's cost).
// A program's run reads as its phases — the print and the simplify of a
// formatter, the kinds of statement its parser spends on — where its time
// spreads over many lines that each cost little. A function that many
// parts of the run call, off the path (a parser's word parsing, its
// lexer), is a phase too (see sharedPhases); Caller is then its costliest
// caller.
type Phase struct {
	Function string // full name of the called function
	Caller   string // full name of the path frame that calls it
	// File and Line are the call's line in Caller that carries the most
	// of it.
	File string
	Line int64
	// Share is the share of all samples under the call along the path;
	// MemoryShare the share of those in allocation and garbage
	// collection (the memory and gc categories).
	Share, MemoryShare float64
}

// phaseMin is the smallest share of a phase: smaller ones are lines'
// costs, not phases.
const phaseMin = 0.05

// phaseLine is the share of a phase's time at one module line above
// which the phase is that line's cost.
const phaseLine = 0.5

// phaseOwn is the share of its caller's time above which a callee is the
// caller's work continued, not a phase of its own.
const phaseOwn = 0.9

// phases finds the dominant path's phases (pathPhases) and the shared
// ones (sharedPhases), largest first.
func phases(p *profile.Profile, ix *index, t *trie, nodes []int32, vi int, total float64) []Phase {
	out := pathPhases(p, ix, t, nodes, vi, total)
	out = append(out, sharedPhases(p, ix, t, nodes, out, vi, total)...)
	slices.SortFunc(out, func(a, b Phase) int {
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Function, b.Function))
	})
	return out
}

// pathPhases finds the dominant path's phases in t (nodes are the path)
// and their call lines and memory shares in p.
func pathPhases(p *profile.Profile, ix *index, t *trie, nodes []int32, vi int, total float64) []Phase {
	if len(nodes) == 0 {
		return nil
	}
	type cand struct {
		depth int // the path frame that calls it
		node  int32
	}
	var cands []cand
	for d, n := range nodes {
		for key, c := range t.children {
			if int32(key>>32) != n || !ix.funcs[t.nodes[c].fn].module {
				continue
			}
			share := float64(t.nodes[c].cum) / total
			if share < phaseMin || float64(t.nodes[c].cum) >= phaseOwn*float64(t.nodes[n].cum) {
				continue
			}
			cands = append(cands, cand{d, c})
		}
	}
	if len(cands) == 0 {
		return nil
	}
	byChild := map[[2]int32]int{} // depth, function → index in cands
	for i, c := range cands {
		byChild[[2]int32{int32(c.depth), t.nodes[c.node].fn}] = i
	}
	lineVal := make([]map[int32]int64, len(cands))
	for i := range lineVal {
		lineVal[i] = map[int32]int64{}
	}
	memory := make([]int64, len(cands))
	// frontier is each phase's time by its innermost module line: a
	// phase that one line carries is that line's cost, not a phase.
	frontier := make([]map[int32]int64, len(cands))
	for i := range frontier {
		frontier[i] = map[int32]int64{}
	}
	var stack []frame
	for _, s := range p.Sample {
		stack = ix.stack(stack, s)
		benchAt := ix.benchAt(stack)
		if benchAt < 0 {
			continue
		}
		below := ix.trimPreempt(stack[:benchAt+1])
		cls := ix.categorize(ix.trimPreempt(stack))
		inner := int32(-1)
		for _, f := range ix.trimPreempt(stack) {
			if ix.funcs[f.fn].module {
				inner = f.line
				break
			}
		}
		for d, i := 0, len(below)-1; d < len(nodes) && i >= 0; d, i = d+1, i-1 {
			if below[i].fn != t.nodes[nodes[d]].fn {
				break
			}
			if i == 0 {
				break
			}
			if ci, ok := byChild[[2]int32{int32(d), below[i-1].fn}]; ok {
				lineVal[ci][below[i].line] += s.Value[vi]
				frontier[ci][inner] += s.Value[vi]
				if cls == clsMemory || cls == clsGC {
					memory[ci] += s.Value[vi]
				}
			}
		}
	}
	// A phase on the path holds the deeper ones: only the innermost
	// phases are kept, so each names work of its own.
	deepest := -1
	for _, c := range cands {
		deepest = max(deepest, c.depth)
	}
	var out []Phase
	for i, c := range cands {
		if onPath := c.depth+1 < len(nodes) && nodes[c.depth+1] == c.node; onPath && c.depth < deepest {
			continue
		}
		if vs := slices.Collect(maps.Values(frontier[i])); len(vs) > 0 && float64(slices.Max(vs)) > phaseLine*float64(t.nodes[c.node].cum) {
			continue
		}
		caller := ix.funcs[t.nodes[nodes[c.depth]].fn]
		ph := Phase{Function: ix.funcs[t.nodes[c.node].fn].name, Caller: caller.name,
			Share: float64(t.nodes[c.node].cum) / total}
		if cum := t.nodes[c.node].cum; cum > 0 {
			ph.MemoryShare = float64(memory[i]) / float64(cum)
		}
		best, bestV := int32(-1), int64(-1)
		for l, v := range lineVal[i] {
			if v > bestV || v == bestV && l < best {
				best, bestV = l, v
			}
		}
		if best >= 0 {
			ph.File, ph.Line = ix.relFile(ix.lines[best].file), ix.lines[best].line
		}
		out = append(out, ph)
	}
	slices.SortFunc(out, func(a, b Phase) int {
		return cmp.Or(cmp.Compare(b.Share, a.Share), cmp.Compare(a.Function, b.Function))
	})
	return out
}

// phaseInside is the share of a function's time inside another phase (or
// shared phase) above which it is part of that one, not a phase of its
// own.
const phaseInside = 0.8

// sharedPhases finds the module functions that many parts of the run
// call, off the dominant path: a parser's word parsing, its lexer, a
// comparison every sort and group calls. Such a function is a phase when
// its time (under every caller) is at least phaseMin of the run, it does
// not pass nine tenths of it on to one module callee (it would be that
// callee's wrapper), no single module line carries more than half of it,
// and not phaseInside of it is inside a path phase or inside another
// such function (the outermost of a nest is the phase).
func sharedPhases(p *profile.Profile, ix *index, t *trie, nodes []int32, known []Phase, vi int, total float64) []Phase {
	onPath := map[int32]bool{}
	for _, n := range nodes {
		onPath[t.nodes[n].fn] = true
	}
	isKnown := map[string]bool{}
	for _, ph := range known {
		isKnown[ph.Function] = true
	}
	// Each module function's time, once per sample, below the benchmark
	// frame.
	cum := map[int32]int64{}
	var stack []frame
	seen := map[int32]bool{}
	below := func(s *profile.Sample) []frame {
		stack = ix.stack(stack, s)
		benchAt := ix.benchAt(stack)
		if benchAt < 0 {
			return nil
		}
		return ix.trimPreempt(stack[:benchAt])
	}
	for _, s := range p.Sample {
		clear(seen)
		for _, f := range below(s) {
			if ix.funcs[f.fn].module && !seen[f.fn] {
				seen[f.fn] = true
				cum[f.fn] += s.Value[vi]
			}
		}
	}
	knownIdx := map[int32]bool{} // the path phases' functions
	cands := map[int32]int{}     // function → index in order
	var order []int32
	for fn, v := range cum {
		name := ix.funcs[fn].name
		if isKnown[name] {
			knownIdx[fn] = true
			continue
		}
		if float64(v) < phaseMin*total || onPath[fn] || ix.funcs[fn].inTest {
			continue
		}
		cands[fn] = len(order)
		order = append(order, fn)
	}
	if len(order) == 0 {
		return nil
	}
	slices.Sort(order) // a fixed order, whatever the map's
	for i, fn := range order {
		cands[fn] = i
	}
	n := len(order)
	inside := make([]map[int32]int64, n) // by the phase or candidate outside it
	next := make([]map[int32]int64, n)   // by its next module callee
	frontier := make([]map[int32]int64, n)
	callers := make([]map[int32]int64, n) // by its caller's line
	memory := make([]int64, n)
	for i := range n {
		inside[i], next[i], frontier[i], callers[i] = map[int32]int64{}, map[int32]int64{}, map[int32]int64{}, map[int32]int64{}
	}
	for _, s := range p.Sample {
		fr := below(s)
		if len(fr) == 0 {
			continue
		}
		v := s.Value[vi]
		cls := ix.categorize(ix.trimPreempt(stack))
		inner := int32(-1)
		for _, f := range fr {
			if ix.funcs[f.fn].module {
				inner = f.line
				break
			}
		}
		clear(seen)
		// Outermost first: fr is leaf first.
		for i := len(fr) - 1; i >= 0; i-- {
			ci, ok := cands[fr[i].fn]
			if !ok || seen[fr[i].fn] {
				continue
			}
			seen[fr[i].fn] = true
			frontier[ci][inner] += v
			if cls == clsMemory || cls == clsGC {
				memory[ci] += v
			}
			if i+1 < len(fr) {
				callers[ci][fr[i+1].line] += v
			}
			for j := i - 1; j >= 0; j-- {
				if ix.funcs[fr[j].fn].module {
					if fr[j].fn != fr[i].fn {
						next[ci][fr[j].fn] += v
					}
					break
				}
			}
			outer := map[int32]bool{}
			for j := len(fr) - 1; j > i; j-- {
				g := fr[j].fn
				if g == fr[i].fn || outer[g] {
					continue
				}
				if _, isCand := cands[g]; isCand || knownIdx[g] {
					outer[g] = true
					inside[ci][g] += v
				}
			}
		}
	}
	keep := make([]bool, n)
	for i, fn := range order {
		c := float64(cum[fn])
		keep[i] = true
		if vs := slices.Collect(maps.Values(next[i])); len(vs) > 0 && float64(slices.Max(vs)) >= phaseOwn*c {
			keep[i] = false // a wrapper of its callee
		}
		if vs := slices.Collect(maps.Values(frontier[i])); len(vs) > 0 && float64(slices.Max(vs)) > phaseLine*c {
			keep[i] = false // one line's cost
		}
	}
	var out []Phase
	for i, fn := range order {
		if !keep[i] {
			continue
		}
		c := float64(cum[fn])
		nested := false
		for g, v := range inside[i] {
			if float64(v) < phaseInside*c {
				continue
			}
			if knownIdx[g] {
				nested = true
			} else if gi, ok := cands[g]; ok && keep[gi] {
				nested = true
			}
		}
		if nested {
			continue
		}
		ph := Phase{Function: ix.funcs[fn].name, Share: c / total}
		if c > 0 {
			ph.MemoryShare = float64(memory[i]) / c
		}
		best, bestV := int32(-1), int64(-1)
		for l, v := range callers[i] {
			if v > bestV || v == bestV && l < best {
				best, bestV = l, v
			}
		}
		if best >= 0 {
			ln := ix.lines[best]
			ph.Caller = ix.funcs[ln.fn].name
			ph.File, ph.Line = ix.relFile(ln.file), ln.line
		}
		out = append(out, ph)
	}
	return out
}
