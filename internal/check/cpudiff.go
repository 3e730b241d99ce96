package check

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/profiles"
)

// cpuCauses returns the module code whose CPU time per op grew from BASE
// to HEAD: per function and callee (the time a function spends in its
// own code, or in one function it calls), share × sec/op on each side, so
// that a cause is what the change moved and not where HEAD is hottest.
// Lines move between revisions: BASE's lines are carried to HEAD's
// through the diff's hunks, and the cause names the line that grew most,
// a changed one when it carries at least half of that. A group is listed
// when it grew by 5% of BASE's time per op and by more than three
// standard errors of the two profiles' shares: a CPU profile of a second
// holds some hundred samples, and a share p of n samples moves by
// √(p(1−p)/n) from run to run.
//
// Growth in a function the change did not touch is charged to the changed
// line that makes it run: the nearest changed frame on HEAD's stacks
// through it (profiles.Reach), the functions named in one cause per such
// line. Growth no changed line reaches is "outside the diff", listed
// after every cause in the change.
func cpuCauses(base, head sideProfile, ch *Change) []document.Cause {
	if base.cpu == nil || head.cpu == nil || base.secOp <= 0 || head.secOp <= 0 {
		return nil
	}
	type key struct{ fn, callee string }
	groups := map[key]*cpuGroup{}
	get := func(l profiles.LineCost) *cpuGroup {
		k := key{document.PlainFunc(l.Function), document.PlainFunc(l.Callee)}
		g := groups[k]
		if g == nil {
			g = &cpuGroup{fn: l.Function, callee: k.callee, file: l.File, lines: map[int64]float64{}}
			groups[k] = g
		}
		return g
	}
	for _, l := range base.cpu.Lines {
		if l.InTest {
			continue
		}
		g := get(l)
		g.shareB += l.Self
		if hl, ok := ch.headLine(l.File, int(l.Line)); ok {
			g.lines[int64(hl)] -= l.Self * base.secOp
		}
	}
	for _, l := range head.cpu.Lines {
		if l.InTest {
			continue
		}
		g := get(l)
		g.shareH += l.Self
		g.file = l.File
		g.lines[l.Line] += l.Self * head.secOp
	}
	// A group's time per op is its share of the profile × sec/op; the
	// share of n samples varies as a binomial proportion, p(1−p)/n.
	variance := func(p, secOp float64, n int64) float64 {
		return secOp * secOp * p * (1 - min(p, 1)) / float64(max(n, 1))
	}
	for _, g := range groups {
		g.d = g.shareH*head.secOp - g.shareB*base.secOp
		g.sd = math.Sqrt(variance(g.shareB, base.secOp, base.cpu.Samples) + variance(g.shareH, head.secOp, head.cpu.Samples))
	}
	var gs []*cpuGroup
	for _, g := range groups {
		if cpuGrew(g.d, g.sd, base.secOp) {
			gs = append(gs, g)
		}
	}
	slices.SortFunc(gs, func(a, b *cpuGroup) int {
		return cmp.Or(cmp.Compare(b.d, a.d), cmp.Compare(a.fn, b.fn), cmp.Compare(a.callee, b.callee))
	})
	// A group in code the change touched is a cause at its own lines; a
	// group in untouched code is charged to the changed line its HEAD
	// stacks pass through most (several groups under one line make one
	// cause, their growth summed), or else listed apart, after the rest.
	type charged struct {
		cause document.Cause
		d     float64
		parts []*cpuGroup
	}
	var in, outside []*charged
	at := map[string]*charged{}
	for _, g := range gs {
		line, from, to, changed := g.region(ch)
		if changed > 0 || ch.inChangedFunc(g.fn) {
			msg := g.message(from, to)
			switch {
			case changed > 0 && from == to:
				msg += " (the line changed)"
			case changed > 0:
				msg += fmt.Sprintf(" (changed: %d)", changed)
			}
			in = append(in, &charged{cause: document.Cause{Kind: "cpu", File: g.file, Line: line, Function: g.fn, Message: msg, Changed: ch != nil}, d: g.d})
			continue
		}
		if r, ok := reachOf(head.cpu.Reach, g); ok {
			k := r.AtFile + ":" + fmt.Sprint(r.AtLine)
			c := at[k]
			if c == nil {
				c = &charged{cause: document.Cause{Kind: "cpu", File: r.AtFile, Line: r.AtLine, Function: r.AtFunction, Callee: shortName(g.fn), Changed: true}}
				at[k] = c
				in = append(in, c)
			}
			c.d += g.d
			c.parts = append(c.parts, g)
			continue
		}
		outside = append(outside, &charged{cause: document.Cause{Kind: "cpu", File: g.file, Line: line, Function: g.fn, Message: g.message(from, to), Outside: ch != nil}, d: g.d})
	}
	for _, c := range in {
		if len(c.parts) == 0 {
			continue
		}
		var names, amounts []string
		for _, g := range c.parts {
			n := shortName(g.fn)
			if g.callee != "" {
				n += " (in " + g.callee + ")"
			}
			if !slices.Contains(names, shortName(g.fn)) {
				names = append(names, shortName(g.fn))
			}
			amounts = append(amounts, fmt.Sprintf("+%s per op in %s", nanos(g.d), n))
		}
		c.cause.Message = fmt.Sprintf("now reaches %s, unchanged, which grew: %s", andList(names), strings.Join(amounts, ", "))
	}
	slices.SortStableFunc(in, func(a, b *charged) int { return cmp.Compare(b.d, a.d) })
	var out []document.Cause
	for _, c := range append(in, outside...) {
		if len(out) == 5 {
			break
		}
		out = append(out, c.cause)
	}
	return out
}

