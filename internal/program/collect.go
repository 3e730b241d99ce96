package program

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perfloop/perfloop/internal/profiles"
)

// How a program ended, as the wrapper's end marker says or its absence
// implies.
const (
	EndReturn = "return" // main returned
	EndPanic  = "panic"  // main's goroutine panicked
	EndSignal = "signal" // SIGINT or SIGTERM, caught, profiles written
	// EndExit is os.Exit: in the module's code, caught by the exit hook
	// (profiles written, nothing lost), or without a marker: os.Exit in
	// another module's code, a crash off the main goroutine, or a signal
	// not caught (the segment under way is lost).
	EndExit = "exit"
)

// Collected is what one run of a wrapped program left in its directory.
type Collected struct {
	// CPU is the segments merged, with the wrapper's own frames and
	// samples taken out (nil when there is no segment).
	CPU *profile.Profile
	// Heap is the last heap profile written, cleaned as CPU (nil when
	// there is none).
	Heap *profile.Profile
	// Segments is how many CPU segments were complete.
	Segments int
	// Lost reports that a segment under way was lost (the program ended
	// without the wrapper's help).
	Lost bool
	// End is how the program ended (the End* constants); Signal names the
	// signal of EndSignal.
	End, Signal string
	// Hooked says the program called os.Exit in the module's code and the
	// exit hook wrote every profile first (End is EndExit).
	Hooked bool
	// CPUOff says why the wrapper stopped CPU profiling (the program runs
	// its own), or "".
	CPUOff string
	// AllocBytes and AllocObjects are what the program allocated up to
	// the moment Heap was written: the runtime's exact count (TotalAlloc,
	// Mallocs) less the wrapper's own allocations (counted around its
	// writes) and the CPU profile writer's (the heap profile's estimate).
	// Both are 0 when the wrapper wrote no count.
	AllocBytes, AllocObjects int64
	// ProfilerBytes and ProfilerObjects are what was taken off the
	// runtime's count: the wrapper's own allocations and the CPU profile
	// writer's (more segments, more of them: a run slowed down by a busy
	// machine writes more).
	ProfilerBytes, ProfilerObjects int64
	// PeakRSS is the program's peak resident set in bytes, as it read it
	// (VmHWM) last, or 0.
	PeakRSS int64
	// FinalCollection is how long the collection before the final heap
	// profile took (the wall time of runtime.GC in the program), or 0
	// when the wrapper did not finish the run or wrote no heap profile.
	// It marks the whole live heap: on a program that holds much when it
	// ends, it is most of what perfloop run costs.
	FinalCollection time.Duration
	// FinalGC is what the wrapper did before the final heap profile:
	// FinalGCCollected, FinalGCSkipped, or the user's
	// FinalGCOn or FinalGCOff; "" when it did not finish the run or
	// wrote no heap profile. FinalGCCost is its estimate of what one more
	// collection cost as a share of the run's CPU time (see the wrapper's
	// perfloopFinalGC).
	FinalGC     string
	FinalGCCost float64
	// HeapBytes is the bytes allocated that Heap holds (its alloc_space
	// total): all of AllocBytes, within its sampling, after a final
	// collection; without one, what the runtime had published by the
	// end of the run's last cycles but one.
	HeapBytes int64
}

// What the wrapper did before the final heap profile (Collected.FinalGC).
const (
	FinalGCCollected = "collected" // collected: its estimated cost was small
	FinalGCSkipped   = "skipped"   // too costly: the profile is of the cycles completed
	FinalGCOn        = "on"        // -finalgc on: collected
	FinalGCOff       = "off"       // -finalgc off: no collection
)

