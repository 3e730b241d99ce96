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
// spreads over many lines that each cost little.
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

// phases finds the dominant path's phases in t (nodes are the path) and
// their call lines and memory shares in p.
func phases(p *profile.Profile, ix *index, t *trie, nodes []int32, vi int, total float64) []Phase {
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
		benchAt := -1
		for i, f := range stack {
			if ix.funcs[f.fn].bench {
				benchAt = i
			}
		}
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
