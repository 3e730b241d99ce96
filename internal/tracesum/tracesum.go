package tracesum

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"golang.org/x/exp/trace"
)

// Summary is what one execution trace says about the program it traced.
type Summary struct {
	// Wall is the time from the trace's first event to its last.
	Wall time.Duration
	// Events is how many events the parser produced.
	Events       int
	GC           GC
	STW          STW
	SchedLatency Latency
	Blocked      Blocked
	Peak         Peak
}

// GC is the garbage collector's share of the run.
type GC struct {
	// Cycles is how many collections began in the trace, without those
	// the testing package forced (Forced).
	Cycles, Forced int
	// CPU is the processor time the collector took from the program:
	// the time integral of the number of Ps busy with it — every P
	// during its stop-the-world pauses, else the Ps running a dedicated
	// or fractional mark worker or a goroutine in a mark assist. Where
	// those overlap (a worker finishing the cycle in a pause) it counts
	// once, so CPU can be less than Workers + Assist + GOMAXPROCS × Pause.
	CPU time.Duration
	// Share is CPU over GOMAXPROCS × Wall: one minus the mean mutator
	// utilization that go tool trace's MMU view plots.
	Share float64
	// Workers is the running time of the dedicated and fractional mark
	// workers, from when they are scheduled to when they park (their
	// last stint of a cycle includes finishing it); IdleWorkers that of
	// the idle-priority ones, which run only where a P has nothing else
	// to do (not in CPU).
	Workers, IdleWorkers time.Duration
	// Assist is the time goroutines ran mark assists (allocating
	// goroutines made to mark in proportion to what they allocate).
	Assist time.Duration
	// Pause is the total of the collector's stop-the-world pauses.
	Pause time.Duration
}

// STW is the stop-the-world pauses of the program (not the tracer's, not
// the testing package's).
type STW struct {
	Count      int
	Total, Max time.Duration
	// Reasons breaks the pauses down by the runtime's reason, the longest
	// total first.
	Reasons []STWReason
}

// STWReason is the pauses of one reason ("GC mark termination").
type STWReason struct {
	Reason     string
	Count      int
	Total, Max time.Duration
}

// Latency is the scheduler latency of the workload's goroutines: from
// becoming runnable to running.
type Latency struct {
	// Count is how many times a goroutine became runnable and then ran.
	Count                     int
	Total, P50, P90, P99, Max time.Duration
}

// Blocked is the time the workload's goroutines spent off CPU, by reason.
type Blocked struct {
	// Channel is chan send, chan receive and select.
	Channel Wait
	// Sync is sync.Mutex, RWMutex, WaitGroup, Cond and the semaphores
	// under them.
	Sync Wait
	// Syscall is time in system calls (the goroutine holds its thread).
	Syscall Wait
	// Network is the network poller: waiting for a socket (or a pipe, or
	// any pollable file) to be ready.
	Network Wait
	// GC is waiting on the collector: a mark assist with no work left to
	// steal, runtime.GC waiting for its cycle, the collector's own locks.
	GC Wait
	// Sleep is time.Sleep and timers.
	Sleep Wait
	// Other is every other reason (preempted for a stack scan, select{}
	// with no cases, unspecified).
	Other Wait
}

// Total is the sum over the reasons.
func (b Blocked) Total() time.Duration {
	var t time.Duration
	for _, w := range b.all() {
		t += w.Total
	}
	return t
}

func (b *Blocked) all() []*Wait {
	return []*Wait{&b.Channel, &b.Sync, &b.Syscall, &b.Network, &b.GC, &b.Sleep, &b.Other}
}

// Wait is the intervals of one reason.
type Wait struct {
	Count int
	Total time.Duration
}

func (w *Wait) add(d time.Duration) { w.Count++; w.Total += d }

// Peak is the most of each resource at one time.
type Peak struct {
	// Goroutines alive (of any kind, the runtime's too), Running on a P,
	// and in Syscalls, at once.
	Goroutines, Running, Syscalls int
	// Threads is how many OS threads emitted events.
	Threads int
	// GOMAXPROCS is the largest value in the trace.
	GOMAXPROCS int
	// HeapBytes is the largest /memory/classes/heap/objects:bytes (live
	// and not yet swept objects).
	HeapBytes uint64
}

// Summarize reads a whole execution trace and summarizes it (see the
// package doc for how each figure is computed). A trace the parser cannot
// read, truncated or corrupt, is an error; so is a panic of the parser on
// malformed input, which is turned into one.
func Summarize(r io.Reader) (sum *Summary, err error) {
	defer func() {
		if p := recover(); p != nil {
			sum, err = nil, fmt.Errorf("read trace: malformed trace: %v", p)
		}
	}()
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("read trace: %w", err)
	}
	s := newSummarizer()
	for {
		ev, err := tr.ReadEvent()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read trace: %w", err)
		}
		s.event(&ev)
	}
	if s.sum.Events == s.syncs {
		return nil, fmt.Errorf("read trace: no events")
	}
	return s.finish(), nil
}

