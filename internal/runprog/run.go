package runprog

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/escape"
	"github.com/perfloop/perfloop/internal/findings"
	"github.com/perfloop/perfloop/internal/git"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/profiles"
	"github.com/perfloop/perfloop/internal/program"
	"github.com/perfloop/perfloop/internal/stats"
)

// CPU profile modes of a program run.
const (
	CPUAuto = "auto" // on, unless the main package starts its own
	CPUOn   = "on"
	CPUOff  = "off"
)

// Config says which main package perfloop run builds, how it runs
// it and where the profiles go.
type Config struct {
	// Dir is the directory the go command and the program run in ("" for
	// the current one).
	Dir string
	// Package is the main package ("./cmd/wc").
	Package string
	Tags    string
	// Variants are the argument lists to run, each a variant; at least
	// one.
	Variants [][]string
	// Runs is how many times each variant runs (at least 1).
	Runs int
	// Base, if set, is a git revision: every variant also runs as built
	// from it (a scratch work tree of the revision), before the work
	// tree's.
	Base string
	// Out is the directory the profiles are kept in: cpu.pprof,
	// heap.pprof (and trace.out, mutex.pprof, block.pprof), in Out/1,
	// Out/2, … when there are several variants.
	Out string
	// Stdin, Stdout and Stderr are the program's streams; stdin is given
	// to the program only when it runs once.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// MemProfileRate, NoHeap, Segment, Trace, Mutex and Block: see
	// program.RunOptions.
	MemProfileRate int
	NoHeap         bool
	Segment        time.Duration
	Trace          bool
	Mutex, Block   int
	// FinalGC is the collection before the final heap profile: "" or
	// "auto" (the wrapper decides by its cost), "on" or "off" (see
	// program.RunOptions).
	FinalGC string
	// CPU is one of CPUAuto, CPUOn, CPUOff.
	CPU string
	// Kill, closed after ctx is done, kills the program under way at
	// once instead of after program.DefaultKillAfter (a second Ctrl-C).
	Kill <-chan struct{}
	// Stage, if set, is told what happens: "building", "running …",
	// "explaining", and notes worth a line on stderr.
	Stage func(string)
}

// Result is what perfloop run measured and found.
type Result struct {
	Doc *document.Report
	// Flames are the CPU profiles' flame graphs by variant name.
	Flames map[string]*profiles.FlameNode
	// ExitCode is the first non-zero exit status of the program's runs,
	// or 0.
	ExitCode int
	// Notes say what is missing or was changed, one line each.
	Notes []string
	// EscapeErr is why the compiler's escape analysis is missing, if it
	// is.
	EscapeErr error
}

// variantRun is one variant's runs, merged.
type variantRun struct {
	name    string
	args    []string
	pkg     *program.Package
	bin     string
	base    bool   // built from the Base revision
	rev     string // the revision it was built from, "" for the work tree
	results []*program.Result
	cpu     *profile.Profile
	heap    *profile.Profile
	dir     string // where its profiles are kept
}

