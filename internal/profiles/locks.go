package profiles

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/google/pprof/profile"
)

// Locks is what a mutex or block profile says about where goroutines
// waited: the module's lines that waited (or, in a mutex profile, that
// released a lock others waited for), and how much of the waiting was the
// testing harness's own.
type Locks struct {
	// Kind is "mutex" or "block".
	Kind string
	// Delay is the total delay of every sample in nanoseconds, Count the
	// total number of waits; Harness and HarnessCount are the part that is
	// the harness's: the testing package waiting for the benchmark's
	// goroutines (RunParallel's WaitGroup), and the benchmark's own
	// _test.go code waiting on a WaitGroup, a channel or a select (the
	// benchmark goroutine waiting for its workers, a worker pool
	// draining).
	Delay, Count          int64
	Harness, HarnessCount int64
	// Other is the delay of waits with no module frame on the stack and
	// outside the harness (a library's or the runtime's own goroutines).
	Other int64
	// Sites are the module's lines, most delay first.
	Sites []LockSite
}

// LockSite is one module line of a mutex or block profile: the line that
// calls Op (directly, or through a library function Via).
type LockSite struct {
	Function string // full name
	File     string // relative to the module root
	Line     int64
	InTest   bool
	// Op is the waiting operation: the outermost frame of the sync
	// package ("sync.(*Mutex).Lock"), or "chan receive", "chan send",
	// "select".
	Op string
	// Via is the library function the line calls when the wait is inside
	// it ("log.(*Logger).output"), "" when the line calls Op itself.
	Via          string
	Delay, Count int64
}

// AnalyzeLocks reads a mutex or block profile (kind "mutex" or "block";
// the runtime writes both with the sample types "contentions" and
// "delay"): every sample is attributed to the innermost frame
// that is neither the runtime nor the sync packages: a module line, the
// harness, or other code (attributed to the first module line above it,
// when there is one).
func AnalyzeLocks(p *profile.Profile, kind string, opts Options) (*Locks, error) {
	delayIdx, countIdx := -1, -1
	for i, st := range p.SampleType {
		switch st.Type {
		case "delay":
			delayIdx = i
		case "contentions":
			countIdx = i
		}
	}
	if delayIdx < 0 || countIdx < 0 {
		return nil, fmt.Errorf("not a mutex or block profile: sample types %s", sampleTypes(p))
	}
	l := &Locks{Kind: kind}
	ix := newIndex(p, opts)
	type key struct {
		fn   int32
		line int32
		op   string
		via  string
	}
	sites := map[key]*LockSite{}
	var buf []frame
	for _, s := range p.Sample {
		delay, count := s.Value[delayIdx], s.Value[countIdx]
		l.Delay += delay
		l.Count += count
		buf = ix.stack(buf, s)
		op, i := waitOp(ix, buf)
		if i == len(buf) {
			l.Other += delay
			continue
		}
		site := ix.funcs[buf[i].fn]
		if strings.HasPrefix(site.name, "testing.") || (site.inTest && harnessOp(op)) {
			l.Harness += delay
			l.HarnessCount += count
			continue
		}
		via := ""
		if !site.module {
			// A library waits for the module: the module line that
			// called it.
			j := i
			for j < len(buf) && !ix.funcs[buf[j].fn].module {
				j++
			}
			if j == len(buf) {
				l.Other += delay
				continue
			}
			via = ix.funcs[buf[j-1].fn].name
			if ix.funcs[buf[j].fn].inTest && harnessOp(op) {
				l.Harness += delay
				l.HarnessCount += count
				continue
			}
			i = j
			site = ix.funcs[buf[i].fn]
		}
		k := key{buf[i].fn, buf[i].line, op, via}
		ls := sites[k]
		if ls == nil {
			ln := ix.lines[buf[i].line]
			ls = &LockSite{Function: site.name, File: ix.relFile(ln.file), Line: ln.line, InTest: site.inTest, Op: op, Via: via}
			sites[k] = ls
		}
		ls.Delay += delay
		ls.Count += count
	}
	for _, s := range sites {
		l.Sites = append(l.Sites, *s)
	}
	slices.SortFunc(l.Sites, func(a, b LockSite) int {
		return cmp.Or(cmp.Compare(b.Delay, a.Delay), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Op, b.Op))
	})
	return l, nil
}

// waitOp names the waiting operation of a stack (leaf first) and returns
// the index of the first frame outside the runtime and the sync packages:
// the code that waited.
func waitOp(ix *index, stack []frame) (string, int) {
	op := ""
	i := 0
	for ; i < len(stack); i++ {
		name := ix.funcs[stack[i].fn].name
		switch {
		case strings.HasPrefix(name, "sync.") || strings.HasPrefix(name, "sync/atomic.") || strings.HasPrefix(name, "internal/sync."):
			if !strings.HasPrefix(name, "sync.runtime_") && !strings.HasPrefix(name, "internal/sync.runtime_") &&
				!strings.HasSuffix(name, "Slow") && !strings.HasPrefix(name, "internal/") {
				op = name
			} else if op == "" && strings.HasPrefix(name, "internal/sync.") {
				op = strings.TrimPrefix(name, "internal/")
			}
			continue
		case isRuntime(name):
			if op == "" {
				switch {
				case strings.HasPrefix(name, "runtime.chanrecv"):
					op = "chan receive"
				case strings.HasPrefix(name, "runtime.chansend"):
					op = "chan send"
				case name == "runtime.selectgo" || name == "runtime.block":
					op = "select"
				}
			}
			continue
		}
		break
	}
	if op == "" {
		op = "wait"
	}
	return op, i
}

// harnessOp reports whether a wait in the benchmark's own code is the
// harness kind: waiting for goroutines or for work to arrive, not for a
// lock the measured code shares.
func harnessOp(op string) bool {
	switch op {
	case "sync.(*WaitGroup).Wait", "chan receive", "chan send", "select", "sync.(*Cond).Wait", "wait":
		return true
	}
	return false
}

func sampleTypes(p *profile.Profile) string {
	var s []string
	for _, st := range p.SampleType {
		s = append(s, st.Type+"/"+st.Unit)
	}
	return strings.Join(s, ", ")
}