// goroutine is what the summarizer knows of one goroutine.
type goroutine struct {
	state trace.GoState
	// since is when it entered state; known reports that it did so in
	// the trace (not before it began).
	since trace.Time
	known bool
	// workload: created in the trace by neither the runtime nor the
	// tracer.
	workload bool
	// counted: the current waiting or syscall interval is the
	// workload's; why is its reason.
	counted bool
	why     *Wait
	// worker is the mark worker label of the current running stint
	// ("GC (dedicated)"), or "".
	worker string
	// assist: inside a mark assist; assistFrom is when it last began
	// running in it.
	assist     bool
	assistFrom trace.Time
}

type summarizer struct {
	sum         Summary
	first, last trace.Time
	syncs       int
	gs          map[trace.GoID]*goroutine
	threads     map[trace.ThreadID]bool
	// live, running and syscalls count goroutines by state.
	live, running, syscalls int
	// procs is the current GOMAXPROCS since procsSince; procTime
	// integrates it over time (ns × procs).
	procs      int
	procsSince trace.Time
	procTime   float64
	// forced: the current GC cycle was forced by the testing package.
	forced bool
	// gcRunning counts the goroutines running as mark workers (not
	// idle) or in mark assists; gcTime integrates the Ps busy with the
	// collector (ns × Ps) up to prev.
	gcRunning int
	gcTime    float64
	prev      trace.Time
	// The open stop-the-world range.
	stwOn, stwCounted bool
	stwStart          trace.Time
	stwReason         string
	stwByReason       map[string]*STWReason
	latencies         []time.Duration
}

func newSummarizer() *summarizer {
	return &summarizer{gs: map[trace.GoID]*goroutine{}, threads: map[trace.ThreadID]bool{}, stwByReason: map[string]*STWReason{}}
}

func (s *summarizer) event(ev *trace.Event) {
	t := ev.Time()
	if s.sum.Events == 0 {
		s.first = t
	}
	s.sum.Events++
	if t > s.prev {
		if s.sum.Events > 1 {
			s.gcTime += float64(s.gcBusy()) * float64(t.Sub(s.prev))
		}
		s.prev = t
	}
	s.last = max(s.last, t)
	if th := ev.Thread(); th != trace.NoThread {
		s.threads[th] = true
	}
	switch ev.Kind() {
	case trace.EventSync:
		s.syncs++
	case trace.EventMetric:
		s.metric(t, ev.Metric())
	case trace.EventLabel:
		l := ev.Label()
		if l.Resource.Kind == trace.ResourceGoroutine && strings.HasPrefix(l.Label, "GC (") {
			if g := s.gs[l.Resource.Goroutine()]; g != nil && g.state == trace.GoRunning {
				s.change(g, func() { g.worker = l.Label })
			}
		}
	case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
		s.rangeEvent(t, ev)
	case trace.EventStateTransition:
		st := ev.StateTransition()
		if st.Resource.Kind == trace.ResourceGoroutine {
			s.transition(t, st)
		}
	}
}

func (s *summarizer) metric(t trace.Time, m trace.Metric) {
	if m.Value.Kind() != trace.ValueUint64 {
		return
	}
	v := m.Value.Uint64()
	switch m.Name {
	case "/sched/gomaxprocs:threads":
		if s.procs == 0 {
			s.procsSince = s.first
		}
		s.procTime += float64(s.procs) * float64(t.Sub(s.procsSince))
		s.procs, s.procsSince = int(min(v, 1<<20)), t
		s.sum.Peak.GOMAXPROCS = max(s.sum.Peak.GOMAXPROCS, s.procs)
	case "/memory/classes/heap/objects:bytes":
		s.sum.Peak.HeapBytes = max(s.sum.Peak.HeapBytes, v)
	}
}