// Run builds the main package with profiling injected (the user's
// files untouched: go build -overlay), runs every variant Runs times with
// the program's streams passed through, and analyses the profiles as
// report does: hotspots, line costs, categories, allocation sites with the
// compiler's verdicts, findings. Cancellation stops the program under way
// (the signal forwarded, a kill if it does not end: see program.Run),
// stops further runs and analyses what was run, returning it with ctx's
// error.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	stage := cfg.Stage
	if stage == nil {
		stage = func(string) {}
	}
	if len(cfg.Variants) == 0 {
		cfg.Variants = [][]string{nil}
	}
	cfg.Runs = max(cfg.Runs, 1)
	pkg, err := program.List(ctx, cfg.Dir, cfg.Tags, cfg.Package)
	if err != nil {
		return nil, err
	}
	src, err := program.Inspect(pkg.GoFiles)
	if err != nil {
		return nil, err
	}
	run := &Result{Flames: map[string]*profiles.FlameNode{}}
	noCPU := cfg.CPU == CPUOff
	if src.OwnCPUProfile != "" && cfg.CPU != CPUOn {
		noCPU = true
		run.Notes = append(run.Notes, fmt.Sprintf("%s starts a CPU profile of its own: perfloop takes none, so the program's works (the heap profile is still taken; -cpu on takes perfloop's when that code does not run)", src.OwnCPUProfile))
	}
	if src.Signals {
		run.Notes = append(run.Notes, "the program handles signals itself (it imports os/signal): a run it ends with os.Exit after a signal loses its last CPU profile segment")
	}

	work, err := os.MkdirTemp("", "perfloop-run-")
	if err != nil {
		return nil, fmt.Errorf("create a temporary directory: %w", err)
	}
	defer os.RemoveAll(work)

	type escapes struct {
		ix  *escape.Index
		err error
	}
	escCh := make(chan escapes, 1)
	go func() {
		ix, err := escape.Run(ctx, escape.Options{Dir: cfg.Dir, Tags: cfg.Tags}, pkg.ModulePath+"/...")
		escCh <- escapes{ix, err}
	}()
	stage("building " + pkg.ImportPath)
	bin, err := program.Build(ctx, pkg, program.BuildOptions{Dir: cfg.Dir, Tags: cfg.Tags, Work: work, Wrapper: program.WrapperOptions{Signals: !src.Signals}})
	// The escape analysis competes for the CPU: let it finish before the
	// program runs.
	esc := <-escCh
	if err != nil {
		return nil, err
	}
	run.EscapeErr = esc.err

	names := variantNames(cfg.Variants)
	var variants []*variantRun
	for i, args := range cfg.Variants {
		variants = append(variants, &variantRun{name: names[i], args: args, pkg: pkg, bin: bin})
	}
	if cfg.Base != "" {
		basePkg, baseBin, label, remove, err := buildBase(ctx, cfg, work, src.Signals)
		if remove != nil {
			defer remove()
		}
		if err != nil {
			return nil, err
		}
		var both []*variantRun
		for _, v := range variants {
			name := strings.TrimSpace(strings.TrimPrefix(v.name, "run"))
			both = append(both,
				&variantRun{name: strings.TrimSpace(label + " " + name), args: v.args, pkg: basePkg, bin: baseBin, base: true, rev: label},
				&variantRun{name: strings.TrimSpace("work tree " + name), args: v.args, pkg: pkg, bin: bin, rev: "work tree"})
		}
		variants = both
	}
	total := len(variants) * cfg.Runs
	n := 0
