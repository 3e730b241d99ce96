package findings

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// coreRows indexes the document's measured core-scaling rows by bench
// key: the row that carries the lock sites and growing lines (the
// benchmark's worst); scaled holds every bench key with a core-scaling
// row, measured or not. Derive keeps them in deriver.cores and
// deriver.scaled.
func coreRows(doc *document.Report) (measured map[string]*document.Scaling, scaled map[string]bool) {
	out := map[string]*document.Scaling{}
	scaled = map[string]bool{}
	for i := range doc.Scaling {
		s := &doc.Scaling[i]
		if s.Parameter != "cpu" {
			continue
		}
		top, _, _ := strings.Cut(s.Benchmark, "/")
		k := s.Package + " " + top
		scaled[k] = true
		if s.NotMeasured != "" || len(s.CPU) < 2 {
			continue
		}
		if o := out[k]; o == nil || len(s.Locks)+len(s.Growing) > len(o.Locks)+len(o.Growing) {
			out[k] = s
		}
	}
	return out, scaled
}

// scalingCauses are the contention causes of the concurrent benchmarks
// measured at several core counts: an exclusive lock held across the
// work, an RWMutex read path whose lock costs as much as the read, a line
// whose CPU per op grows with the cores, and lock waits.
func (d *deriver) scalingCauses() {
	// The lock causes of every benchmark first: a line that grows in one
	// benchmark joins the lock another benchmark's profile named.
	for pass := range 2 {
		for _, b := range d.benches {
			row := d.cores[b.key]
			if row == nil || !b.entry.Parallel {
				continue
			}
			// A benchmark that scales gets a contention finding only
			// for waits the lock profiles measured. On a busy machine
			// (the run at N cores got far fewer) the wall-time
			// efficiency measures the neighbours, not the code: the lock
			// rules then decide from the CPU profile alone (the work an
			// exclusive section holds, the CPU of the lock operations).
			n := row.CPU[len(row.CPU)-1]
			busy := row.CoresUsed > 0 && row.CoresUsed < d.t.BusyCores*float64(n)
			scales := row.Efficiency >= d.t.ScaleOK && !busy
			nsN := row.NsPerOp[len(row.NsPerOp)-1]
			measured := fmt.Sprintf("%s: %s ns/op at -cpu 1, %s at -cpu %d (efficiency %.2f, ideal 1)", b.name(), fnum(row.NsPerOp[0]), fnum(nsN), n, row.Efficiency)
			if busy {
				measured += fmt.Sprintf("; the profiled run at -cpu %d got %.1f cores: the machine was busy, so the efficiency is not the code's", n, row.CoresUsed)
			}
			if pass == 0 {
				for _, ls := range row.Locks {
					if inTest(ls.InTest, ls.File) || ls.File == "" {
						continue
					}
					if ls.Profile == "cpu" && !strings.Contains(ls.Op, "RLock") && ls.LockCPU == 0 && !d.lockTaken(row) {
						// An exclusive section the source shows (a
						// Lock call, perhaps a wrapper's: a logger's
						// MutexWrap takes no lock when disabled) but
						// no profile saw a sync lock taken in: its
						// goroutines never waited, so it bounds
						// nothing.
						continue
					}
					d.lockCause(b, row, ls, n, nsN, measured, scales, busy)
				}
				continue
			}
			if scales {
				continue
			}
			for _, g := range row.Growing {
				d.growthCause(b, row, g, n, measured)
			}
			d.sharedAtomics(b, row, n, measured)
		}
	}
}

// lockTaken reports whether the benchmark's lock profiles saw a sync lock
// at all: a waiter at a sync.Mutex's or RWMutex's Lock, or a holder
// releasing one.
func (d *deriver) lockTaken(row *document.Scaling) bool {
	for _, ls := range row.Locks {
		if ls.Profile != "cpu" && strings.HasPrefix(ls.Op, "sync.(*") && strings.Contains(ls.Op, "Mutex)") {
			return true
		}
	}
	return false
}

