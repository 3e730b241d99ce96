package profiles

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// CPU is what a CPU profile says about where a benchmark's time went.
type CPU struct {
	// Unit is the unit of the values ("nanoseconds"), Total their sum
	// over every sample.
	Unit  string
	Total int64
	// Samples is the number of profiling samples (the "samples" value),
	// or of distinct stacks when the profile has no sample count.
	Samples  int64
	Duration time.Duration
	// Functions holds every function on any stack, by flat, then cum,
	// then name, descending.
	Functions []Function
	// Path is the dominant call path from the benchmark function down;
	// Phases what it fans out into, largest first (see Phase), when
	// Options.Phases asks for them.
	Path   Path
	Phases []Phase
	// Lines are the costs at the module's own lines, largest first (see
	// LineCost).
	Lines []LineCost
	// Reach is the module code's time by the nearest changed frame on
	// its stacks, when Options.Changed is set (see Reach).
	Reach []Reach
	// ModuleShare is the share of samples with a frame of the module's
	// own code outside _test.go files: near zero, the benchmark measures
	// none of the module.
	ModuleShare float64
	// CalleeShare is the share of samples in which the benchmark function
	// is running something other than its own code and the runtime: near
	// zero, its loop does no work.
	CalleeShare float64
	// Untimed is the value of the samples left out because they ran with
	// the benchmark's timer stopped (Options.Untimed); Total excludes it.
	Untimed int64
	// Categories holds each category with a share of the samples, largest
	// first.
	Categories []Category
}

// Function is one function's share of a CPU profile.
type Function struct {
	Name string // full name: "example.com/m.(*T).Find"
	// File and Line locate the function's hottest line; File is relative
	// to the module root for the module's own code.
	File string
	Line int64
	// Module reports whether the function is the measured module's code.
	Module bool
	// Flat is the value of the samples whose leaf is this function; Cum
	// of the samples with it anywhere on the stack.
	Flat, Cum           int64
	FlatShare, CumShare float64
}

// Path is a chain of calls, outermost first.
type Path struct {
	Frames []PathFrame
	// Share is the share of all samples that run the whole path (the cum
	// of its last frame along the path).
	Share float64
}

// PathFrame is one call in a Path.
type PathFrame struct {
	Function string // full name
	Short    string // as a person writes it: "Find", "runtime.mapaccess2_faststr"
	File     string
	Line     int64 // the line of the frame on this path that leads on
	// Share is the share of all samples that reach this frame along the
	// path.
	Share float64
}

// String writes the path as a person would: "Build → Find → rank".
func (p Path) String() string {
	names := make([]string, len(p.Frames))
	for i, f := range p.Frames {
		names[i] = f.Short
	}
	return strings.Join(names, " → ")
}

// Category is the share of CPU samples in one category.
type Category struct {
	Name  string // one of the Category* constants
	Value int64
	Share float64
}

// Top returns the union of the n functions with the most flat and the n
// with the most cum, in Functions' order (by flat).
func (c *CPU) Top(n int) []Function {
	byCum := slices.Clone(c.Functions)
	slices.SortStableFunc(byCum, func(a, b Function) int { return cmp.Compare(b.Cum, a.Cum) })
	keep := map[string]bool{}
	for i := 0; i < n && i < len(byCum); i++ {
		keep[byCum[i].Name] = true
	}
	var top []Function
	for i, f := range c.Functions {
		if i < n || keep[f.Name] {
			top = append(top, f)
		}
	}
	return top
}

