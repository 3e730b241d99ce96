package loop

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// ProfileOptions says how perfloop profile runs each benchmark and how
// much of each profile the document keeps.
type ProfileOptions struct {
	// Keep, if set, is the directory where the profiles are kept as
	// NAME.cpu.pprof and NAME.mem.pprof.
	Keep string
	// MemRate is -memprofilerate (1 records every allocation).
	MemRate int
	// Hotspots and Sites are how many functions and allocation sites the
	// document keeps per benchmark (by flat and cum, by bytes and
	// objects); 0 means 10 and 5.
	Hotspots, Sites int
	// HeapPerOp profiles what the timed loop allocates per op, and
	// nothing else (perfloop explain): instead of the CPU and heap runs,
	// a plain run for the benchmark's B/op, then the heap at two fixed
	// iteration counts, subtracted (as report measures it), so that the
	// setup's allocations and the testing package's are left out. Only
	// sites in the module's code are kept: the runtime's own allocations
	// are not the benchmark's. A benchmark at 0 B/op gets no sites and a
	// LoopBytesPerOp of 0. Keep and MemRate do not apply.
	HeapPerOp bool
}

// Profiled is one benchmark as perfloop profile measured it.
type Profiled struct {
	Package string
	Name    string // "BenchmarkEncode"
	Status  results.Status
	Error   string
	// Analysis is nil when the benchmark or its profiles failed.
	Analysis *profiles.Analysis
	// CPUProfile and HeapProfile are where the profiles were kept, or "".
	CPUProfile, HeapProfile string
	// Results are the CPU run's results (one run).
	Results []*benchfmt.Result
	// PerOp is the iteration count the heap analysis's values are for
	// (0: a whole run's); LoopBytesPerOp what the timed loop allocates
	// per op (nil: not measured). Both with ProfileOptions.HeapPerOp only.
	PerOp          float64
	LoopBytesPerOp *float64
}

// ProfileRun is what one profile run found.
type ProfileRun struct {
	Doc *document.Report
	// Failures describes each failed benchmark and package in one line.
	Failures []string
	// Targets is how many benchmarks were selected; Broken how many
	// packages did not build.
	Targets, Broken int
}

// Profile profiles every benchmark of the suite: one run under the CPU
// profiler and one under the heap profiler, in separate processes so that
// neither profiler distorts the other. each, if not nil, is called with
// every benchmark as it finishes. On cancellation it returns what finished
// with ctx's error.
func (s *Suite) Profile(ctx context.Context, opts ProfileOptions, bar *progress.Bar, each func(*Profiled) error) (*ProfileRun, error) {
	defer bar.Done()
	scratch, err := filepath.Abs(filepath.Join(s.Dir(), "profiles"))
	if err == nil {
		err = os.MkdirAll(scratch, 0o755)
	}
	if err != nil {
		return nil, fmt.Errorf("create profile directory: %w", err)
	}
	if opts.Keep != "" {
		if err := os.MkdirAll(opts.Keep, 0o755); err != nil {
			return nil, fmt.Errorf("create profile directory %s: %w", opts.Keep, err)
		}
	}
	run := &ProfileRun{
		Doc:     &document.Report{Schema: document.Schema, Benchmarks: []document.Benchmark{}},
		Targets: len(s.Targets),
		Broken:  len(s.Failed),
	}
	defer func() { fillEnv(run.Doc, s.Env) }()
	for _, pe := range s.Failed {
		run.Failures = append(run.Failures, fmt.Sprintf("%s: %v", pe.Package, pe.Err))
		run.Doc.Packages = append(run.Doc.Packages, document.Package{Package: pe.Package, Status: string(results.StatusFailed), Error: pe.Err.Error()})
	}
	names := ProfileNames(s.Targets)
	bar.Start(len(s.Targets), "")
	for i, t := range s.Targets {
		bar.Describe(t.Name)
		p, err := s.profileOne(ctx, t, names[i], scratch, opts)
		if err != nil {
			return run, err
		}
		if p.Status != results.StatusOK && p.Status != results.StatusSkipped {
			run.Failures = append(run.Failures, fmt.Sprintf("%s %s: %s", p.Package, p.Name, p.Error))
			bar.Printf("%s %s: %s", p.Package, p.Name, p.Error)
		}
		bj := profiledBenchmark(p)
		bj.LoopBytesPerOp = p.LoopBytesPerOp
		addEvidence(run.Doc, &bj, p.Analysis, evidence{hotspots: opts.Hotspots, sites: opts.Sites, perOp: p.PerOp})
		run.Doc.Benchmarks = append(run.Doc.Benchmarks, bj)
		if each != nil {
			if err := each(p); err != nil {
				return run, err
			}
		}
		bar.Step("")
	}
	return run, nil
}