// sharedAtomics finds the atomic read-modify-writes of a function on
// state every goroutine shares (the benchmark's goroutines call methods
// on one object): at least atomicMin of the CPU at N cores in a
// benchmark that does not scale. The lock profiles never see them.
func (d *deriver) sharedAtomics(b *bench, row *document.Scaling, n int, measured string) {
	if len(row.Shared) == 0 {
		return
	}
	type fnCost struct {
		lines []document.LineInside
		share float64
	}
	byFn := map[string]*fnCost{}
	var order []string
	for _, l := range row.Atomics {
		if inTest(false, l.File) {
			continue // the benchmark's own goroutines: never a cause
		}
		fc := byFn[l.Function]
		if fc == nil {
			fc = &fnCost{}
			byFn[l.Function] = fc
			order = append(order, l.Function)
		}
		fc.lines = append(fc.lines, l)
		fc.share += l.Share
	}
	for _, fn := range order {
		fc := byFn[fn]
		top := fc.lines[0] // the rows come costliest first
		if fc.share < d.t.AtomicMin || d.coveredBy(b, top.File, top.Line) != nil {
			continue
		}
		c := d.atomicCause(b, fn, top.File, top.Line)
		for _, l := range fc.lines {
			c.addLine(l.File, l.Line, fn, "atomic: "+l.Source)
		}
		msg := fmt.Sprintf("%s: atomic writes to state every goroutine shares (%s) are %s of %s's CPU at -cpu %d (%s %s): each one takes the word's cache line from the core that wrote it last, so the goroutines serialize on it",
			shortName(fn), strings.Join(row.Shared, ", "), pct(fc.share), b.name(), n, where(top.File, top.Line), top.Source)
		sugg := "keep one counter per goroutine or per shard (each on its own cache line) and sum them when read, or batch the updates; a value read far less often than written can be computed on read"
		// The writes are the root: a load whose growth opened the
		// cause (it misses the line the writers keep taking) is
		// one of its lines.
		c.fn, c.file, c.line, c.message = fn, top.File, top.Line, ""
		d.setContention(c, b, document.RuleSharedAtomics, fc.share, msg, sugg, []string{
			fmt.Sprintf("CPU profile of %s at -cpu %d: %s of the samples at the atomic writes of %s; its goroutines all call methods on %s", b.name(), n, pct(fc.share), shortName(fn), strings.Join(row.Shared, ", ")),
			measured})
		for _, l := range fc.lines {
			d.leaveLockWord(c, l.File, l.Line)
		}
	}
}

// leaveLockWord leaves a contention cause alone when its line is the
// compare-and-swap a lock of the module is taken by (a lock-word shape:
// ants' spinLock.Lock): every goroutine taking one lock writes its word,
// and goroutines contending for it take turns by design.
func (d *deriver) leaveLockWord(c *cause, file string, line int64) {
	s := d.shapeAt("lock-word", file, line)
	if s == nil {
		return
	}
	c.section, c.rule, c.generic, c.lowOnly = document.SectionLeaveAlone, document.RuleLeaveLockWord, false, true
	c.suggestion = s.Says + "; " + s.Advice
}

// coveredBy returns the contention cause of b that already holds the
// line, or nil.
func (d *deriver) coveredBy(b *bench, file string, line int64) *cause {
	for _, c := range d.causes {
		if c.kind == document.KindContention && c.benches[b.key] != nil && c.hasLine(file, line) {
			return c
		}
	}
	return nil
}