func (s *summarizer) rangeEvent(t trace.Time, ev *trace.Event) {
	r := ev.Range()
	kind := ev.Kind()
	switch {
	case r.Name == "GC concurrent mark phase":
		switch kind {
		case trace.EventRangeBegin:
			s.forced = harness(ev.Stack())
			if s.forced {
				s.sum.GC.Forced++
			} else {
				s.sum.GC.Cycles++
			}
		case trace.EventRangeActive:
			s.forced = false
		}
	case strings.HasPrefix(r.Name, "stop-the-world ("):
		reason := strings.TrimSuffix(strings.TrimPrefix(r.Name, "stop-the-world ("), ")")
		switch kind {
		case trace.EventRangeBegin:
			s.stwOn, s.stwStart, s.stwReason = true, t, reason
			s.stwCounted = reason != "start trace" && reason != "stop trace" && !harness(ev.Stack()) &&
				!(isGCReason(reason) && s.forced)
		case trace.EventRangeActive:
			s.stwOn = false // began before the trace: its length is unknown
		case trace.EventRangeEnd:
			if s.stwOn && s.stwCounted {
				s.pause(reason, t.Sub(s.stwStart))
			}
			s.stwOn = false
		}
	case r.Name == "GC mark assist":
		if r.Scope.Kind != trace.ResourceGoroutine {
			return
		}
		g := s.goroutine(r.Scope.Goroutine())
		switch kind {
		case trace.EventRangeBegin, trace.EventRangeActive:
			s.change(g, func() { g.assist, g.assistFrom = true, t })
		case trace.EventRangeEnd:
			if g.assist && g.state == trace.GoRunning {
				s.sum.GC.Assist += t.Sub(g.assistFrom)
			}
			s.change(g, func() { g.assist = false })
		}
	}
}

func isGCReason(reason string) bool { return strings.HasPrefix(reason, "GC ") }

func (s *summarizer) pause(reason string, d time.Duration) {
	st := &s.sum.STW
	st.Count++
	st.Total += d
	st.Max = max(st.Max, d)
	r := s.stwByReason[reason]
	if r == nil {
		r = &STWReason{Reason: reason}
		s.stwByReason[reason] = r
	}
	r.Count++
	r.Total += d
	r.Max = max(r.Max, d)
	if isGCReason(reason) {
		s.sum.GC.Pause += d
	}
}

// gcBusy is how many Ps the collector holds now.
func (s *summarizer) gcBusy() int {
	procs := max(s.procs, 1)
	switch {
	case s.stwOn && s.stwCounted && isGCReason(s.stwReason):
		return procs
	case s.forced:
		return 0
	}
	return min(s.gcRunning, procs)
}

// busy reports whether g holds a P for the collector.
func (g *goroutine) busy() bool {
	return g.state == trace.GoRunning && (g.assist || g.worker != "" && g.worker != "GC (idle)")
}

// change applies f to g, keeping gcRunning.
func (s *summarizer) change(g *goroutine, f func()) {
	before := g.busy()
	f()
	if after := g.busy(); after != before {
		if after {
			s.gcRunning++
		} else {
			s.gcRunning--
		}
	}
}

func (s *summarizer) goroutine(id trace.GoID) *goroutine {
	g := s.gs[id]
	if g == nil {
		g = &goroutine{state: trace.GoUndetermined}
		s.gs[id] = g
	}
	return g
}

func alive(st trace.GoState) bool {
	return st == trace.GoRunnable || st == trace.GoRunning || st == trace.GoWaiting || st == trace.GoSyscall
}

func (s *summarizer) count(st trace.GoState, d int) {
	if alive(st) {
		s.live += d
	}
	switch st {
	case trace.GoRunning:
		s.running += d
	case trace.GoSyscall:
		s.syscalls += d
	}
}

func (s *summarizer) transition(t trace.Time, st trace.StateTransition) {
	from, to := st.Goroutine()
	id := st.Resource.Goroutine()
	g := s.goroutine(id)
	s.change(g, func() { s.move(t, id, g, from, to, st) })
}

// move takes g from its state to to.
func (s *summarizer) move(t trace.Time, id trace.GoID, g *goroutine, from, to trace.GoState, st trace.StateTransition) {
	if from == to {
		// A status at a generation's start: nothing changed.
		if g.state == trace.GoUndetermined {
			s.count(to, 1)
			g.state = to
		}
		return
	}
	// Leave the old state.
	if g.state == trace.GoRunning && to != trace.GoRunning {
		if g.worker != "" && g.known && !s.forced {
			if g.worker == "GC (idle)" {
				s.sum.GC.IdleWorkers += t.Sub(g.since)
			} else {
				s.sum.GC.Workers += t.Sub(g.since)
			}
		}
		g.worker = ""
		if g.assist {
			s.sum.GC.Assist += t.Sub(g.assistFrom)
		}
	}
	if g.known && g.workload {
		switch {
		case g.state == trace.GoRunnable && to == trace.GoRunning && g.counted:
			s.latencies = append(s.latencies, t.Sub(g.since))
		case g.state == trace.GoWaiting && g.counted && g.why != nil:
			g.why.add(t.Sub(g.since))
		case g.state == trace.GoSyscall && g.counted:
			s.sum.Blocked.Syscall.add(t.Sub(g.since))
		}
	}
	s.count(g.state, -1)

	// Enter the new one.
	if from == trace.GoNotExist {
		g.workload = workloadEntry(st.Stack)
	}
	// A runnable interval is the workload's when what came before it
	// was: new goroutines, and not the testing package yielding in
	// runtime.GC or woken from its waits.
	wasCounted := g.counted || from == trace.GoNotExist
	g.state, g.since, g.known = to, t, from != trace.GoUndetermined
	g.counted, g.why = false, nil
	switch to {
	case trace.GoRunnable:
		g.counted = wasCounted || from == trace.GoRunning && !harness(st.Stack)
	case trace.GoNotExist:
		delete(s.gs, id)
		return
	case trace.GoRunning:
		g.assistFrom = t
	case trace.GoWaiting:
		g.why = s.reason(st.Reason, st.Stack)
		g.counted = g.why != nil && !harness(st.Stack)
	case trace.GoSyscall:
		g.counted = !harness(st.Stack)
	}
	s.count(to, 1)
	p := &s.sum.Peak
	p.Goroutines, p.Running, p.Syscalls = max(p.Goroutines, s.live), max(p.Running, s.running), max(p.Syscalls, s.syscalls)
}

