package findings

import (
	"cmp"
	"strings"

	"github.com/perfloop/perfloop/internal/document"
)

// Options tune Derive.
type Options struct {
	// Module is the module path whose functions count as the module's
	// code; empty means the document's Module.
	Module string
	// Weights gives a benchmark's importance by name (with the Benchmark
	// prefix); a benchmark not listed weighs 1.
	Weights map[string]float64
	// Production, when set, gives each function's share of a profile of
	// the real program (profiles.FunctionShares): the "fix" findings are
	// ranked by the share of their function, and those below MinShare
	// are marked cold in production and ranked last.
	Production map[string]float64
	MinShare   float64
	// Thresholds, when set, replace DefaultThresholds.
	Thresholds *Thresholds
}

const (
	secPerOp    = "sec/op"
	allocsPerOp = "allocs/op"
	bytesPerOp  = "B/op"
)

// bench is what the rules know of one profiled benchmark: its entry, the
// entries that carry its metrics (itself, or its sub-benchmarks), and its
// profile sections.
type bench struct {
	key     string // package + " " + name
	entry   *document.Benchmark
	metrics []*document.Benchmark
	// secPerOp, allocsPerOp and bytesPerOp are per iteration of every
	// sub-benchmark (sums), as the per-op heap profile counts them.
	secPerOp, allocsPerOp, bytesPerOp float64
	hasSec, hasAllocs                 bool
	cats                              map[string]float64
	allocs                            []*document.Allocation
	lines                             []*document.LineCost
	phases                            []*document.Phase
	weight                            float64
}

func (b *bench) name() string { return b.entry.Name }

func (b *bench) memGC() float64 { return b.cats["gc"] + b.cats["memory"] }

// deriver holds what the rules share.
type deriver struct {
	t       Thresholds
	doc     *document.Report
	opts    Options
	module  string
	benches []*bench
	byKey   map[string]*bench
	causes  []*cause
	// cores are the core-scaling rows by bench key (see coreRows).
	cores  map[string]*document.Scaling
	scaled map[string]bool
	// micro names, by bench key, the internal function a benchmark
	// measures directly (see dropInternalMicro).
	micro map[string]string
	// byCallee are the library and I/O causes by category and callee
	// ("syscall os.(*File).Write"): a small call to the same callee from
	// another function joins them (see spreadCauses).
	byCallee map[string]*cause
	// moduleCalls are the lines whose callee is the module's own
	// function (see callsIntoModule).
	moduleCalls []moduleCall
	// shapeLines are the document's shapes by the lines they speak at
	// (shapesAt), made at first use.
	shapeLines map[string][]document.Shape
}

// moduleCall is a line of benchmark b whose callee is a module function.
type moduleCall struct {
	b  *bench
	lc *lineCat
}

// Derive applies the rules to doc and returns the findings, most valuable
// first, and the decision gate.
func Derive(doc *document.Report, opts Options) (findings []document.Finding, gate []document.Gate) {
	if doc == nil {
		return nil, nil
	}
	d := &deriver{t: DefaultThresholds, doc: doc, opts: opts, module: cmp.Or(opts.Module, doc.Module), byKey: map[string]*bench{}, byCallee: map[string]*cause{}}
	if opts.Thresholds != nil {
		d.t = *opts.Thresholds
	}
	d.index()
	d.cores, d.scaled = coreRows(doc)
	for _, b := range d.benches {
		for _, p := range passes {
			if p.bench != nil {
				p.bench(d, b)
			}
		}
	}
	for _, p := range passes {
		if p.all != nil {
			p.all(d)
		}
	}
	fs := d.ranked()
	gate = d.gate(fs)
	inUnit(doc, fs, gate)
	return fs, gate
}