// lockCause judges one lock site.
func (d *deriver) lockCause(b *bench, row *document.Scaling, ls document.LockSite, n int, nsN float64, measured string, scales, busy bool) {
	if (strings.HasPrefix(ls.Op, "chan") || ls.Op == "select") && (d.shapeAt("ticker-select", ls.File, ls.Line) != nil || d.shapeAt("worker-idle", ls.File, ls.Line) != nil || d.shapeAt("api-wait", ls.File, ls.Line) != nil) {
		// A background loop sleeping between ticks (a buffered
		// syncer's flushLoop), a worker parked until its next task
		// (ants' for fn := range w.task), or an exported call that
		// blocks until its next event (yamux's AcceptStream): its
		// wait is the interval it was given, time with nothing to
		// do, or the sender's pace, not goroutines waiting on each
		// other.
		return
	}
	if isJoin(ls.Op) {
		// A WaitGroup's or an errgroup's Wait waits for the
		// goroutines it started to finish (a pool's release waiting
		// for its workers): their work is where the time goes.
		return
	}
	read := strings.Contains(ls.Op, "RLock")
	wait := 0.0
	if nsN > 0 {
		wait = ls.DelayPerOp / (float64(n) * nsN)
	}
	var impact float64
	var msg, sugg string
	var rule document.Rule
	var ev []string
	top := topInside(ls)
	ls.CPUInside = workInside(ls)
	switch {
	case scales && wait < d.t.DelayMin:
		return
	case !scales && !read && ls.CPUInside >= d.t.InsideWork:
		// Amdahl: the share inside runs one goroutine at a time.
		rule = document.RuleLockExclusive
		p := ls.CPUInside
		bound := 1 / (p + (1-p)/float64(n))
		impact = 1 - bound/float64(n)
		msg = fmt.Sprintf("%s holds %s across %s of %s's CPU (lines %d–%d%s): goroutines take turns, so %d cores can do at most %.2f× the work of one",
			shortName(ls.Function), lockText(ls), pct(ls.CPUInside), b.name(), ls.Line+1, max(ls.HeldTo-1, ls.Line+1), topText(top), n, bound)
		sugg = "move the work out of the critical section: "
		if top != nil && top.Source != "" && !readsGuarded(ls, top.Source) {
			sugg += fmt.Sprintf("compute %q before the Lock and hold the lock only to update the shared state", top.Source)
		} else if top != nil && top.Source != "" {
			// The work reads what the lock guards (c.items under
			// c.mu): it cannot leave the section.
			sugg = fmt.Sprintf("the work inside (%q) reads the state the lock guards, so it cannot move out: split the state by a hash of the key into independent locks, or make each operation's work under it smaller", top.Source)
		} else {
			sugg += "compute what does not touch the shared state before the Lock, and hold the lock only to update it"
		}
		if wait >= d.t.DelayMin {
			sugg += "; if the update itself stays hot, shard the state by a hash of the key into independent locks"
		}
		ev = append(ev, fmt.Sprintf("CPU profile at -cpu %d: %s of the samples between the Lock at %s and its Unlock", n, pct(ls.CPUInside), where(ls.File, ls.Line)))
	case !scales && read && (ls.LockCPU >= d.t.ReadLockCPU || readerGrowth(row, ls)):
		rule, impact = document.RuleLockRead, ls.LockCPU
		msg = fmt.Sprintf("%s's read path takes %s (RLock/RUnlock) on every call: the lock operations are %s of %s's CPU, %s the read they protect (%s); every RLock and RUnlock adds to the RWMutex's one reader count, so with readers on %d cores its cache line moves between them on every call",
			shortName(ls.Function), lockText(ls), pct(ls.LockCPU), b.name(), moreOrLess(ls.LockCPU, ls.CPUInside), pct(ls.CPUInside), n)
		sugg = "for read-mostly data, publish an immutable snapshot behind an atomic.Pointer (writers copy, modify and swap it; readers Load without a lock), or use sync.Map for keys written once and read often: either removes the shared reader count from the read path"
		ev = append(ev, fmt.Sprintf("CPU profile at -cpu %d: %s of the samples in RLock/RUnlock at %s, %s inside the section", n, pct(ls.LockCPU), where(ls.File, ls.Line), pct(ls.CPUInside)))
	case wait >= d.t.DelayMin && !busy:
		// Waiting is wall time: on a busy machine a holder loses its
		// core while it holds the lock, and goroutines queue for the
		// cores the neighbours took, so the waits are theirs too.
		rule, impact = document.RuleLockWait, min(wait, 1)
		share := fmt.Sprintf("%s of their time at -cpu %d", pct(wait), n)
		if wait > 1 {
			share = fmt.Sprintf("%.3g× the %s/op of wall time: more goroutines than cores queue on it at once", ls.DelayPerOp/nsN, duration(nsN*1e-9))
		}
		msg = fmt.Sprintf("goroutines wait %s/op at %s in %s (%s)", duration(ls.DelayPerOp*1e-9), lockText(ls), shortName(ls.Function), share)
		sugg = "shorten what is done while holding it, or split the state so goroutines working on different keys take different locks"
		if strings.HasPrefix(ls.Op, "chan") || ls.Op == "select" {
			sugg = "batch the hand-offs (send slices of work, not single items) or give each goroutine its own channel"
		}
	default:
		return
	}
	if ls.DelayPerOp > 0 {
		ev = append(ev, fmt.Sprintf("%s profile at -cpu %d: %s/op of waiting at %s (%.2g waits per op, %s of the module's waiting)", ls.Profile, n, duration(ls.DelayPerOp*1e-9), where(ls.File, ls.Line), ls.ContentionsPerOp, pct(ls.DelayShare)))
	}
	if row.HarnessBlockShare != nil && *row.HarnessBlockShare > 0 {
		ev = append(ev, fmt.Sprintf("block profile: %s of the waiting was the benchmark harness's own (RunParallel's WaitGroup, the benchmark goroutine waiting for its workers), left out", pct(*row.HarnessBlockShare)))
	}
	ev = append(ev, measured)
	c := d.lockOf(b, ls)
	if rule == document.RuleLockRead {
		c.mech("read-lock")
	}
	c.addLine(ls.File, ls.Line, ls.Function, "takes "+lockText(ls))
	if ls.HeldTo > 0 {
		c.addLine(ls.File, ls.HeldTo, ls.Function, "releases it")
	}
	if top != nil && !read {
		c.addLine(ls.File, top.Line, ls.Function, "the work inside: "+top.Source)
	}
	d.setContention(c, b, rule, impact, msg, sugg, ev)
	if w := writesOut(top); rule == document.RuleLockExclusive && w != "" {
		// The work under the lock is the write to one output (a
		// buffered syncer's s.writer.Flush() under s.mu): the lock
		// keeps each write whole and the output in order, and a
		// Write has no key to split it by.
		c.section, c.rule, c.generic, c.lowOnly = document.SectionLeaveAlone, document.RuleLeaveWriter, false, true
		c.suggestion = fmt.Sprintf("the work under the lock is the write to one output (%s): the lock keeps each write whole and the output in order, so goroutines writing through one writer take turns by design; a benchmark of many goroutines on one writer measures that; the alternatives change what the output is (a writer per goroutine, or batches handed to one writer goroutine)", w)
	}
}

