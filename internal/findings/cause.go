package findings

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// cause is a root cause being assembled: its lines, its costs per
// benchmark and its words.
type cause struct {
	// avoided are the benchmarks (by key) in which the cause is a call
	// its shape names avoidable (two texts built only to be compared),
	// for callsAvoided: what its callees cost there is this call's.
	avoided []string
	// ifaceInst is the interface type argument of the generic function
	// whose pointer copies the cause is ("interface { Less(btree.Item)
	// bool }"), for oneChange: the interface-based API's one change.
	ifaceInst string
	t         *Thresholds
	kind      document.Kind
	section   document.Section
	// rule is the rule that made the cause (the one that keeps its
	// words when causes merge).
	rule       document.Rule
	group      string // what merges candidates into one cause
	fn         string
	file       string
	line       int64
	lines      []document.Location
	costs      map[string]*document.Cost // by bench key
	benches    map[string]*bench
	message    string
	suggestion string
	// generic reports a suggestion from the cost's category, not from
	// the code at the line.
	generic  bool
	evidence []string
	// analyzers are the perfloop lint analyzers whose findings in the
	// benchmarks' source the cause stands for.
	analyzers []string
	inherent  bool
	// helper marks an unexported function's allocation of the value it
	// returns (see helperResult); helperFix is the advice of the
	// compiler's reason, kept for when no module caller takes it.
	helper    bool
	helperFix string
	// decoded marks an allocation of the decoded document's values in
	// a benchmark that decodes into the caller's value (see
	// decodedValue): the API's, whichever module function makes it.
	decoded bool
	// whole marks an API cost made in one allocation of its final size
	// though the compiler calls it an append (an Unmarshaler copying its
	// input into its receiver): no regrowth to fix.
	whole bool
	// lowOnly bounds the severity ("low" for a function's own algorithm).
	lowOnly bool
	// ownWork marks a cause whose advice says the code is its function's
	// own work on what it is given and names no change: ranked and
	// bounded as a function's own algorithm is.
	ownWork bool
	// parts are a function's CPU components (see finishCPU);
	// overBudget is how far over the inlining budget (budget) the
	// compiler's cost of a function it does not inline is.
	overBudget, budget int
	// notInlined marks a hot function the compiler does not inline.
	parts      []*part
	notInlined bool
	// unnamed marks a CPU cause led by its function's own code in no
	// shape, none of whose other parts names a change either (a lock or
	// a copy beside the loop, in their categories' words; the compiler's
	// verdict that it does not inline, when no shape names what to split
	// off): where the time goes, not a fix.
	unnamed bool
	// depCall is the callee of the joining part that leads a CPU
	// cause's advice (another module's function not inlined, see
	// depInlineFix; a measure taken only to compare it, see
	// measuredInputs); depAt maps each such callee to where the
	// function calls it.
	depCall string
	depAt   map[string]string
	// parents are the module functions that called the cause's function
	// where it allocated.
	parents map[string]float64
	// parentAt is the line of each parent's heaviest call.
	parentAt map[string]document.Location
	// lineShare is what each line costs, summed over benchmarks (see
	// mainLine).
	lineShare map[string]float64
	// inside marks the lines whose allocation is inside a callee, by
	// file:line: their note names the callee.
	inside map[string]bool
	// mechs are the mechanisms of its cost (see explains); shape is the
	// shape of code its advice comes from, if any.
	mechs  map[string]bool
	shape  *document.Shape
	shapes []document.Shape
	// atUnlock marks a lock cause named at an Unlock (the mutex
	// profile's site) until its Lock is seen.
	atUnlock bool
}

// markInside records that the allocation at file:line is inside a
// callee.
func (c *cause) markInside(file string, line int64) {
	if c.inside == nil {
		c.inside = map[string]bool{}
	}
	c.inside[where(file, line)] = true
}

func (d *deriver) newCause(kind document.Kind, group, fn, file string, line int64) *cause {
	return &cause{t: &d.t, kind: kind, section: document.SectionFix, group: group, fn: fn, file: file, line: line,
		costs: map[string]*document.Cost{}, benches: map[string]*bench{}}
}