runs:
	for i, v := range variants {
		args := v.args
		v.dir = cfg.Out
		if len(variants) > 1 {
			v.dir = filepath.Join(cfg.Out, strconv.Itoa(i+1))
		}
		if err := os.MkdirAll(v.dir, 0o755); err != nil {
			return nil, fmt.Errorf("create profile directory: %w", err)
		}
		for r := 0; r < cfg.Runs; r++ {
			if ctx.Err() != nil {
				break runs
			}
			n++
			if total > 1 {
				stage(fmt.Sprintf("run %d of %d: %s", n, total, strings.TrimSpace(pkg.ImportPath+" "+strings.Join(args, " "))))
			}
			dir := filepath.Join(work, fmt.Sprintf("run-%d-%d", i+1, r+1))
			bin := v.bin
			if err := os.Mkdir(dir, 0o755); err != nil {
				return nil, fmt.Errorf("create profile directory: %w", err)
			}
			ro := program.RunOptions{
				Binary: bin, Args: args, Stdout: cfg.Stdout, Stderr: cfg.Stderr, Profiles: dir,
				MemProfileRate: cfg.MemProfileRate, NoHeap: cfg.NoHeap, FinalGC: finalGC(cfg.FinalGC), Segment: cfg.Segment, NoCPU: noCPU,
				Trace: cfg.Trace, Mutex: cfg.Mutex, Block: cfg.Block, Grace: 500 * time.Millisecond,
				Kill: cfg.Kill,
			}
			if total == 1 {
				ro.Stdin = cfg.Stdin
			}
			res, err := program.Run(ctx, ro)
			if err != nil {
				return nil, err
			}
			v.results = append(v.results, res)
			if res.ExitCode != 0 && run.ExitCode == 0 {
				run.ExitCode = res.ExitCode
			}
			if err := v.add(res, dir); err != nil {
				return nil, err
			}
		}
	}

	if !slices.ContainsFunc(variants, func(v *variantRun) bool { return len(v.results) > 0 }) {
		return nil, ctx.Err() // interrupted before the first run
	}
	stage("explaining")
	// What ran is analysed even when the run was interrupted: the
	// analysis is quick, and the program's profiles are written.
	actx := context.WithoutCancel(ctx)
	doc := &document.Report{Schema: document.Schema, Module: pkg.ModulePath, GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		Date: time.Now().UTC().Format(time.RFC3339), Benchmarks: []document.Benchmark{}, Op: document.OpRun}
	doc.GoVersion, _ = (&gotest.Toolchain{Dir: cfg.Dir}).GoVersion(actx)
	doc.Commit = git.ReadVCS(actx, pkg.ModuleDir).Commit
	doc.Run = &document.Run{Package: pkg.ImportPath, SegmentSeconds: cmpDuration(cfg.Segment, time.Second).Seconds(),
		MemProfileRate: cmpInt(cfg.MemProfileRate, 512*1024)}
	if cfg.NoHeap {
		doc.Run.MemProfileRate = 0
	}
	// The work tree's variants first: the compiler's verdicts are the
	// work tree's, and explain joins them to its lines only; then the
	// base revision's, in the variants' order.
	order := map[string]int{}
	analyse := func(base bool) error {
		for i, v := range variants {
			if len(v.results) == 0 || v.base != base {
				continue
			}
			order[v.name] = i
			aopts := profiles.Options{ModuleDir: v.pkg.ModuleDir, ModulePath: v.pkg.ModulePath, Benchmark: "main", Phases: true}
			rv, bj, a, err := v.analyse(doc, v.pkg, aopts)
			if err != nil {
				return err
			}
			rv.Revision = v.rev
			loop.AddEvidence(doc, &bj, a, loop.Evidence{Hotspots: 10, Sites: 8, Lines: 40, ModuleDir: v.pkg.ModuleDir, PerOp: float64(len(v.results))})
			doc.Hotspots = slices.DeleteFunc(doc.Hotspots, func(h document.Hotspot) bool { return h.Benchmark == bj.Name && isLeaf(h.Function) })
			if a.CPU != nil {
				for _, ph := range a.CPU.Phases {
					doc.Phases = append(doc.Phases, document.Phase{Benchmark: bj.Name, Package: bj.Package, Function: ph.Function,
						Caller: ph.Caller, File: ph.File, Line: ph.Line, Share: ph.Share, MemoryShare: ph.MemoryShare})
				}
			}
			// The benchmark rules (the loop does no work, setup in the
			// timed region) are not a program's.
			bj.ModuleCPUShare, bj.CalleeCPUShare = nil, nil
			doc.Benchmarks = append(doc.Benchmarks, bj)
			doc.Run.Variants = append(doc.Run.Variants, rv)
			if v.cpu != nil && a.CPU != nil {
				run.Flames[v.name] = profiles.Flame(v.cpu)
			}
		}
		return nil
	}
	if err := analyse(false); err != nil {
		return nil, err
	}
	if esc.ix != nil {
		if err := loop.Explain(actx, cfg.Dir, doc, esc.ix); err != nil && run.EscapeErr == nil {
			run.EscapeErr = err
		}
		doc.NotInlined = loop.NotInlined(doc, esc.ix)
	}
	if deps, err := loop.DepNotInlined(actx, cfg.Dir, cfg.Tags, doc); err == nil {
		doc.NotInlined = append(doc.NotInlined, deps...)
	} else if run.EscapeErr == nil && actx.Err() == nil {
		run.EscapeErr = err
	}
	if err := analyse(true); err != nil {
		return nil, err
	}
	slices.SortStableFunc(doc.Run.Variants, func(a, b document.RunVariant) int { return order[a.Name] - order[b.Name] })
	slices.SortStableFunc(doc.Benchmarks, func(a, b document.Benchmark) int { return order[a.Name] - order[b.Name] })
	doc.Findings, doc.Gate = findings.Derive(doc, findings.Options{})
	allocFirst(doc)
	doc.Commands = programCommands(pkg, variants)
	run.Doc = doc
	for _, rv := range doc.Run.Variants {
		for _, note := range rv.Notes {
			run.Notes = append(run.Notes, note)
		}
	}
	return run, ctx.Err()
}