// isJoin reports whether a wait is a join: a sync.WaitGroup's or an
// errgroup.Group's Wait.
func isJoin(op string) bool {
	return strings.HasSuffix(op, "sync.(*WaitGroup).Wait") || strings.HasSuffix(op, "errgroup.(*Group).Wait")
}

// writesOut returns the writer a critical section's top line writes or
// flushes through ("s.writer" for "if err := s.writer.Flush(); err !=
// nil {"), or "".
func writesOut(top *document.LineInside) string {
	if top == nil {
		return ""
	}
	m := writeCall.FindStringSubmatch(top.Source)
	if m == nil {
		return ""
	}
	return m[1]
}

// writeCall matches a Write, WriteString, Flush or Sync call on a value
// reached through a field or variable: s.writer.Flush(, w.out.Write(.
var writeCall = regexp.MustCompile(`([\pL_][\pL\pN_]*(?:\.[\pL_][\pL\pN_]*)*)\.(?:Write|WriteString|WriteByte|WriteRune|Flush|Sync)\(`)

// growthCause judges a line whose CPU per op grows with the cores.
func (d *deriver) growthCause(b *bench, row *document.Scaling, g document.LineGrowth, n int, measured string) {
	if g.NsPerOp1 > 0 && g.NsPerOpN < d.t.GrowthFactor*g.NsPerOp1 || inTest(false, g.File) {
		return
	}
	for _, c := range d.causes {
		if c.kind != document.KindContention {
			continue
		}
		// The line is the cause's in this benchmark, or the cause is
		// the same lock in the same function, in any benchmark (a
		// second RUnlock on another path; a benchmark whose lock
		// operations were below the share the lock rule wants).
		lock := c.fn == g.Function && (g.Mechanism == "reader-count" || g.Mechanism == "mutex-spin")
		if lock || c.benches[b.key] != nil && c.hasLine(g.File, g.Line) {
			c.addLine(g.File, g.Line, g.Function, "its CPU per op grows with the cores")
			c.addEvidence(growthEvidence(g, n))
			if total := cpuPerOp(row); total > 0 {
				cs := c.cost(b)
				cs.CPUShare = max(cs.CPUShare, min((g.NsPerOpN-g.NsPerOp1)/total, 1))
			}
			return
		}
	}
	var msg, sugg string
	switch g.Mechanism {
	case "reader-count":
		msg = fmt.Sprintf("%s: the RWMutex's reader count at %s costs %s at -cpu 1 and %s/op at -cpu %d: every RLock/RUnlock writes the one counter, and its cache line moves between the cores on every call", shortName(g.Function), where(g.File, g.Line), oneCore(g.NsPerOp1), duration(g.NsPerOpN*1e-9), n)
		sugg = "for read-mostly data, an immutable snapshot behind an atomic.Pointer (copy on write) or sync.Map: reads then write nothing shared"
	case "atomic":
		msg = fmt.Sprintf("%s: the atomic update at %s costs %s at -cpu 1 and %s/op at -cpu %d: every goroutine writes one shared word, and its cache line moves between the cores on every call", shortName(g.Function), where(g.File, g.Line), oneCore(g.NsPerOp1), duration(g.NsPerOpN*1e-9), n)
		sugg = "keep one counter per goroutine or per shard (each on its own cache line) and sum them when read"
		if reserves(g.Source) {
			// pos := atomic.AddUint64(&a.off, n): the value it
			// returns is the caller's own place (a bump
			// allocator's offset), not a count read later.
			sugg = "the update hands each caller its own place (the value it returns, an offset taken by adding its size): no count to split and sum later; what removes the shared word is an arena per goroutine or per shard, each with its own offset, or fewer, larger reservations (a goroutine taking a block and handing out its pieces)"
		}
	case "mutex-spin":
		msg = fmt.Sprintf("%s: acquiring the lock at %s costs %s/op at -cpu 1 and %s/op at -cpu %d: goroutines spin waiting for each other", shortName(g.Function), where(g.File, g.Line), duration(g.NsPerOp1*1e-9), duration(g.NsPerOpN*1e-9), n)
		sugg = "shorten the critical section, or split the state by a hash of the key into independent locks"
	case "pool":
		msg = fmt.Sprintf("%s: sync.Pool at %s costs %s/op at -cpu 1 and %s/op at -cpu %d", shortName(g.Function), where(g.File, g.Line), duration(g.NsPerOp1*1e-9), duration(g.NsPerOpN*1e-9), n)
		sugg = "the pool's price with more cores: an object put back on one core and taken on another goes through the pool's shared lists, which no code here controls; one Get and Put per operation (not per value) keeps it low, and a value the caller keeps across calls avoids it"
	case "channel":
		msg = fmt.Sprintf("%s: the channel operation at %s costs %s/op at -cpu 1 and %s/op at -cpu %d", shortName(g.Function), where(g.File, g.Line), duration(g.NsPerOp1*1e-9), duration(g.NsPerOpN*1e-9), n)
		sugg = "batch the hand-offs (send slices of work), or give each goroutine its own channel"
	default:
		return
	}
	var c *cause
	if g.Mechanism == "atomic" {
		c = d.atomicCause(b, g.Function, g.File, g.Line)
	} else {
		c = d.contentionCause(b, g.Function, g.File, g.Line)
	}
	c.addLine(g.File, g.Line, g.Function, "")
	impact := 0.0
	if total := cpuPerOp(row); total > 0 {
		impact = (g.NsPerOpN - g.NsPerOp1) / total
	}
	d.setContention(c, b, document.RuleLineGrowth, min(impact, 1), msg, sugg, []string{growthEvidence(g, n), measured})
	d.leaveLockWord(c, g.File, g.Line)
	if g.Mechanism == "pool" {
		// The pool is how the code reuses: its growth names no
		// change in the code.
		c.ownWork = true
	}
}