// addLine records one more line of the cause.
func (c *cause) addLine(file string, line int64, fn, note string) {
	for i, l := range c.lines {
		if l.File == file && l.Line == line {
			if c.lines[i].Note == "" {
				c.lines[i].Note = note
			}
			return
		}
	}
	c.lines = append(c.lines, document.Location{File: file, Line: line, Function: fn, Note: note})
}

func (c *cause) hasLine(file string, line int64) bool {
	for _, l := range c.lines {
		if l.File == file && l.Line == line {
			return true
		}
	}
	return false
}

// cost returns the cause's cost record for b.
func (c *cause) cost(b *bench) *document.Cost {
	k := b.key
	if c.costs[k] == nil {
		c.costs[k] = &document.Cost{Benchmark: b.name(), SecPerOp: b.secPerOp}
		c.benches[k] = b
	}
	return c.costs[k]
}

func (c *cause) addEvidence(e string) {
	if e != "" && !slices.Contains(c.evidence, e) {
		c.evidence = append(c.evidence, e)
	}
}

// impact is the cause's largest weighted CPU share over its benchmarks,
// and that benchmark.
func (c *cause) impact() (float64, *bench) {
	best, bb := -1.0, (*bench)(nil)
	keys := c.benchKeys()
	for _, k := range keys {
		v := c.costs[k].CPUShare * c.benches[k].weight
		if c.inherent {
			v *= c.t.InherentFactor
		}
		if v > best {
			best, bb = v, c.benches[k]
		}
	}
	return max(best, 0), bb
}

// impactError is the standard error of the cause's impact: the binomial
// error of its CPU share in the benchmark that decides the impact,
// weighted as the impact is; 0 when the profile's sample count is not
// known.
func (c *cause) impactError() float64 {
	_, top := c.impact()
	if top == nil || top.entry == nil || top.entry.CPUSamples <= 0 {
		return 0
	}
	p := min(max(c.costs[top.key].CPUShare, 0), 1)
	se := max(math.Sqrt(p*(1-p)/float64(top.entry.CPUSamples)), c.t.RankRel*p) * top.weight
	if c.inherent {
		se *= c.t.InherentFactor
	}
	return se
}

// allocs is the cause's largest allocations per op: a tie-breaker that
// does not vary from run to run.
func (c *cause) allocs() float64 {
	m := 0.0
	for _, cs := range c.costs {
		m = max(m, cs.AllocsPerOp)
	}
	return m
}

// spread is the sum of the cause's CPU shares over its benchmarks, each
// weighed as the ranking weighs it.
func (c *cause) spread() float64 {
	sum := 0.0
	for k, cs := range c.costs {
		w := 1.0
		if b := c.benches[k]; b != nil && b.weight > 0 {
			w = b.weight
		}
		sum += cs.CPUShare * w
	}
	return sum
}

// peak is the cause's largest share of one benchmark's CPU, whatever
// the benchmark's weight: what its profile shows of it at most.
func (c *cause) peak() float64 {
	most := 0.0
	for _, cs := range c.costs {
		most = max(most, cs.CPUShare)
	}
	return most
}

func (c *cause) benchKeys() []string {
	keys := make([]string, 0, len(c.costs))
	for k := range c.costs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// finding renders the cause as a document.Finding.
func (c *cause) finding() document.Finding {
	impact, top := c.impact()
	f := document.Finding{
		Kind: c.kind, Rule: c.rule, Section: c.section, Function: c.fn, File: c.file, Line: c.line,
		Message: c.message, Suggestion: c.suggestion, Generic: c.generic, Impact: impact, Evidence: c.evidence,
	}
	if c.shape != nil {
		f.Shape = c.shape.Name
	}
	for _, s := range c.shapes {
		f.Shapes = append(f.Shapes, s.Ref())
	}
	f.Severity = c.t.severity(impact)
	if (c.lowOnly || c.ownWork || c.section == document.SectionAPI) && f.Severity != document.SeverityInfo {
		f.Severity = document.SeverityLow
	}
	if top != nil {
		f.Benchmark = top.name()
	}
	keys := c.benchKeys()
	// Costliest benchmark first.
	slices.SortStableFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(c.costs[b].CPUShare, c.costs[a].CPUShare), strings.Compare(a, b))
	})
	for _, k := range keys {
		f.Benchmarks = append(f.Benchmarks, c.benches[k].name())
		f.Costs = append(f.Costs, *c.costs[k])
	}
	for _, l := range c.lines {
		if l.File == c.file && l.Line == c.line {
			continue
		}
		f.Related = append(f.Related, l)
	}
	slices.SortFunc(f.Related, func(a, b document.Location) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	f.Gain = c.gain(top)
	return f
}