// index groups the document's sections by profiled benchmark.
func (d *deriver) index() {
	doc := d.doc
	for i := range doc.Benchmarks {
		e := &doc.Benchmarks[i]
		if e.Status != "" && e.Status != "ok" {
			continue
		}
		top := e.Name
		if j := strings.IndexByte(top, '/'); j >= 0 {
			top = top[:j]
		}
		key := e.Package + " " + top
		b := d.byKey[key]
		if b == nil {
			b = &bench{key: key, entry: e, cats: map[string]float64{}, weight: 1}
			if w, ok := d.opts.Weights[top]; ok {
				b.weight = w
			}
			d.byKey[key] = b
			d.benches = append(d.benches, b)
		}
		if e.Name == top {
			b.entry = e
		}
		if len(e.Metrics) > 0 {
			b.metrics = append(b.metrics, e)
		}
	}
	for _, b := range d.benches {
		for _, m := range b.metrics {
			if v, ok := median(m, secPerOp); ok {
				b.secPerOp += v
				b.hasSec = true
			}
			if v, ok := median(m, allocsPerOp); ok {
				b.allocsPerOp += v
				b.hasAllocs = true
			}
			if v, ok := median(m, bytesPerOp); ok {
				b.bytesPerOp += v
				// allocs/op is a whole number per op: a benchmark that
				// allocates once every 50 ops reports 0 but B/op > 0.
				b.hasAllocs = true
			}
		}
	}
	find := d.benchOf
	for i := range doc.Categories {
		c := &doc.Categories[i]
		if b := find(c.Package, c.Benchmark); b != nil {
			b.cats[string(c.Category)] += c.Share
		}
	}
	for i := range doc.Allocations {
		a := &doc.Allocations[i]
		if b := find(a.Package, a.Benchmark); b != nil {
			b.allocs = append(b.allocs, a)
		}
	}
	for i := range doc.Lines {
		l := &doc.Lines[i]
		if b := find(l.Package, l.Benchmark); b != nil {
			b.lines = append(b.lines, l)
		}
	}
	for i := range doc.Phases {
		ph := &doc.Phases[i]
		if b := find(ph.Package, ph.Benchmark); b != nil {
			b.phases = append(b.phases, ph)
		}
	}
	d.weighMicro()
}

// weighMicro gives the micro-benchmarks (an internal function or method
// called directly, faster than TightSecPerOp) MicroWeight when the module
// also has a benchmark that is not one: a few nanoseconds of an internal
// method weigh less than a benchmark of the API. A benchmark whose loop
// enters the module at an error's Error method gets ComponentWeight when
// the module has benchmarks of other entry points: it measures the text
// of an error, which a program builds when something fails, not on its
// way through a request or a document (gin's BenchmarkSliceValidationError,
// which both hand analyses left for later beside the request path's
// causes). A benchmark entering at a package-level Compile or MustCompile
// gets MicroWeight when others enter elsewhere: compiled once, run many
// times. So does a benchmark perfloop lint finds adding to a container
// that grows with b.N (accumulated). A weight Options gives stays.
func (d *deriver) weighMicro() {
	var micro, errs, compiles []*bench
	api, others, runs := false, false, false
	for _, b := range d.benches {
		if _, given := d.opts.Weights[b.name()]; given {
			continue
		}
		entry := d.entryOf(b)
		if entry == "" {
			continue
		}
		if name := shortName(entry); name == "Error" || strings.HasSuffix(name, ".Error") {
			errs = append(errs, b)
		} else {
			others = true
		}
		if compiles1(entry) {
			compiles = append(compiles, b)
		} else {
			runs = true
		}
		if !exported(entry) && b.hasSec && b.secPerOp < d.t.TightSecPerOp {
			micro = append(micro, b)
		} else {
			api = true
		}
	}
	if api {
		for _, b := range micro {
			b.weight = d.t.MicroWeight
		}
	}
	if others {
		for _, b := range errs {
			b.weight = min(b.weight, d.t.ComponentWeight)
		}
	}
	if runs {
		// Compiling is done once per pattern, running what was
		// compiled once per input: a Compile benchmark weighs as a
		// micro-benchmark beside the benchmarks that run.
		for _, b := range compiles {
			b.weight = min(b.weight, d.t.MicroWeight)
		}
	}
	for _, b := range d.benches {
		if _, given := d.opts.Weights[b.name()]; given {
			continue
		}
		for _, i := range d.lintsOf(b) {
			if d.doc.Lint[i].Analyzer == "accumulated" {
				// A container every iteration adds to: each op
				// measures it at whatever size b.N left it
				// (roaring's BenchmarkSetRoaring), so what its
				// profile ranks is a size the module's use may
				// never see.
				b.weight = min(b.weight, d.t.MicroWeight)
			}
		}
	}
	d.weighComponents()
}