// cpuPerOp is the CPU time per op at the row's largest core count, in ns:
// the cores the profiled run used times the wall time per op.
func cpuPerOp(row *document.Scaling) float64 {
	n := row.CPU[len(row.CPU)-1]
	nsN := row.NsPerOp[len(row.NsPerOp)-1]
	if row.CoresUsed > 0 {
		return row.CoresUsed * nsN
	}
	return float64(n) * nsN
}

// oneCore says what a line cost per op at one core.
func oneCore(ns float64) string {
	if ns <= 0 {
		return "nothing measurable"
	}
	return duration(ns*1e-9) + "/op"
}

func growthEvidence(g document.LineGrowth, n int) string {
	return fmt.Sprintf("CPU profiles at -cpu 1 and %d: %s costs %s/op then %s/op (%d and %d samples)", n, where(g.File, g.Line), duration(g.NsPerOp1*1e-9), duration(g.NsPerOpN*1e-9), g.Samples1, g.SamplesN)
}

// contentionCause returns the contention cause at file:line, one per lock
// or line over every benchmark it costs.
func (d *deriver) contentionCause(b *bench, fn, file string, line int64) *cause {
	group := where(file, line)
	if c := d.find(document.KindContention, fn, group); c != nil {
		return c
	}
	c := d.newCause(document.KindContention, group, fn, file, line)
	d.causes = append(d.causes, c)
	return c
}