// AnalyzeCPU computes hotspots, the dominant call path and categories from
// a CPU profile. It fails on a profile without samples.
func AnalyzeCPU(p *profile.Profile, opts Options) (*CPU, error) {
	if p.PeriodType != nil && p.PeriodType.Type != "cpu" && sampleIndex(p, "cpu") < 0 {
		return nil, fmt.Errorf("not a CPU profile (its period type is %s)", p.PeriodType.Type)
	}
	vi, err := cpuIndex(p)
	if err != nil {
		return nil, err
	}
	ix := newIndex(p, opts)
	c := &CPU{Unit: p.SampleType[vi].Unit, Duration: time.Duration(p.DurationNanos)}
	countIdx := sampleIndex(p, "samples")

	nf, nl := len(ix.funcs), len(ix.lines)
	flat := make([]int64, nf)
	cum := make([]int64, nf)
	lineCum := make([]int64, nl)
	// seen stamps the sample that last counted a function or line, so a
	// recursive stack counts it once without a per-sample set.
	seenFn := make([]int32, nf)
	seenLine := make([]int32, nl)
	var cats [numClasses]int64
	lc := newLineCosts(nl)
	t := newTrie()
	var stack []frame
	for si, s := range p.Sample {
		v := s.Value[vi]
		if countIdx >= 0 {
			c.Samples += s.Value[countIdx]
		} else {
			c.Samples++
		}
		stack = ix.stack(stack, s)
		if len(stack) == 0 {
			continue
		}
		if ix.untimed(stack) {
			c.Untimed += v
			continue
		}
		c.Total += v
		stamp := int32(si + 1)
		flat[stack[0].fn] += v
		benchAt := -1
		for i, f := range stack {
			if seenFn[f.fn] != stamp {
				seenFn[f.fn] = stamp
				cum[f.fn] += v
			}
			if seenLine[f.line] != stamp {
				seenLine[f.line] = stamp
				lineCum[f.line] += v
			}
			if ix.funcs[f.fn].bench {
				benchAt = i
			}
		}
		trimmed := ix.trimPreempt(stack)
		cats[ix.categorize(trimmed)] += v
		lc.add(ix, trimmed, v, stamp, benchAt)
		if benchAt >= 0 {
			t.add(ix.trimPreempt(stack[:benchAt+1]), v)
		}
	}
	if c.Total == 0 {
		if len(p.Sample) == 0 {
			return nil, ErrNoSamples
		}
		return nil, errors.New("all samples are zero")
	}

	// Each function's hottest line.
	hot := make([]int32, nf)
	for i := range hot {
		hot[i] = -1
	}
	for li, ln := range ix.lines {
		if h := hot[ln.fn]; h < 0 || lineCum[li] > lineCum[h] {
			hot[ln.fn] = int32(li)
		}
	}
	total := float64(c.Total)
	for fi, fn := range ix.funcs {
		if cum[fi] == 0 && flat[fi] == 0 {
			continue
		}
		f := Function{Name: fn.name, Module: fn.module, Flat: flat[fi], Cum: cum[fi],
			FlatShare: float64(flat[fi]) / total, CumShare: float64(cum[fi]) / total}
		if h := hot[fi]; h >= 0 {
			f.File, f.Line = ix.relFile(ix.lines[h].file), ix.lines[h].line
		}
		c.Functions = append(c.Functions, f)
	}
	slices.SortFunc(c.Functions, func(a, b Function) int {
		return cmp.Or(cmp.Compare(b.Flat, a.Flat), cmp.Compare(b.Cum, a.Cum), strings.Compare(a.Name, b.Name))
	})

	for cls, v := range cats {
		if v == 0 {
			continue
		}
		name := classNames[cls]
		if i := slices.IndexFunc(c.Categories, func(x Category) bool { return x.Name == name }); i >= 0 {
			c.Categories[i].Value += v
			c.Categories[i].Share = float64(c.Categories[i].Value) / total
			continue
		}
		c.Categories = append(c.Categories, Category{Name: name, Value: v, Share: float64(v) / total})
	}
	slices.SortFunc(c.Categories, func(a, b Category) int {
		return cmp.Or(cmp.Compare(b.Value, a.Value), strings.Compare(a.Name, b.Name))
	})

	dom := t.dominant()
	c.Path = callPath(p, ix, t, dom, vi, total)
	if opts.Phases {
		c.Phases = phases(p, ix, t, dom, vi, total)
	}
	lc.finish(ix, c, total)
	return c, nil
}

// trimPreempt drops the asynchronous-preemption frames from the leaf end
// of a stack: a sample there was taken while the function below them was
// being interrupted, and that function is where the path leads.
func (ix *index) trimPreempt(stack []frame) []frame {
	for len(stack) > 1 && ix.funcs[stack[0].fn].preempt {
		stack = stack[1:]
	}
	return stack
}

// trie is the call tree below the benchmark function, by function: node 0
// is a virtual root whose children are the outermost benchmark frames.
type trie struct {
	nodes    []trieNode
	children map[uint64]int32 // parent<<32 | function → child
}

type trieNode struct {
	fn        int32
	cum, flat int64
}

func newTrie() *trie {
	return &trie{nodes: []trieNode{{fn: -1}}, children: map[uint64]int32{}}
}