// add merges one run's profiles into the variant's.
func (v *variantRun) add(res *program.Result, dir string) error {
	merge := func(into **profile.Profile, p *profile.Profile) error {
		if p == nil {
			return nil
		}
		if *into == nil {
			*into = p
			return nil
		}
		m, err := profile.Merge([]*profile.Profile{*into, p})
		if err != nil {
			return fmt.Errorf("merge the runs' profiles: %w", err)
		}
		*into = m
		return nil
	}
	if err := merge(&v.cpu, res.CPU); err != nil {
		return err
	}
	if err := merge(&v.heap, res.Heap); err != nil {
		return err
	}
	// The last run's trace and contention profiles are kept as they are.
	for _, name := range []string{"trace.out", "mutex.pprof", "block.pprof"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			if err := copyFile(filepath.Join(dir, name), filepath.Join(v.dir, name)); err != nil {
				return fmt.Errorf("keep %s: %w", name, err)
			}
		}
	}
	return nil
}

// buildBase checks cfg.Base out into a scratch work tree (in work) and
// builds the same main package there. remove, when not nil, removes the
// work tree; label names the revision ("BASE v1.2 1ae5dc26f40b").
func buildBase(ctx context.Context, cfg Config, work string, signals bool) (pkg *program.Package, bin, label string, remove func() error, err error) {
	dir, err := filepath.Abs(cmp.Or(cfg.Dir, "."))
	if err != nil {
		return nil, "", "", nil, err
	}
	repo, err := git.RepoRoot(ctx, dir)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("-rev needs a git repository: %w", err)
	}
	rel, err := filepath.Rel(repo, dir)
	if err != nil {
		return nil, "", "", nil, err
	}
	commit, err := git.ResolveRevision(ctx, repo, cfg.Base)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("-rev %s: %w", cfg.Base, err)
	}
	tree := filepath.Join(work, "base")
	remove, err = git.CheckoutWorktree(ctx, repo, commit, tree)
	if err != nil {
		return nil, "", "", nil, fmt.Errorf("check out %s: %w", cfg.Base, err)
	}
	baseDir := filepath.Join(tree, rel)
	if pkg, err = program.List(ctx, baseDir, cfg.Tags, cfg.Package); err != nil {
		return nil, "", "", remove, fmt.Errorf("-rev %s: %w", cfg.Base, err)
	}
	if cfg.Stage != nil {
		cfg.Stage("building " + pkg.ImportPath + " at " + cfg.Base)
	}
	bw := filepath.Join(work, "base-build")
	if err := os.MkdirAll(bw, 0o755); err != nil {
		return nil, "", "", remove, err
	}
	bin, err = program.Build(ctx, pkg, program.BuildOptions{Dir: baseDir, Tags: cfg.Tags, Work: bw, Wrapper: program.WrapperOptions{Signals: !signals}})
	if err != nil {
		return nil, "", "", remove, fmt.Errorf("-rev %s: %w", cfg.Base, err)
	}
	label = cfg.Base
	if short := commit[:min(12, len(commit))]; !strings.HasPrefix(commit, cfg.Base) {
		label += " " + short
	}
	return pkg, bin, label, remove, nil
}