// compiles1 reports whether a module entry point compiles what is then
// run many times: a package-level function named Compile or MustCompile
// (regexp.Compile's idiom), not a method.
func compiles1(entry string) bool {
	name := shortName(entry)
	return name == "Compile" || name == "MustCompile"
}

// benchOf returns the benchmark named name in package pkg (any package
// when pkg is ""), or nil.
func (d *deriver) benchOf(pkg, name string) *bench {
	if b := d.byKey[pkg+" "+name]; b != nil {
		return b
	}
	if pkg == "" {
		for _, b := range d.benches {
			if b.entry.Name == name {
				return b
			}
		}
	}
	return nil
}

// weighComponents gives ComponentWeight to the benchmarks of a component:
// one whose profile stays in module packages that another package's
// benchmark reaches too, along with more of the module (a cache
// package's Get and Add benchmarks, when the renderer's benchmarks spend
// time in the cache, the width functions and the renderer). The broader
// benchmark measures the component as the module uses it; the
// component's own benchmark, its cost out of that context. A weight
// Options gives stays.
func (d *deriver) weighComponents() {
	spans := map[string]map[string]bool{} // bench key → module packages its profile reaches
	pkgOfBench := map[string]string{}
	reach := func(pkg, bench, function string, inTest bool) {
		fn := document.PlainFunc(function)
		if !d.isModule(fn) || inTest {
			return
		}
		k := pkg + " " + bench
		if spans[k] == nil {
			spans[k] = map[string]bool{}
		}
		spans[k][pkgOf(fn)] = true
		pkgOfBench[k] = pkg
	}
	// The hottest functions, and every module line the profile costs.
	for _, h := range d.doc.Hotspots {
		reach(h.Package, h.Benchmark, h.Function, d.testFunc(h.Function))
	}
	for _, l := range d.doc.Lines {
		reach(l.Package, l.Benchmark, l.Function, l.InTest)
	}
	for _, b := range d.benches {
		if _, given := d.opts.Weights[b.name()]; given || b.weight < 1 {
			continue
		}
		mine := spans[b.key]
		if len(mine) == 0 {
			continue
		}
		for k, other := range spans {
			if k == b.key || pkgOfBench[k] == b.entry.Package || len(other) <= len(mine) {
				continue
			}
			within := true
			for p := range mine {
				within = within && other[p]
			}
			if within {
				b.weight = d.t.ComponentWeight
				break
			}
		}
	}
}

// entryOf returns the module function b's dominant call path enters the
// module at from the benchmark's own code, or "".
func (d *deriver) entryOf(b *bench) string {
	p := b.entry.CallPath
	if p == nil {
		return ""
	}
	for _, fn := range p.Functions {
		plain := document.PlainFunc(fn)
		if strings.Contains(plain, ".Benchmark") || d.testFunc(fn) || !d.isModule(plain) {
			continue
		}
		return outer(plain)
	}
	return ""
}

func median(b *document.Benchmark, unit string) (float64, bool) {
	m := b.Metrics[unit]
	if m == nil {
		return 0, false
	}
	return m.Median, true
}

// isModule reports whether fn is the module's code and not a benchmark
// function.
func (d *deriver) isModule(fn string) bool {
	if short := shortName(fn); strings.HasPrefix(short, "Benchmark") && !inlinedClosure(short) {
		return false
	}
	if d.module != "" {
		return strings.HasPrefix(fn, d.module+".") || strings.HasPrefix(fn, d.module+"/")
	}
	i := strings.Index(fn, "/")
	return i > 0 && strings.Contains(fn[:i], ".")
}