// reason maps the runtime's reason for blocking to the Wait it counts in,
// or nil for the runtime's own goroutines parking between jobs.
func (s *summarizer) reason(reason string, stack trace.Stack) *Wait {
	b := &s.sum.Blocked
	switch reason {
	case "chan send", "chan receive", "select":
		return &b.Channel
	case "sync", "sync.(*Cond).Wait":
		if f, ok := innermost(stack); ok && (strings.HasPrefix(f, "runtime.gc") || strings.HasPrefix(f, "runtime.GC")) {
			return &b.GC // the collector's own semaphores
		}
		return &b.Sync
	case "network":
		return &b.Network
	case "GC mark assist wait for work", "wait until GC ends", "GC weak to strong wait":
		return &b.GC
	case "sleep":
		return &b.Sleep
	case "system goroutine wait", "GC background sweeper wait":
		return nil
	}
	return &b.Other
}

func innermost(stack trace.Stack) (string, bool) {
	for f := range stack.Frames() {
		return f.Func, true
	}
	return "", false
}

// workloadEntry reports whether a goroutine that starts in the function
// of stack is the program's: not the runtime's, not the tracer's.
func workloadEntry(stack trace.Stack) bool {
	f, ok := innermost(stack)
	if !ok {
		return false
	}
	return !strings.HasPrefix(f, "runtime.") && !strings.HasPrefix(f, "runtime/trace.")
}

// harness reports whether stack, of a goroutine blocking, entering a
// system call or stopping the world, is the tracer's or the testing
// package's own: the innermost frame of package testing called the
// runtime or the standard library (waiting for the benchmark's goroutine,
// runtime.GC before a timed run, runtime.ReadMemStats in StartTimer,
// printing a result) rather than the benchmark function.
func harness(stack trace.Stack) bool {
	var frames []string
	for f := range stack.Frames() {
		if strings.HasPrefix(f.Func, "runtime/trace.") {
			return true
		}
		frames = append(frames, f.Func)
	}
	for i, f := range frames {
		if !strings.HasPrefix(f, "testing.") {
			continue
		}
		if i == 0 {
			return true
		}
		callee := frames[i-1]
		if strings.Contains(callee, ".Benchmark") {
			return false
		}
		for _, std := range []string{"runtime.", "runtime/", "internal/", "sync.", "fmt.", "os.", "io.", "time.", "syscall.", "testing."} {
			if strings.HasPrefix(callee, std) {
				return true
			}
		}
		return false
	}
	return false
}

func (s *summarizer) finish() *Summary {
	sum := &s.sum
	sum.Wall = s.last.Sub(s.first)
	if s.procs > 0 {
		s.procTime += float64(s.procs) * float64(s.last.Sub(s.procsSince))
	}
	gc := &sum.GC
	gc.CPU = time.Duration(s.gcTime)
	if s.procTime > 0 {
		gc.Share = min(s.gcTime/s.procTime, 1)
	}
	for _, r := range s.stwByReason {
		sum.STW.Reasons = append(sum.STW.Reasons, *r)
	}
	slices.SortFunc(sum.STW.Reasons, func(a, b STWReason) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), strings.Compare(a.Reason, b.Reason))
	})
	sum.SchedLatency = latency(s.latencies)
	sum.Peak.Threads = len(s.threads)
	return sum
}

// latency summarizes the samples: the nearest-rank percentiles.
func latency(d []time.Duration) Latency {
	l := Latency{Count: len(d)}
	if len(d) == 0 {
		return l
	}
	slices.Sort(d)
	for _, v := range d {
		l.Total += v
	}
	rank := func(p float64) time.Duration {
		i := int(float64(len(d))*p+0.999999999) - 1
		return d[min(max(i, 0), len(d)-1)]
	}
	l.P50, l.P90, l.P99, l.Max = rank(0.50), rank(0.90), rank(0.99), d[len(d)-1]
	return l
}