// analyse writes the variant's merged profiles and turns them into its
// figures, its benchmark entry and the profiles' analysis.
func (v *variantRun) analyse(doc *document.Report, pkg *program.Package, opts profiles.Options) (document.RunVariant, document.Benchmark, *profiles.Analysis, error) {
	runs := float64(len(v.results))
	last := v.results[len(v.results)-1]
	rv := document.RunVariant{Name: v.name, Args: append([]string{}, v.args...), Runs: len(v.results),
		ExitCode: last.ExitCode, Signal: last.Signal, End: last.End}
	bj := document.Benchmark{Package: pkg.ImportPath, Name: v.name, Status: "ok", Metrics: map[string]*document.Metric{}}
	var wall, user, sys, rss, minor, major, collected, gcCost []float64
	var heapBytes int64
	for _, r := range v.results {
		if r.Collected != nil && r.FinalGC != "" {
			gcCost = append(gcCost, r.FinalGCCost)
			heapBytes += r.HeapBytes
			// A run without the collection makes the merged profile
			// partial: its decision is the variant's.
			if rv.FinalGC == "" || rv.FinalGC == program.FinalGCCollected || rv.FinalGC == program.FinalGCOn {
				rv.FinalGC = r.FinalGC
			}
		}
		wall = append(wall, r.Wall.Seconds())
		user = append(user, r.User.Seconds())
		sys = append(sys, r.Sys.Seconds())
		rss = append(rss, float64(r.MaxRSS))
		minor = append(minor, float64(r.MinorFaults))
		major = append(major, float64(r.MajorFaults))
		if r.FinalCollection > 0 {
			collected = append(collected, r.FinalCollection.Seconds())
		}
		rv.Segments += r.Segments
		if r.Lost {
			rv.LostSegments++
		}
	}
	med := func(xs []float64, unit string) float64 { return stats.Summarize(xs, unit, nil).Median }
	rv.WallSeconds, rv.UserSeconds, rv.SysSeconds = med(wall, "sec/op"), med(user, "sec/op"), med(sys, "sec/op")
	rv.MaxRSSBytes, rv.MinorFaults, rv.MajorFaults = int64(med(rss, "B")), int64(med(minor, "faults")), int64(med(major, "faults"))
	if len(gcCost) > 0 {
		rv.FinalGCCost = med(gcCost, "")
	}
	if len(collected) > 0 {
		rv.FinalCollectionSeconds = med(collected, "sec/op")
		if note := collectionNote(v.name, rv.FinalCollectionSeconds, rv.WallSeconds); note != "" {
			rv.Notes = append(rv.Notes, note)
		}
	}
	bj.Metrics["sec/op"] = document.NewMetric(stats.Summarize(wall, "sec/op", nil))
	if len(wall) > 1 {
		rv.Wall = bj.Metrics["sec/op"]
	}
	switch {
	case last.Killed != "":
		rv.Notes = append(rv.Notes, fmt.Sprintf("%s: %s; the CPU profile segment under way (up to %s) was lost, and the heap profile is the one written last", v.name, last.Killed, segmentText(doc)))
	case last.End == program.EndExit:
		if last.Signal != "" {
			rv.Notes = append(rv.Notes, fmt.Sprintf("%s: the program died of %s, which the wrapper could not catch: the last CPU profile segment (up to %s) was lost, and the heap profile is the one written last", v.name, last.Signal, segmentText(doc)))
		} else if last.Lost {
			rv.Notes = append(rv.Notes, fmt.Sprintf("%s: the program exited through os.Exit outside the module's code (status %d): the last CPU profile segment was lost: %s, and the heap profile is the one written last", v.name, last.ExitCode, lostShare(last)))
		}
	case last.End == program.EndPanic:
		rv.Notes = append(rv.Notes, fmt.Sprintf("%s: the program panicked; its profiles were written before it died", v.name))
	}
	if last.CPUOff != "" {
		rv.Notes = append(rv.Notes, fmt.Sprintf("%s: perfloop's CPU profile stopped when the program started its own (%s)", v.name, last.CPUOff))
	}

	a := &profiles.Analysis{}
	if v.cpu != nil {
		path := filepath.Join(v.dir, "cpu.pprof")
		if err := profiles.WriteFile(path, v.cpu); err != nil {
			return rv, bj, nil, fmt.Errorf("keep the CPU profile: %w", err)
		}
		bj.CPUProfile = path
		rv.CPUSeconds = float64(profiles.SampleTotal(v.cpu, "cpu")) / 1e9 / runs
		c, err := profiles.AnalyzeCPU(qualifyMain(v.cpu, pkg.ImportPath), opts)
		if err != nil {
			why := err.Error()
			if errors.Is(err, profiles.ErrNoSamples) {
				why = "no samples (the program ran too briefly to be sampled)"
			}
			rv.Notes = append(rv.Notes, fmt.Sprintf("%s: CPU profile: %s", v.name, why))
			bj.ProfileError = "cpu profile: " + err.Error()
		} else {
			a.CPU = c
			for _, cat := range c.Categories {
				switch cat.Name {
				case "gc":
					rv.GCShare = cat.Share
				case "syscall":
					rv.SyscallShare = cat.Share
				}
			}
		}
	} else {
		rv.Notes = append(rv.Notes, fmt.Sprintf("%s: no CPU profile segment was complete (the program ran less than the first segment, %s, before an os.Exit outside the module's code, or without perfloop's CPU profile)", v.name, firstSegment(cfgSegment(doc))))
	}
	if v.heap != nil {
		path := filepath.Join(v.dir, "heap.pprof")
		if err := profiles.WriteFile(path, v.heap); err != nil {
			return rv, bj, nil, fmt.Errorf("keep the heap profile: %w", err)
		}
		bj.HeapProfile = path
		h, err := profiles.AnalyzeHeap(qualifyMain(v.heap, pkg.ImportPath), opts)
		if err != nil {
			rv.Notes = append(rv.Notes, fmt.Sprintf("%s: heap profile: %v", v.name, err))
		} else {
			a.Heap = h
			rv.AllocBytes, rv.AllocObjects = int64(float64(h.Bytes)/runs), int64(float64(h.Objects)/runs)
		}
	}
	// The runtime's exact count, when every run wrote one: the heap
	// profile's total is a sampled estimate.
	var bytes, objects, profBytes, profObjects int64
	counted := 0
	for _, r := range v.results {
		if r.Collected != nil && r.AllocBytes > 0 {
			bytes, objects = bytes+r.AllocBytes, objects+r.AllocObjects
			profBytes, profObjects = profBytes+r.ProfilerBytes, profObjects+r.ProfilerObjects
			counted++
		}
	}
	if counted == len(v.results) {
		rv.AllocBytes, rv.AllocObjects = int64(float64(bytes)/runs), int64(float64(objects)/runs)
		rv.ProfilerAllocBytes, rv.ProfilerAllocObjects = int64(float64(profBytes)/runs), int64(float64(profObjects)/runs)
	}
	if len(gcCost) == len(v.results) && v.heap != nil {
		rv.HeapProfileBytes = int64(float64(heapBytes) / runs)
		if note := coverageNote(v.name, rv); note != "" {
			rv.Notes = append(rv.Notes, note)
		}
	}
	if rv.AllocBytes > 0 {
		bj.Metrics["B/op"] = document.NewMetric(stats.Summarize([]float64{float64(rv.AllocBytes)}, "B/op", nil))
		bj.Metrics["allocs/op"] = document.NewMetric(stats.Summarize([]float64{float64(rv.AllocObjects)}, "allocs/op", nil))
	}
	return rv, bj, a, nil
}