// lockOf returns the contention cause of the lock ls takes or releases:
// the block profile's wait at a Lock and the mutex profile's release at
// the Unlock of one lock (one field of one receiver type, in whichever of
// its methods; one variable of one function) are one cause, named at the
// Lock. A site whose lock the source does not name is a cause of its own
// line.
func (d *deriver) lockOf(b *bench, ls document.LockSite) *cause {
	id, unlock := lockIdentity(ls.Function, ls.Source)
	if id == "" {
		return d.contentionCause(b, ls.Function, ls.File, ls.Line)
	}
	group := "lock " + id
	for _, c := range d.causes {
		if c.kind == document.KindContention && c.group == group {
			if !unlock && c.atUnlock {
				// Named at the Lock, where the waiters wait; the Unlock
				// stays one of its lines.
				c.addLine(c.file, c.line, c.fn, "releases it")
				c.fn, c.file, c.line, c.atUnlock = ls.Function, ls.File, ls.Line, false
			}
			return c
		}
	}
	c := d.newCause(document.KindContention, group, ls.Function, ls.File, ls.Line)
	c.atUnlock = unlock
	d.causes = append(d.causes, c)
	return c
}

// lockCall matches a lock operation in a line of source: the lock's
// expression and the operation.
var lockCall = regexp.MustCompile(`([\pL_][\pL\pN_]*(?:\.[\pL_][\pL\pN_]*)*)\.(Lock|Unlock|RLock|RUnlock|TryLock|TryRLock)\(\)`)