// reachOf returns the changed line that HEAD's stacks through a group's
// time pass most, if any does.
func reachOf(reach []profiles.Reach, g *cpuGroup) (profiles.Reach, bool) {
	type at struct {
		fn, file string
		line     int64
	}
	sum := map[at]float64{}
	var best at
	for _, r := range reach {
		if document.PlainFunc(r.Function) != document.PlainFunc(g.fn) || document.PlainFunc(r.Callee) != g.callee {
			continue
		}
		k := at{r.AtFunction, r.AtFile, r.AtLine}
		sum[k] += r.Self
		if sum[k] > sum[best] || sum[k] == sum[best] && (k.file < best.file || k.file == best.file && k.line < best.line) {
			best = k
		}
	}
	if sum[best] == 0 {
		return profiles.Reach{}, false
	}
	return profiles.Reach{AtFunction: best.fn, AtFile: best.file, AtLine: best.line, Self: sum[best]}, true
}

// shortName is a function's name without its package path:
// "example.com/m.(*Set).Scan" → "(*Set).Scan".
func shortName(fn string) string {
	fn = document.PlainFunc(fn)
	end := len(fn)
	if i := strings.IndexAny(fn, "(["); i >= 0 {
		end = i
	}
	slash := strings.LastIndexByte(fn[:end], '/')
	if i := strings.IndexByte(fn[slash+1:], '.'); i >= 0 {
		return fn[slash+1+i+1:]
	}
	return fn
}

// andList joins names as a sentence does: "a", "a and b", "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// message says where a group's time grew and by how much: "its own code:
// +8.0µs per op, most at lines 167–176" or "runtime.newobject: +9.7ns per
// op".
func (g *cpuGroup) message(from, to int64) string {
	what := "its own code"
	if g.callee != "" {
		what = g.callee
	}
	msg := fmt.Sprintf("%s: +%s per op", what, nanos(g.d))
	if from < to {
		msg += fmt.Sprintf(", most at lines %d–%d", from, to)
	}
	return msg
}

// cpuGroup is the time of one function in its own code, or in one
// callee, on both sides.
type cpuGroup struct {
	fn, callee, file string
	shareB, shareH   float64           // of each side's profile
	d, sd            float64           // growth in seconds per op, and its sampling error
	lines            map[int64]float64 // HEAD line → growth
}

// region returns the HEAD line of the group that grew most and the
// stretch of lines around it that grew too (neighbours up to three lines
// apart): with a hundred samples a second, which line of a loop gets them
// is chance, the loop is not. changed is a line of the stretch the change
// wrote (the first), or 0.
func (g *cpuGroup) region(ch *Change) (top, from, to, changed int64) {
	best := math.Inf(-1)
	var grew []int64
	for l, d := range g.lines {
		if d > best || d == best && l < top {
			top, best = l, d
		}
		if d > 0 {
			grew = append(grew, l)
		}
	}
	slices.Sort(grew)
	from, to = top, top
	if i, ok := slices.BinarySearch(grew, top); ok {
		lo, hi := i, i
		for lo > 0 && grew[lo]-grew[lo-1] <= 3 {
			lo--
		}
		for hi < len(grew)-1 && grew[hi+1]-grew[hi] <= 3 {
			hi++
		}
		from, to = grew[lo], grew[hi]
	}
	for l := from; l <= to; l++ {
		if ch.changedInHead(g.file, int(l)) {
			return top, from, to, l
		}
	}
	return top, from, to, 0
}

// cpuGrew reports whether a group of lines whose time per op grew by d,
// with a standard deviation sd, in a benchmark BASE runs in secOp per op,
// is a cause.
func cpuGrew(d, sd, secOp float64) bool {
	return d > 0 && d >= cuts.CPUGrowth*secOp && d > cuts.CPUSigmas*sd
}