// isLeaf reports whether fn is a leaf the CPU profile samples for work
// that is another's: runtime.asyncPreempt (the preempted code's, or the
// scheduler's) and the raw system call stubs (the module line that makes
// the call is in the line table, in the syscall category). Such a leaf
// is no hot spot of a program's run.
func isLeaf(fn string) bool {
	switch {
	case strings.HasPrefix(fn, "runtime.asyncPreempt"):
		return true
	case strings.HasPrefix(fn, "syscall.") || strings.HasPrefix(fn, "internal/runtime/syscall") || strings.HasPrefix(fn, "runtime/internal/syscall") || strings.HasPrefix(fn, "golang.org/x/sys/unix."):
		name := fn[strings.LastIndexByte(fn, '.')+1:]
		return strings.HasPrefix(name, "Syscall") || strings.HasPrefix(name, "RawSyscall") || strings.HasPrefix(name, "rawSyscall") || strings.HasPrefix(name, "rawVforkSyscall") || strings.HasPrefix(name, "runtime_entersyscall") || name == "syscall" || name == "Syscall6"
	}
	return false
}

// qualifyMain returns a copy of p with the main package's functions named
// by its import path ("example.com/m/cmd/wc.count", not "main.count"), as
// a test binary names them: the analysis and the findings know the
// module's code by its path.
func qualifyMain(p *profile.Profile, importPath string) *profile.Profile {
	q := p.Copy()
	for _, f := range q.Function {
		if rest, ok := strings.CutPrefix(f.Name, "main."); ok {
			f.Name = importPath + "." + rest
		}
		if rest, ok := strings.CutPrefix(f.SystemName, "main."); ok {
			f.SystemName = importPath + "." + rest
		}
	}
	return q
}

// collectionShare is the share of a run's wall time the final collection
// takes from which the report says so.
const collectionShare = 0.05

// collectionNote says, when the collection before the final heap profile
// took at least collectionShare of the program's wall time, what it cost
// and how to do without it; else "".
func collectionNote(variant string, collected, wall float64) string {
	if wall <= 0 || collected < collectionShare*wall {
		return ""
	}
	return fmt.Sprintf("%s: the collection before the final heap profile (which holds only what the runtime has published at a collection) took %.2fs of the program's %.2fs (%.0f%%), in proportion to the heap the program holds when it ends: -finalgc off skips it (the heap profile then misses the run's last collection cycles; allocated stays exact)", variant, collected, wall, 100*collected/wall)
}