// lockIdentity names the lock a line of fn takes or releases, and whether
// the line releases it: for a method, its receiver type and the path
// from the receiver ("m.(*Cache) mu" for c.mu.Lock() in any method of
// *Cache, whatever the receiver's name); for a function, the function
// and the expression. "" when the line names no lock.
func lockIdentity(fn, source string) (id string, unlock bool) {
	m := lockCall.FindStringSubmatch(source)
	if m == nil {
		return "", false
	}
	expr, op := m[1], m[2]
	unlock = strings.HasSuffix(op, "Unlock")
	fn = outer(document.PlainFunc(fn))
	if recv := receiverOf(fn); recv != fn {
		if _, path, ok := strings.Cut(expr, "."); ok {
			return recv + " " + path, unlock
		}
	}
	return fn + " " + expr, unlock
}

// inTest reports whether a site is in the benchmark's own _test.go code:
// the harness's goroutines and waits are never a cause.
func inTest(flag bool, file string) bool {
	return flag || strings.HasSuffix(file, "_test.go")
}

// atomicCause returns the contention cause of the atomic writes to the
// shared objects of one type: its methods (StandardEWMA's Update and Tick
// writing one counter), in every benchmark, are one cause.
func (d *deriver) atomicCause(b *bench, fn, file string, line int64) *cause {
	group := "atomic " + receiverOf(fn)
	for _, c := range d.causes {
		if c.kind == document.KindContention && c.group == group {
			return c
		}
	}
	c := d.newCause(document.KindContention, group, fn, file, line)
	d.causes = append(d.causes, c)
	return c
}

// receiverOf returns a method's receiver type ("m.(*T)" of
// "m.(*T).Add"), or the function itself.
func receiverOf(fn string) string {
	if i := strings.LastIndex(fn, ")."); i >= 0 {
		return fn[:i+1]
	}
	return fn
}

func (d *deriver) setContention(c *cause, b *bench, rule document.Rule, impact float64, msg, sugg string, ev []string) {
	cs := c.cost(b)
	if impact > cs.CPUShare || c.message == "" {
		cs.CPUShare = max(cs.CPUShare, impact)
		c.message, c.suggestion, c.rule = msg, sugg, rule
	}
	for _, e := range ev {
		c.addEvidence(e)
	}
}

// readerGrowth reports whether the row measured the read lock's line
// growing with the cores.
func readerGrowth(row *document.Scaling, ls document.LockSite) bool {
	for _, g := range row.Growing {
		if g.Mechanism == "reader-count" && g.File == ls.File && (g.Line == ls.Line || g.Line == ls.HeldTo) {
			return true
		}
	}
	return false
}

func topInside(ls document.LockSite) *document.LineInside {
	for i := range ls.Inside {
		if !isLockOp(ls.Inside[i].Callee) {
			return &ls.Inside[i]
		}
	}
	return nil
}