// profileOne runs one benchmark under each profiler and analyses the
// profiles. It returns an error only on cancellation, when the binary
// cannot be started or when the profiles cannot be kept; a failure of the
// benchmark or its profiles is in the result.
func (s *Suite) profileOne(ctx context.Context, t gotest.Target, name, scratch string, opts ProfileOptions) (*Profiled, error) {
	pkg := t.Binary.Package
	p := &Profiled{Package: pkg.ImportPath, Name: t.Name, Status: results.StatusOK}
	cpuPath := filepath.Join(scratch, name+".cpu.pprof")
	memPath := filepath.Join(scratch, name+".mem.pprof")
	cfg := gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: s.Config.Benchtime, CPU: s.Config.CPU, Timeout: s.Config.Timeout}
	if opts.HeapPerOp {
		return s.profileHeapPerOp(ctx, t, name, scratch, cfg, p)
	}
	if opts.Keep != "" {
		// No stale profiles from an earlier run beside this run's error.
		for _, kind := range []string{".cpu.pprof", ".mem.pprof"} {
			if err := os.Remove(filepath.Join(opts.Keep, name+kind)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("keep profile: %w", err)
			}
		}
	}
	cfg.Args = []string{"-test.cpuprofile=" + cpuPath}
	o, err := t.Binary.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	noteEnv(&s.Env, o)
	p.Results = o.Results
	if o.Status != results.StatusOK {
		p.Status, p.Error = o.Status, o.Error
		return p, nil
	}
	if longer := longerBenchtime(cfg.Benchtime); longer != "" && !sampled(cpuPath) {
		// At 100 samples a second a short run on a busy machine can end
		// with none: once more, long enough to be sampled.
		rc := cfg
		rc.Benchtime = longer
		if o, err = t.Binary.Run(ctx, rc); err != nil {
			return nil, err
		}
		if o.Status != results.StatusOK {
			p.Status, p.Error = o.Status, o.Error
			return p, nil
		}
	}
	cfg.Args = []string{"-test.memprofile=" + memPath, "-test.memprofilerate=" + strconv.Itoa(max(opts.MemRate, 1))}
	o, err = t.Binary.Run(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if o.Status != results.StatusOK {
		p.Status, p.Error = o.Status, "heap profile run: "+o.Error
		return p, nil
	}
	if opts.Keep != "" {
		p.CPUProfile = filepath.Join(opts.Keep, name+".cpu.pprof")
		p.HeapProfile = filepath.Join(opts.Keep, name+".mem.pprof")
		if err := copyFile(cpuPath, p.CPUProfile); err != nil {
			return nil, fmt.Errorf("keep profile: %w", err)
		}
		if err := copyFile(memPath, p.HeapProfile); err != nil {
			return nil, fmt.Errorf("keep profile: %w", err)
		}
	}
	a, err := profiles.Analyze(cpuPath, memPath, analyzeOptions(t))
	if err != nil {
		p.Status, p.Error = results.StatusFailed, err.Error()
		return p, nil
	}
	p.Analysis = a
	return p, nil
}

// profileHeapPerOp is profileOne with ProfileOptions.HeapPerOp.
func (s *Suite) profileHeapPerOp(ctx context.Context, t gotest.Target, name, scratch string, cfg gotest.RunConfig, p *Profiled) (*Profiled, error) {
	run := func(rc gotest.RunConfig) (*gotest.Outcome, error) { return t.Binary.Run(ctx, rc) }
	o, err := run(cfg)
	if err != nil {
		return nil, err
	}
	noteEnv(&s.Env, o)
	p.Results = o.Results
	if o.Status != results.StatusOK {
		p.Status, p.Error = o.Status, o.Error
		return p, nil
	}
	b := &results.Benchmark{Package: p.Package, Name: p.Name, Status: o.Status, Results: o.Results}
	loopBytes := 0.0
	if _, _, bytes := perOpMetrics(b); bytes == 0 {
		// The timed loop allocates nothing: whatever the run allocated
		// was setup, or the testing package's.
		p.Analysis, p.LoopBytesPerOp = &profiles.Analysis{}, &loopBytes
		return p, nil
	}
	_, perOp, n1, n2, msg, err := heapPerOp(cfg, b, name, scratch, run)
	if err != nil {
		return nil, err
	}
	if msg != "" {
		p.Status, p.Error = results.StatusFailed, msg
		return p, nil
	}
	p.Analysis, p.LoopBytesPerOp = &profiles.Analysis{}, &loopBytes
	if profiles.SampleTotal(perOp, "alloc_space") <= 0 {
		// B/op rounds a one-time cost up; per op, nothing.
		return p, nil
	}
	h, err := profiles.AnalyzeHeap(perOp, reportOptions(t, s.perOpLines(t)))
	if err != nil {
		p.Status, p.Error = results.StatusFailed, "heap profile: "+err.Error()
		return p, nil
	}
	h.Sites = slices.DeleteFunc(h.Sites, func(site profiles.Site) bool { return !site.Module })
	p.Analysis.Heap = h
	p.PerOp = float64(n1 - n2)
	loopBytes = float64(profiles.SampleTotal(perOp, "alloc_space")) / p.PerOp
	return p, nil
}