// Collect reads the profiles a wrapped program wrote into dir, merges the
// CPU segments and takes the wrapper out of every profile (see Clean).
func Collect(dir string) (*Collected, error) {
	c := &Collected{End: EndExit}
	if b, err := os.ReadFile(filepath.Join(dir, "end")); err == nil {
		how := string(b)
		switch {
		case how == EndReturn, how == EndPanic:
			c.End = how
		case strings.HasPrefix(how, "signal "):
			c.End, c.Signal = EndSignal, strings.TrimPrefix(how, "signal ")
		case strings.HasPrefix(how, "exit "):
			c.End, c.Hooked = EndExit, true
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cpu-off")); err == nil {
		c.CPUOff = string(b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "peak-rss")); err == nil {
		c.PeakRSS = parseVmHWM(b)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "collected")); err == nil {
		// "NANOSECONDS DECISION COST"
		f := strings.Fields(string(b))
		if len(f) > 0 {
			if ns, err := strconv.ParseInt(f[0], 10, 64); err == nil && ns > 0 {
				c.FinalCollection = time.Duration(ns)
			}
		}
		if len(f) > 2 {
			c.FinalGC = f[1]
			if cost, err := strconv.ParseFloat(f[2], 64); err == nil && cost >= 0 {
				c.FinalGCCost = cost
			}
		}
	}
	segs, err := filepath.Glob(filepath.Join(dir, "cpu-*.pprof"))
	if err != nil {
		return nil, err
	}
	// A segment under way when the program died is a .part file; os.Exit
	// in the instant between two segments leaves none, and loses at most
	// that instant.
	parts, _ := filepath.Glob(filepath.Join(dir, "cpu-*.pprof.part"))
	c.Lost = len(parts) > 0 || (c.End == EndExit && !c.Hooked && c.CPUOff == "" && len(segs) > 0)
	sort.Strings(segs)
	c.Segments = len(segs)
	if len(segs) > 0 {
		cpu, err := MergeSegments(segs)
		if err != nil {
			return nil, err
		}
		c.CPU = Clean(cpu, true)
	}
	var writerBytes, writerObjects int64
	heapPath := filepath.Join(dir, "heap.pprof")
	if _, err := os.Stat(heapPath); err == nil {
		h, err := readProfile(heapPath)
		if err != nil {
			return nil, err
		}
		// The CPU profile's writer goroutine allocates (it compresses
		// the profile) while the program runs; its objects are large,
		// so the heap profile's estimate of them is close.
		writerBytes, writerObjects = allocTotals(h, "runtime/pprof.profileWriter")
		c.Heap = Clean(h, c.Segments > 0)
		c.HeapBytes, _ = allocTotals(c.Heap, "")
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if b, err := os.ReadFile(filepath.Join(dir, "allocs")); err == nil {
		var total, objects, ownBytes, ownObjects int64
		if _, err := fmt.Sscan(string(b), &total, &objects, &ownBytes, &ownObjects); err == nil {
			c.AllocBytes = max(0, total-ownBytes-writerBytes)
			c.AllocObjects = max(0, objects-ownObjects-writerObjects)
			c.ProfilerBytes, c.ProfilerObjects = total-c.AllocBytes, objects-c.AllocObjects
		}
	}
	return c, nil
}

// allocTotals are the alloc_space and alloc_objects totals of a heap
// profile's samples whose stack holds the function named fn (all of them
// when fn is "").
func allocTotals(p *profile.Profile, fn string) (bytes, objects int64) {
	bi, oi := -1, -1
	for i, st := range p.SampleType {
		switch st.Type {
		case "alloc_space":
			bi = i
		case "alloc_objects":
			oi = i
		}
	}
	for _, s := range p.Sample {
		if fn != "" && !holds(s, fn) {
			continue
		}
		if bi >= 0 {
			bytes += s.Value[bi]
		}
		if oi >= 0 {
			objects += s.Value[oi]
		}
	}
	return bytes, objects
}

// holds reports whether sample s has the function named fn on its stack.
func holds(s *profile.Sample, fn string) bool {
	for _, l := range s.Location {
		for _, ln := range l.Line {
			if ln.Function != nil && ln.Function.Name == fn {
				return true
			}
		}
	}
	return false
}

// MergeSegments reads the CPU profile segments at paths and merges them
// into one profile, as go tool pprof merges several files.
func MergeSegments(paths []string) (*profile.Profile, error) {
	ps := make([]*profile.Profile, 0, len(paths))
	for _, path := range paths {
		p, err := readProfile(path)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	p, err := profile.Merge(ps)
	if err != nil {
		return nil, fmt.Errorf("merge CPU profile segments: %w", err)
	}
	return p, nil
}

func readProfile(path string) (*profile.Profile, error) {
	p, err := profiles.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return p, nil
}

// Clean takes the wrapper out of p, so that it reads as a profile of the
// unwrapped program: samples of the wrapper's own work (writing profiles,
// in functions named main.perfloop…) are dropped, the wrapper's main frame
// is removed from every stack, and the user's main, renamed UserMain in
// the build, is main.main again (its closures main.main.func1 …). With
// cpuWriter, the samples of the CPU profiler's writer goroutine
// (runtime/pprof.profileWriter, which compresses the profile) are the
// wrapper's too.
func Clean(p *profile.Profile, cpuWriter bool) *profile.Profile {
	wrapper := func(fn *profile.Function) bool {
		if fn == nil {
			return false
		}
		name := filepath.ToSlash(fn.Filename)
		return strings.HasSuffix(name, "/"+WrapperFile) || strings.HasSuffix(name, "/"+ExitHookDir+"/hook.go")
	}
	own := func(fn *profile.Function) bool {
		if fn != nil && cpuWriter && fn.Name == "runtime/pprof.profileWriter" {
			return true
		}
		return wrapper(fn) && fn.Name != "main.main"
	}
	for _, fn := range p.Function {
		fn.Name = renameUserMain(fn.Name)
		fn.SystemName = renameUserMain(fn.SystemName)
	}
	kept := p.Sample[:0]
	for _, s := range p.Sample {
		drop := false
		for _, l := range s.Location {
			for _, ln := range l.Line {
				if own(ln.Function) {
					drop = true
				}
			}
		}
		if !drop {
			kept = append(kept, s)
		}
	}
	p.Sample = kept
	emptied := map[*profile.Location]bool{}
	for _, l := range p.Location {
		n := len(l.Line)
		lines := l.Line[:0]
		for _, ln := range l.Line {
			if !wrapper(ln.Function) {
				lines = append(lines, ln)
			}
		}
		l.Line = lines
		emptied[l] = n > 0 && len(lines) == 0
	}
	for _, s := range p.Sample {
		locs := s.Location[:0]
		for _, l := range s.Location {
			if !emptied[l] {
				locs = append(locs, l)
			}
		}
		s.Location = locs
	}
	return p.Compact()
}

// renameUserMain turns "main.perfloopUserMain" and its closures
// ("main.perfloopUserMain.func1") back into main.main's names.
func renameUserMain(name string) string {
	rest, ok := strings.CutPrefix(name, "main."+UserMain)
	if !ok || (rest != "" && rest[0] != '.') {
		return name
	}
	return "main.main" + rest
}