// finalGC is the wrapper's PERFLOOP_FINALGC for Config.FinalGC: "" lets
// it decide.
func finalGC(mode string) string {
	if mode == "auto" {
		return ""
	}
	return mode
}

// coverageNote says, when a run's heap profile is partial (see
// document.RunVariant.HeapPartial), what it holds, why, and what the
// collection would cost; else "".
func coverageNote(variant string, rv document.RunVariant) string {
	if !rv.HeapPartial() {
		return ""
	}
	why := "the collection it needs would cost"
	switch rv.FinalGC {
	case program.FinalGCOff:
		why = "-finalgc off; a collection would cost"
	}
	cost := fmt.Sprintf("about %.0f%%", 100*rv.FinalGCCost)
	if rv.FinalGCCost < 0.01 {
		cost = "under 1%"
	}
	return fmt.Sprintf("%s: the heap profile holds %s of the %s allocated: the run's last collection cycles are not in it (%s %s of the run); the allocation sites' bytes are shares of what it holds; -finalgc on collects before writing it",
		variant, mib(rv.HeapProfileBytes), mib(rv.AllocBytes), why, cost)
}

// mib writes n bytes in MiB.
func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 0, 64) + " MiB"
}

// lostShare says how much of a run's CPU time its CPU profile lost: the
// samples against the kernel's user and system time.
func lostShare(r *program.Result) string {
	var sampled time.Duration
	if r.CPU != nil {
		sampled = time.Duration(profiles.SampleTotal(r.CPU, "cpu"))
	}
	used := r.User + r.Sys
	if used <= 0 {
		return "the profile holds " + sampled.Round(time.Millisecond).String() + " of CPU time"
	}
	lost := max(0, 1-sampled.Seconds()/used.Seconds())
	return fmt.Sprintf("the profile holds %s of the run's %s of CPU time (%.0f%% lost)",
		sampled.Round(time.Millisecond), used.Round(time.Millisecond), 100*lost)
}

// cfgSegment is the run's segment length.
func cfgSegment(doc *document.Report) time.Duration {
	return time.Duration(doc.Run.SegmentSeconds * float64(time.Second))
}

// firstSegment is the length of the wrapper's first CPU profile segment:
// 100ms, or the segment length when that is shorter.
func firstSegment(segment time.Duration) time.Duration {
	return min(segment, 100*time.Millisecond)
}

func segmentText(doc *document.Report) string {
	return strconv.FormatFloat(doc.Run.SegmentSeconds, 'g', -1, 64) + "s"
}

func cmpDuration(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func cmpInt(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}

// variantNames names each variant's entry: "run" alone, "run ARGS" among
// several, or "run N" when the arguments hold a slash (which separates a
// benchmark from its sub-benchmarks) or repeat another variant's.
func variantNames(variants [][]string) []string {
	if len(variants) == 1 {
		return []string{"run"}
	}
	names := make([]string, len(variants))
	for i, args := range variants {
		names[i] = strings.TrimSpace("run " + strings.Join(args, " "))
		if strings.Contains(names[i], "/") || slices.Contains(names[:i], names[i]) {
			names[i] = "run " + strconv.Itoa(i+1)
		}
	}
	return names
}

// programCommands lists the hand-run commands behind a run's figures.
func programCommands(pkg *program.Package, variants []*variantRun) []document.Command {
	var cmds []document.Command
	for _, v := range variants {
		// Only the profiles the run wrote (-cpuprofile off,
		// -memprofilerate 0 leave one out).
		if v.cpu != nil {
			cmds = append(cmds, document.Command{What: "CPU hotspots of " + v.name, Command: "go tool pprof -top " + filepath.Join(v.dir, "cpu.pprof")})
		}
		if v.heap != nil {
			cmds = append(cmds, document.Command{What: "allocation sites of " + v.name, Command: "go tool pprof -sample_index=alloc_space -top " + filepath.Join(v.dir, "heap.pprof")})
		}
	}
	cmds = append(cmds, document.Command{What: "escape analysis of " + pkg.ImportPath, Command: "go build -gcflags=-m=2 -o /dev/null " + pkg.ImportPath})
	return cmds
}

// IsNotMain reports whether err says the package given to perfloop run is
// not a Go main package.
func IsNotMain(err error) bool {
	var nm *program.NotMainError
	return errors.As(err, &nm)
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