func analyzeOptions(t gotest.Target) profiles.Options {
	pkg := t.Binary.Package
	root := pkg.ModuleDir
	if root == "" {
		root = pkg.Dir
	}
	return profiles.Options{ModuleDir: root, ModulePath: pkg.ModulePath, Benchmark: t.Name}
}

// reportOptions are analyzeOptions with the benchmark's untimed lines left
// out of the profiles (report only: perfloop profile shows the profiles
// as pprof does).
func reportOptions(t gotest.Target, untimed map[string]bool) profiles.Options {
	o := analyzeOptions(t)
	o.Untimed = untimed
	return o
}

// profiledBenchmark describes a profiled benchmark. Its metrics come from
// the CPU run (one sample each) when the benchmark has a single result
// line; a benchmark with sub-benchmarks or several -cpu values is profiled
// as a whole and has none.
func profiledBenchmark(p *Profiled) document.Benchmark {
	bj := document.Benchmark{
		Package: p.Package, Name: p.Name, Status: string(p.Status), Error: p.Error,
		Metrics: map[string]*document.Metric{}, CPUProfile: p.CPUProfile, HeapProfile: p.HeapProfile,
	}
	if len(p.Results) == 1 {
		name, procs := stats.SplitProcs(p.Results[0].Name)
		if "Benchmark"+name == p.Name {
			bj.Procs = procs
			for _, v := range p.Results[0].Values {
				bj.Metrics[v.Unit] = document.NewMetric(stats.Summarize([]float64{v.Value}, v.Unit, nil))
			}
		}
	}
	return bj
}

// addProfile fills bj's profile fields from a and appends a's hotspots,
// categories and allocation sites to doc: the top hotspots functions and
// the top sites (0: 10 and 5).
func addProfile(doc *document.Report, bj *document.Benchmark, a *profiles.Analysis, hotspots, sites int) {
	addEvidence(doc, bj, a, evidence{hotspots: hotspots, sites: sites})
}

// evidence says how much of a profile the document keeps and what else
// is known about the runs.
type evidence struct {
	hotspots, sites int
	// lines is how many line costs to keep (0: none).
	lines int
	src   *sources
	// perOp is the iteration count the heap profile's values are for
	// (0: unknown, the profile is of a whole run).
	perOp float64
}

// Evidence says how much of a profile AddEvidence keeps in the document
// and what else is known about the runs.
type Evidence struct {
	// Hotspots and Sites are how many hot functions and allocation sites
	// to keep (0: 10 and 5).
	Hotspots, Sites int
	// Lines is how many line costs to keep (0: none); each carries its
	// source line, read from the module at ModuleDir.
	Lines     int
	ModuleDir string
	// PerOp is the iteration count the heap profile's values are for
	// (0: unknown, the profile is of a whole run).
	PerOp float64
}

// AddEvidence fills bj's profile fields from a and appends a's hotspots,
// categories, line costs and allocation sites to doc, as report does.
func AddEvidence(doc *document.Report, bj *document.Benchmark, a *profiles.Analysis, ev Evidence) {
	addEvidence(doc, bj, a, evidence{hotspots: ev.Hotspots, sites: ev.Sites, lines: ev.Lines, src: newSources(ev.ModuleDir), perOp: ev.PerOp})
}