// inlinedClosure reports whether a function name under a benchmark's is
// the closure of a function the compiler inlined into it: the compiler
// names a closure by the chain of functions it was inlined through
// (BenchmarkDecompress.BenchmarkDecompress.Decompress.DecompressWithConfig.func2.func3
// is the handler DecompressWithConfig returns, inlined into the
// benchmark). One named in the chain beside the benchmark and the
// closures makes it that function's code; the benchmark's own closures
// (BenchmarkX.func1) are not.
func inlinedClosure(short string) bool {
	parts := strings.Split(short, ".")
	if len(parts) < 2 || !isClosure(parts[len(parts)-1]) {
		return false
	}
	for _, p := range parts {
		if !strings.HasPrefix(p, "Benchmark") && !isClosure(p) {
			return true
		}
	}
	return false
}

// isClosure reports whether a name element is a closure's: func1, func12.
func isClosure(p string) bool {
	n, ok := strings.CutPrefix(p, "func")
	return ok && n != "" && isDigits(n)
}

// A pass is one step of Derive: a rule that finds causes, or a step that
// composes what the rules found. The package doc is the specification of
// each; needs declares the passes whose causes a pass reads, and
// TestPasses holds the order to it.
type pass struct {
	name, doc string
	needs     []string
	// bench runs once per benchmark, in the order of passes; all once,
	// after every bench pass, in the order of passes.
	bench func(d *deriver, b *bench)
	all   func(d *deriver)
}

// passes are Derive's steps, in the order they run.
var passes = []pass{
	{name: "alloc", doc: "the module's allocation sites per op, one cause per function and mechanism", bench: (*deriver).allocCauses},
	{name: "alloc-cpu", doc: "a run's allocation at the lines its partial heap profile does not name, from the CPU profile", needs: []string{"alloc"}, bench: (*deriver).allocCPUCauses},
	{name: "cpu", doc: "the library calls, own code and inlining of each module function", bench: (*deriver).cpuCauses},
	{name: "fixture", doc: "the benchmark's own per-op allocations", bench: (*deriver).fixtureCauses},
	{name: "scheduler", doc: "scheduler time of a goroutine benchmark with no core-scaling row", bench: (*deriver).contention},
	{name: "compose-cpu", doc: "each function's CPU cause from its parts: words, rule, main line, internal micro-benchmarks", needs: []string{"cpu"}, all: (*deriver).finishCPU},
	{name: "phase", doc: "the phases a program's run fans out into that no function's cause names", needs: []string{"compose-cpu"}, all: (*deriver).phaseAll},
	{name: "contention", doc: "locks, growing lines and shared atomics of the benchmarks measured at several core counts", needs: []string{"compose-cpu"}, all: (*deriver).scalingCauses},
	{name: "merge", doc: "causes that share a line or a function, or a lock and the work inside it, become one", needs: []string{"alloc", "compose-cpu", "contention"}, all: (*deriver).merge},
	{name: "test-support", doc: "the costs in the module's packages only its tests and main programs import (an example decoder a benchmark runs) are one leave-alone finding per package", needs: []string{"merge"}, all: (*deriver).testSupport},
	{name: "avoided-call", doc: "what a call's callees cost under it, when its shape names the call avoidable (two texts built only to be compared), is that call's cause", needs: []string{"merge"}, all: (*deriver).callsAvoided},
	{name: "advice", doc: "the advice of the shape of code at a cause's lines that explains its cost", needs: []string{"merge"}, all: (*deriver).advise},
	{name: "one-change", doc: "the causes one change removes, known by their shapes (one lock several methods take, a printf wrapper and its callers), become one", needs: []string{"advice"}, all: (*deriver).oneChange},
	{name: "shard-lock", doc: "a lock's contention on one shard of a structure that holds many, picked by key, is the benchmark's keys, not the lock's scope: leave alone", needs: []string{"one-change"}, all: (*deriver).shardLocks},
	{name: "benchmarks", doc: "broken benchmarks, and those to leave alone (which reads every fix cause)", needs: []string{"merge", "scheduler", "fixture"}, all: (*deriver).benchmarkVerdicts},
}

// phaseAll runs phaseCauses for each benchmark.
func (d *deriver) phaseAll() {
	for _, b := range d.benches {
		d.phaseCauses(b)
	}
}