// add adds a stack (leaf first, ending at the outermost benchmark frame).
func (t *trie) add(stack []frame, v int64) {
	n := int32(0)
	t.nodes[0].cum += v
	for i := len(stack) - 1; i >= 0; i-- {
		key := uint64(uint32(n))<<32 | uint64(uint32(stack[i].fn))
		c, ok := t.children[key]
		if !ok {
			c = int32(len(t.nodes))
			t.nodes = append(t.nodes, trieNode{fn: stack[i].fn})
			t.children[key] = c
		}
		t.nodes[c].cum += v
		n = c
	}
	t.nodes[n].flat += v
}

// dominant returns the trie nodes of the dominant path: from the heaviest
// benchmark frame, it follows the callee with the most cum as long as that
// callee has at least half of the benchmark frame's cum, and stops where
// the time fans out (or stays in the frame's own code).
func (t *trie) dominant() []int32 {
	kids := make([][]int32, len(t.nodes))
	for key, c := range t.children {
		p := int32(key >> 32)
		kids[p] = append(kids[p], c)
	}
	var path []int32
	n := int32(0)
	for {
		best := int32(-1)
		for _, c := range kids[n] {
			// Ties go to the lower function index, so the path does not
			// depend on map order.
			if best < 0 || t.nodes[c].cum > t.nodes[best].cum ||
				t.nodes[c].cum == t.nodes[best].cum && t.nodes[c].fn < t.nodes[best].fn {
				best = c
			}
		}
		if best < 0 || len(path) > 0 && 2*t.nodes[best].cum < t.nodes[path[0]].cum {
			return path
		}
		path = append(path, best)
		n = best
	}
}

// callPath turns the trie nodes of a dominant path into a Path, with each
// frame's line: the line of that function, on stacks that follow the path
// that far, that carries the most value.
func callPath(p *profile.Profile, ix *index, t *trie, nodes []int32, vi int, total float64) Path {
	if len(nodes) == 0 {
		return Path{}
	}
	lineVal := make([]map[int32]int64, len(nodes))
	for i := range lineVal {
		lineVal[i] = map[int32]int64{}
	}
	var stack []frame
	for _, s := range p.Sample {
		stack = ix.stack(stack, s)
		benchAt := ix.benchAt(stack)
		if benchAt < 0 {
			continue
		}
		below := ix.trimPreempt(stack[:benchAt+1])
		for d, i := 0, len(below)-1; d < len(nodes) && i >= 0; d, i = d+1, i-1 {
			if below[i].fn != t.nodes[nodes[d]].fn {
				break
			}
			lineVal[d][below[i].line] += s.Value[vi]
		}
	}
	var path Path
	for d, n := range nodes {
		best, bestV := int32(-1), int64(-1)
		for l, v := range lineVal[d] {
			if v > bestV || v == bestV && l < best {
				best, bestV = l, v
			}
		}
		fn := ix.funcs[t.nodes[n].fn]
		pf := PathFrame{
			Function: fn.name,
			Short:    ShortName(fn.name, fn.module),
			Share:    float64(t.nodes[n].cum) / total,
		}
		if best >= 0 {
			pf.File, pf.Line = ix.relFile(ix.lines[best].file), ix.lines[best].line
		}
		path.Frames = append(path.Frames, pf)
		path.Share = pf.Share
	}
	return path
}

// ErrNoSamples is AnalyzeCPU's error for a profile with no sample: the
// run was too brief for the profiler's 100 samples a second.
var ErrNoSamples = errors.New("no samples (the benchmark ran too briefly to be sampled, or spent its time waiting: raise -benchtime, or see where it waits with -blockprofile)")

// Unsampled is the analysis of a CPU profile that holds no sample (the
// profile AnalyzeCPU answers with ErrNoSamples): the time the profile
// ran and no CPU time in it. Whether that says "waited" or "ran too
// briefly" depends on how long it ran, which is the caller's to weigh.
func Unsampled(p *profile.Profile) (*CPU, error) {
	if len(p.Sample) > 0 {
		return nil, errors.New("the profile has samples")
	}
	vi, err := cpuIndex(p)
	if err != nil {
		return nil, err
	}
	return &CPU{Unit: p.SampleType[vi].Unit, Duration: time.Duration(p.DurationNanos)}, nil
}

// benchAt returns the index of the outermost benchmark frame of stack
// (innermost first), or -1 when no benchmark function is on it.
func (ix *index) benchAt(stack []frame) int {
	at := -1
	for i, f := range stack {
		if ix.funcs[f.fn].bench {
			at = i
		}
	}
	return at
}