// addEvidence is addProfile with line costs and per-op values.
func addEvidence(doc *document.Report, bj *document.Benchmark, a *profiles.Analysis, ev evidence) {
	hotspots, sites := ev.hotspots, ev.sites
	if a == nil {
		return
	}
	if a.CPU != nil && ev.lines > 0 {
		ms, cs := a.CPU.ModuleShare, a.CPU.CalleeShare
		bj.ModuleCPUShare, bj.CalleeCPUShare = &ms, &cs
		bj.CPUSamples = a.CPU.Samples
		if a.CPU.Duration > 0 && a.CPU.Unit == "nanoseconds" {
			busy := float64(a.CPU.Total+a.CPU.Untimed) / float64(a.CPU.Duration)
			bj.CPUBusy = &busy
		}
		for i, l := range a.CPU.Lines {
			if i == ev.lines {
				break
			}
			doc.Lines = append(doc.Lines, document.LineCost{
				Benchmark: bj.Name, Package: bj.Package, Function: document.SourceFunc(l.Function), File: l.File, Line: l.Line,
				InTest: l.InTest, Callee: l.Callee, Category: document.Category(l.Category), Self: l.Self, Cum: l.Cum, Alloc: l.Alloc,
				Source: ev.src.line(l.File, l.Line),
			})
		}
	}
	if a.CPU != nil {
		if p := a.CPU.Path; len(p.Frames) > 0 {
			cp := &document.CallPath{Text: p.String(), Share: p.Share}
			for _, f := range p.Frames {
				cp.Functions = append(cp.Functions, f.Function)
			}
			bj.CallPath = cp
		}
		for _, f := range a.CPU.Shown(orDefault(hotspots, 10), 0) {
			doc.Hotspots = append(doc.Hotspots, document.Hotspot{
				Benchmark: bj.Name, Package: bj.Package, Function: document.SourceFunc(f.Name),
				File: f.File, Line: f.Line, Flat: f.FlatShare, Cum: f.CumShare,
			})
		}
		for _, c := range a.CPU.Categories {
			doc.Categories = append(doc.Categories, document.CategoryShare{
				Benchmark: bj.Name, Package: bj.Package, Category: document.Category(c.Name), Share: c.Share,
			})
		}
	}
	if a.Heap != nil {
		share := a.Heap.TestShare
		bj.TestAllocShare = &share
		for _, s := range a.Heap.Shown(orDefault(sites, 5), 0) {
			al := document.Allocation{
				Benchmark: bj.Name, Package: bj.Package, Function: document.SourceFunc(s.Function),
				File: s.File, Line: s.Line, Via: s.Via, Bytes: s.Bytes, Objects: s.Objects,
				CallerFile: s.CallerFile, CallerLine: s.CallerLine, Alloc: s.Alloc, Parent: s.Parent,
				ParentFile: s.ParentFile, ParentLine: s.ParentLine,
				BytesShare: s.BytesShare, ObjectsShare: s.ObjectsShare, InTest: s.InTest,
			}
			if ev.perOp > 0 {
				al.BytesPerOp, al.AllocsPerOp = float64(s.Bytes)/ev.perOp, float64(s.Objects)/ev.perOp
			}
			doc.Allocations = append(doc.Allocations, al)
		}
	}
}

func orDefault(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

func fillEnv(d *document.Report, env results.Env) {
	d.Module, d.GoVersion, d.GOOS, d.GOARCH = env.Module, env.GoVersion, env.GOOS, env.GOARCH
	d.CPU, d.Commit, d.Date = env.CPU, env.Commit, env.Date
}

// ProfileNames gives each target the file name its profiles are kept
// under: the benchmark's name with slashes replaced, prefixed by its
// package path where two packages share a benchmark name.
func ProfileNames(targets []gotest.Target) []string {
	count := map[string]int{}
	for _, t := range targets {
		count[t.Name]++
	}
	names := make([]string, len(targets))
	for i, t := range targets {
		n := t.Name
		if count[n] > 1 {
			n = t.Binary.Package.ImportPath + "." + n
		}
		names[i] = sanitizeName(n)
	}
	return names
}

func sanitizeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '/', '\\', ':', '*', '?', '"', '<', '>', '|', ' ':
			return '_'
		}
		return r
	}, s)
}

func copyFile(from, to string) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	if _, err := io.Copy(out, in); err != nil {
		return fmt.Errorf("copy %s: %w", from, err)
	}
	return nil
}

// sampled reports whether the CPU profile at path holds a sample.
func sampled(path string) bool {
	p, err := profiles.ReadFile(path)
	return err != nil || len(p.Sample) > 0 // an unreadable profile is reported by the analysis
}

// longerBenchtime is the -benchtime of a second CPU profile run when the
// first had no sample: a second, or "" when the first already ran at
// least that long.
func longerBenchtime(bt string) string {
	if strings.HasSuffix(bt, "x") {
		return "1s" // a count says nothing of the time it took
	}
	d, err := time.ParseDuration(cmp.Or(bt, "1s"))
	if err != nil || d >= time.Second {
		return ""
	}
	return "1s"
}