// readsGuarded reports whether a line of a critical section reads through
// the variable the lock is a field of: c.items under c.mu.Lock().
func readsGuarded(ls document.LockSite, src string) bool {
	lock := strings.TrimSpace(ls.Source)
	dot := strings.IndexByte(lock, '.')
	if dot <= 0 {
		return false
	}
	// A package-level lock named for what it guards (poolMu guards
	// pool, poolPos): the work names that state.
	name := lock[:dot]
	for _, suffix := range []string{"Mutex", "Mu", "Lock", "mu", "lock"} {
		if base, ok := strings.CutSuffix(name, suffix); ok && base != "" && !strings.Contains(base, ".") && mentions(src, base) {
			return true
		}
	}
	root := lock[:dot+1] // "c."
	for i := strings.Index(src, root); i >= 0; {
		if i == 0 || !isIdentByte(src[i-1]) {
			return true
		}
		j := strings.Index(src[i+1:], root)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// mentions reports whether src has an identifier that starts with name
// ("pool" in "io.ReadFull(rander, pool[:])", "poolPos = 0").
func mentions(src, name string) bool {
	for i := strings.Index(src, name); i >= 0; {
		if i == 0 || !isIdentByte(src[i-1]) && src[i-1] != '.' {
			return true
		}
		j := strings.Index(src[i+1:], name)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// workInside is the CPU share of a critical section's work: its lines
// less those whose cost is a lock operation (a deferred Unlock runs, and
// is sampled, at the function's returns and closing brace), which holding
// the lock a shorter time does not remove.
func workInside(ls document.LockSite) float64 {
	w := ls.CPUInside
	for _, l := range ls.Inside {
		if isLockOp(l.Callee) {
			w -= l.Share
		}
	}
	return max(w, 0)
}

// isLockOp reports whether a callee is a sync.Mutex's or sync.RWMutex's
// lock operation.
func isLockOp(callee string) bool {
	switch callee {
	case "sync.(*Mutex).Lock", "sync.(*Mutex).Unlock", "sync.(*RWMutex).Lock", "sync.(*RWMutex).Unlock", "sync.(*RWMutex).RLock", "sync.(*RWMutex).RUnlock", "sync.(*Mutex).TryLock":
		return true
	}
	return false
}

func topText(top *document.LineInside) string {
	if top == nil {
		return ""
	}
	s := fmt.Sprintf("; line %d", top.Line)
	if top.Callee != "" {
		s += " " + pkgFunc(top.Callee)
	}
	return s + " " + pct(top.Share)
}

func lockText(ls document.LockSite) string {
	if src := strings.TrimSpace(ls.Source); src != "" && strings.Contains(src, "Lock") {
		return strings.TrimSuffix(src, ";")
	}
	return ls.Op
}

func moreOrLess(a, b float64) string {
	if a >= b {
		return "more than"
	}
	return "about"
}

// fnum formats ns/op with three significant digits.
func fnum(x float64) string {
	if x >= 100 || x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.3g", x)
}

// shardLocks moves to "Leave alone" the contention causes at a lock of
// one shard of a sharded structure (a lock-sharded shape at one of the
// cause's lines: ristretto's lockedMap, one of shardedMap's 256 shards):
// the lock is split by key already, and a benchmark that contends on one
// shard uses the same keys from every goroutine.
func (d *deriver) shardLocks() {
	for _, c := range d.causes {
		if c.kind != document.KindContention || c.section != document.SectionFix {
			continue
		}
		for _, l := range append([]document.Location{{File: c.file, Line: c.line}}, c.lines...) {
			s := d.shapeAt("lock-sharded", l.File, l.Line)
			if s == nil {
				continue
			}
			c.section, c.rule, c.generic, c.lowOnly = document.SectionLeaveAlone, document.RuleLeaveShard, false, true
			c.shape = s
			c.suggestion = s.Says + ": " + s.Advice
			break
		}
	}
}

// reserves reports whether a line keeps the value an atomic add returns
// (pos := atomic.AddUint64(&a.compIdx, uint64(sz)); n := c.off.Add(k)):
// a reservation of a place, not a counter.
func reserves(src string) bool {
	_, rhs, ok := strings.Cut(strings.TrimSpace(src), "= ")
	if !ok {
		return false
	}
	return reservedBy.MatchString(rhs)
}

// reservedBy matches an atomic add whose value is kept: atomic.AddUint64(
// or x.off.Add( at the start of an assignment's right side.
var reservedBy = regexp.MustCompile(`^(atomic\.Add[A-Za-z0-9]*|[\pL_][\pL\pN_.]*\.Add)\(`)
