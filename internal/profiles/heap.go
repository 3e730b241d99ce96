package profiles

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Heap is what a heap profile says about a benchmark's allocations.
type Heap struct {
	// Bytes and Objects are the totals of alloc_space and alloc_objects:
	// everything allocated while the profile was on.
	Bytes, Objects int64
	// Sites holds every allocation site, by bytes, then objects,
	// descending.
	Sites []Site
	// TestBytes is the bytes allocated at sites in _test.go files, and
	// TestShare their share of Bytes.
	TestBytes int64
	TestShare float64
	// RuntimeBytes and RuntimeObjects are the runtime's own allocations
	// in the totals, samples with no frame outside it (a goroutine's or
	// an M's descriptor): the program's sites leave them out.
	RuntimeBytes, RuntimeObjects int64
}

// Site is a line that allocates.
type Site struct {
	Function string // full name of the function the line is in
	File     string // relative to the module root for the module's code
	Line     int64
	// Via is the function the line calls that allocated, when the
	// allocation is in a callee outside the runtime ("fmt.Sprintf"); the
	// heaviest one if there are several.
	Via string
	// CallerFile and CallerLine are the line the site's function was
	// inlined into, when it was (the heaviest such line); the compiler
	// reports an inlined copy's escape verdicts there.
	CallerFile string
	CallerLine int64
	// Parent is the module function that called the site's function on
	// most of its allocations ("" when none did): allocations of small
	// helpers made on one path from one caller belong together.
	// ParentFile and ParentLine are the line of Parent's heaviest call.
	Parent     string
	ParentFile string
	ParentLine int64
	// Alloc is the runtime function under the site that allocated most
	// ("runtime.growslice", "runtime.newobject",
	// "internal/runtime/maps.newTable"): what kind of allocation it is.
	Alloc string
	// Module reports whether the site is the measured module's code;
	// InTest whether it is in a _test.go file.
	Module, InTest bool
	Bytes, Objects int64
	// BytesShare and ObjectsShare are fractions of the profile's totals.
	BytesShare, ObjectsShare float64
}

// Top returns the union of the n sites with the most bytes and the n with
// the most objects, in Sites' order (by bytes).
func (h *Heap) Top(n int) []Site {
	byObj := slices.Clone(h.Sites)
	slices.SortStableFunc(byObj, func(a, b Site) int { return cmp.Compare(b.Objects, a.Objects) })
	type key struct {
		fn   string
		line int64
	}
	keep := map[key]bool{}
	for i := 0; i < n && i < len(byObj); i++ {
		keep[key{byObj[i].Function, byObj[i].Line}] = true
	}
	var top []Site
	for i, s := range h.Sites {
		if i < n || keep[key{s.Function, s.Line}] {
			top = append(top, s)
		}
	}
	return top
}