// gain says what removing the cause should buy in its costliest
// benchmark.
func (c *cause) gain(top *bench) string {
	if top == nil || c.section != document.SectionFix {
		return ""
	}
	cs := c.costs[top.key]
	var parts []string
	if cs.AllocsPerOp > 0 {
		parts = append(parts, fmt.Sprintf("−%s allocs/op and −%s/op", num(cs.AllocsPerOp), bytesText(cs.BytesPerOp)))
	}
	if cs.CPUShare >= c.t.GainMin {
		t := fmt.Sprintf("up to %s of its time", pct(cs.CPUShare))
		if top.hasSec && top.secPerOp > 0 {
			t += fmt.Sprintf(" (≈%s/op of %s/op)", duration(cs.CPUShare*top.secPerOp), duration(top.secPerOp))
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return ""
	}
	g := strings.Join(parts, ", ") + " in " + top.name()
	if c.kind == document.KindRepeated {
		g = "about half of that: " + g
	}
	if n := len(c.costs); n > 1 {
		g += fmt.Sprintf(", and less in %d other benchmark%s", n-1, plural(n-1))
	}
	return g
}

func (t *Thresholds) severity(impact float64) document.Severity {
	switch {
	case impact >= t.SevHigh:
		return document.SeverityHigh
	case impact >= t.SevMedium:
		return document.SeverityMedium
	case impact > 0:
		return document.SeverityLow
	}
	return document.SeverityInfo
}

func pct(x float64) string {
	if x > 0 && x < 0.01 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", x*100)
}

// num formats a count per op: integers plainly, fractions with two
// significant digits.
func num(x float64) string {
	if x >= 10 || x == float64(int64(x)) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.2g", x)
}

// duration formats seconds the way benchmarks print them.
func duration(sec float64) string {
	switch {
	case sec < 1e-6:
		return fmt.Sprintf("%.3gns", sec*1e9)
	case sec < 1e-3:
		return fmt.Sprintf("%.3gµs", sec*1e6)
	case sec < 1:
		return fmt.Sprintf("%.3gms", sec*1e3)
	}
	return fmt.Sprintf("%.3gs", sec)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// shortName drops the import path: "example.com/m.(*T).Add" → "(*T).Add".
func shortName(fn string) string {
	fn = document.PlainFunc(fn)
	if pkg, after := document.SplitFunc(fn); pkg != "" {
		if lit, ok := strings.CutPrefix(after, "init.func"); ok && isDigits(lit) {
			return "a package-level func literal (" + after + ")"
		}
		return after
	}
	return fn[strings.LastIndex(fn, "/")+1:]
}

// pkgFunc drops the import path but keeps the package:
// "example.com/m.(*T).Add" → "m.(*T).Add".
func pkgFunc(fn string) string {
	fn = document.PlainFunc(fn)
	return fn[strings.LastIndex(fn, "/")+1:]
}

func where(file string, line int64) string {
	if line <= 0 {
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// bytesText formats a byte count the way people read it: "53 B",
// "2.2 MiB".
func bytesText(b float64) string {
	const unit = 1024
	if b < unit {
		return num(b) + " B"
	}
	v, i := b, 0
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	return fmt.Sprintf("%.3g %s", v, []string{"B", "KiB", "MiB", "GiB"}[i])
}