// AnalyzeHeap computes allocation sites and the test-code share from a heap
// profile's alloc_space and alloc_objects values.
func AnalyzeHeap(p *profile.Profile, opts Options) (*Heap, error) {
	bi, oi := sampleIndex(p, "alloc_space"), sampleIndex(p, "alloc_objects")
	if bi < 0 || oi < 0 {
		types := make([]string, len(p.SampleType))
		for i, st := range p.SampleType {
			types[i] = st.Type
		}
		return nil, fmt.Errorf("not a heap profile: no alloc_space and alloc_objects values (it has %s)", strings.Join(types, ", "))
	}
	ix := newIndex(p, opts)
	h := &Heap{}
	bytes := make([]int64, len(ix.lines))
	objects := make([]int64, len(ix.lines))
	// via holds, per site line and allocating function, the bytes;
	// callers, per inlined site line and the line it was inlined into.
	via := map[uint64]int64{}
	callers := map[uint64]int64{}
	allocs := map[uint64]int64{}
	parents := map[uint64]int64{}
	parentLines := map[uint64]int64{} // per site line and parent line
	var stack []frame
	for _, s := range p.Sample {
		b, o := s.Value[bi], s.Value[oi]
		if b == 0 && o == 0 {
			continue
		}
		stack = ix.stack(stack, s)
		if len(stack) == 0 || ix.untimed(stack) {
			continue
		}
		h.Bytes += b
		h.Objects += o
		site, alloc := -1, -1
		for i, f := range stack {
			fn := &ix.funcs[f.fn]
			if alloc < 0 && !fn.runtime {
				alloc = i
			}
			if fn.module {
				site = i
				break
			}
		}
		if site < 0 {
			if alloc < 0 {
				// The runtime's own allocation, with no frame outside
				// it (a goroutine's or an M's descriptor, a profiling
				// buffer): in the totals, as pprof counts it, but no
				// site of the program's.
				h.RuntimeBytes += b
				h.RuntimeObjects += o
				continue
			}
			site = alloc
		}
		ln := stack[site].line
		bytes[ln] += b
		objects[ln] += o
		if site > 0 && !ix.funcs[stack[site-1].fn].runtime {
			via[uint64(uint32(ln))<<32|uint64(uint32(stack[site-1].fn))] += b + o
		}
		// The runtime function that allocated: the innermost frame above
		// mallocgc, the one that says what kind of allocation it was.
		for i := 0; i < site; i++ {
			fn := &ix.funcs[stack[i].fn]
			if !fn.runtime || isMalloc(fn.name) {
				continue
			}
			allocs[uint64(uint32(ln))<<32|uint64(uint32(stack[i].fn))] += b + o
			break
		}
		// The module function that called the site's function.
		for i := site + 1; i < len(stack); i++ {
			fn := &ix.funcs[stack[i].fn]
			if stack[i].fn == stack[site].fn {
				continue
			}
			if fn.module && !fn.runtime && !fn.inTest {
				parents[uint64(uint32(ln))<<32|uint64(uint32(stack[i].fn))] += b + o
				parentLines[uint64(uint32(ln))<<32|uint64(uint32(stack[i].line))] += b + o
			}
			break
		}
		if stack[site].inlined && site+1 < len(stack) {
			callers[uint64(uint32(ln))<<32|uint64(uint32(stack[site+1].line))] += b + o
		}
	}
	if h.Bytes == 0 && h.Objects == 0 {
		return nil, fmt.Errorf("no allocations recorded (%d samples)", len(p.Sample))
	}
	bestVia, bestCaller := heaviest(via), heaviest(callers)
	bestAlloc, bestParent := heaviest(allocs), heaviest(parents)
	// The parent's heaviest call line: of the lines of the best parent
	// function only.
	for k := range parentLines {
		site, pl := int32(k>>32), int32(uint32(k))
		if p, ok := bestParent[site]; !ok || ix.lines[pl].fn != p {
			delete(parentLines, k)
		}
	}
	bestParentLine := heaviest(parentLines)
	for li, ln := range ix.lines {
		if bytes[li] == 0 && objects[li] == 0 {
			continue
		}
		fn := ix.funcs[ln.fn]
		s := Site{
			Function: fn.name, File: ix.relFile(ln.file), Line: ln.line,
			Module: fn.module, InTest: fn.inTest,
			Bytes: bytes[li], Objects: objects[li],
			BytesShare: share(bytes[li], h.Bytes), ObjectsShare: share(objects[li], h.Objects),
		}
		if v, ok := bestVia[int32(li)]; ok {
			s.Via = ix.funcs[v].name
		}
		if a, ok := bestAlloc[int32(li)]; ok {
			s.Alloc = ix.funcs[a].name
		}
		if p, ok := bestParent[int32(li)]; ok {
			s.Parent = ix.funcs[p].name
			if pl, ok := bestParentLine[int32(li)]; ok {
				s.ParentFile, s.ParentLine = ix.relFile(ix.lines[pl].file), ix.lines[pl].line
			}
		}
		if c, ok := bestCaller[int32(li)]; ok {
			cl := ix.lines[c]
			s.CallerFile, s.CallerLine = ix.relFile(cl.file), cl.line
		}
		if s.InTest {
			h.TestBytes += s.Bytes
		}
		h.Sites = append(h.Sites, s)
	}
	slices.SortFunc(h.Sites, func(a, b Site) int {
		return cmp.Or(cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(b.Objects, a.Objects),
			strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	h.TestShare = share(h.TestBytes, h.Bytes)
	return h, nil
}

func share(v, total int64) float64 {
	if total == 0 {
		return 0
	}
	return float64(v) / float64(total)
}

// isMalloc reports whether a runtime function is the allocator itself,
// which says nothing about what was allocated.
func isMalloc(name string) bool {
	switch name {
	case "runtime.mallocgc", "runtime.mallocgcSmallNoscan", "runtime.mallocgcSmallScanNoHeader",
		"runtime.mallocgcSmallScanHeader", "runtime.mallocgcLarge", "runtime.mallocgcTiny",
		"runtime.profilealloc", "runtime.mProf_Malloc", "runtime.(*mcache).nextFree", "runtime.(*mcache).refill":
		return true
	}
	return strings.HasPrefix(name, "runtime.mallocgc")
}

// heaviest returns, for each site line, the other index (a function or a
// line) it is paired with in the most bytes and objects: the keys of m are
// line<<32 | other. Ties go to the lower index, so the result does not
// depend on map order.
func heaviest(m map[uint64]int64) map[int32]int32 {
	best := map[int32]int32{}
	bestV := map[int32]int64{}
	for key, v := range m {
		ln, other := int32(key>>32), int32(uint32(key))
		if cur, ok := bestV[ln]; !ok || v > cur || v == cur && other < best[ln] {
			best[ln], bestV[ln] = other, v
		}
	}
	return best
}
