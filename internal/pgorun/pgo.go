package pgorun

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perfloop/perfloop/internal/abtest"
	"github.com/perfloop/perfloop/internal/document"
	"github.com/perfloop/perfloop/internal/gotest"
	"github.com/perfloop/perfloop/internal/loop"
	"github.com/perfloop/perfloop/internal/pgo"
	"github.com/perfloop/perfloop/internal/progress"
	"github.com/perfloop/perfloop/internal/results"
	"github.com/perfloop/perfloop/internal/stats"
)

// Options says how perfloop pgo collects, writes and measures a
// profile.
type Options struct {
	// Run, if set, is "PKG ARGS": the main package PKG built and run with
	// ARGS under the CPU profiler is the workload, instead of the
	// benchmarks.
	Run string
	// RunOutput receives the command's output; nil discards it.
	RunOutput io.Writer
	// ProfileTime is the -benchtime of each benchmark's profiling run.
	ProfileTime string
	// Out, if set, is the one file to write the profile to, instead of
	// default.pgo beside each main package.
	Out string
	// Check measures an existing profile (Out, or the main packages'
	// default.pgo) against a fresh one and writes nothing.
	Check bool
	// Replace overwrites a default.pgo that perfloop did not write (by
	// default it is kept, and the fresh profile only measured).
	Replace bool
	// BuildCost measures build time and binary size from an empty build
	// cache, without and with the profile.
	BuildCost bool
	// AB runs the comparison.
	AB abtest.Options
	// Commit and Dirty describe the revision, for the document.
	Commit string
	Dirty  bool
}

// minPGOSamples is the fewest CPU samples (at 100 a second) a profile
// should have before its hot call sites mean much.
const minPGOSamples = 50

// ErrNoProfile means -check found no existing profile to check.
var ErrNoProfile = errors.New("no default.pgo beside the main packages to check: run perfloop pgo first, or name the profile with -o")

// ErrNoBenchmarks means no benchmark matched the configuration (and no
// package failed to build): there is nothing to profile.
var ErrNoBenchmarks = errors.New("no benchmarks match")

// Run collects a CPU profile of the benchmarks (or of a command), writes it
// where the go command's default builds read it, and measures what it
// changes: the benchmarks with profile-guided optimization off and on,
// interleaved and paired (internal/abtest); build time and binary size;
// and the call sites the compiler inlined or devirtualized because of it,
// joined to the benchmarks that run them. With Check it measures an
// existing profile instead: how much of it still matches the code, and
// whether a fresh one changes the result. On cancellation it returns what
// was measured with ctx's error.
func Run(ctx context.Context, cfg loop.Config, opts Options, bar *progress.Bar) (*document.PGO, error) {
	defer bar.Done()
	s, err := loop.Prepare(ctx, cfg, bar)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	root, module := moduleRoot(s)
	if root == "" {
		return nil, fmt.Errorf("no package of %s is in a module", strings.Join(cfg.PackagePatterns(), " "))
	}
	doc := &document.PGO{Schema: document.PGOSchema, Module: module, Commit: opts.Commit, Dirty: opts.Dirty, Check: opts.Check,
		Date: time.Now().UTC().Format(time.RFC3339), Written: []document.PGOWritten{}, Benchmarks: []document.PGOBenchmark{},
		Compiler: []document.PGODecision{}}
	for _, pe := range s.Failed {
		doc.Failures = append(doc.Failures, fmt.Sprintf("%s: %v", pe.Package, pe.Err))
	}
	if opts.Run == "" && len(s.Targets) == 0 && len(s.Failed) == 0 {
		return doc, ErrNoBenchmarks
	}
	mains, err := mainsImporting(ctx, s, root)
	if err != nil {
		return doc, err
	}
	var existing string
	if opts.Check {
		if existing = existingProfile(opts.Out, mains); existing == "" {
			return doc, ErrNoProfile
		}
	}

	// Collect.
	scratch := filepath.Join(s.Dir(), "pgo")
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return doc, fmt.Errorf("create profile directory: %w", err)
	}
	var raw []string
	byBench := map[string]string{}
	if opts.Run != "" {
		path, err := profileCommand(ctx, s, opts.Run, scratch, opts.RunOutput, bar)
		if err != nil {
			return doc, err
		}
		raw = []string{path}
		doc.Profile.Source = "command: " + opts.Run
	} else {
		if raw, byBench, err = profileBenchmarks(ctx, s, opts.ProfileTime, scratch, doc, bar); err != nil {
			return doc, err
		}
		doc.Profile.Source = "benchmarks"
	}
	if len(raw) == 0 {
		return doc, errors.New("no benchmark produced a CPU profile")
	}
	merged, err := pgo.Merge(raw)
	if err != nil {
		return doc, err
	}
	for _, r := range raw {
		if st, err := os.Stat(r); err == nil {
			doc.Profile.RawBytes += st.Size()
		}
	}
	doc.Profile.Profiles, doc.Profile.Samples = len(raw), pgo.Samples(merged)
	for _, m := range mains {
		pgo.RenameMain(merged, m.importPath)
	}
	if doc.Profile.Samples < minPGOSamples {
		doc.Notes = append(doc.Notes, fmt.Sprintf("the profile has only %d samples (%.2fs of CPU): too few to say which call sites are hot; profile a longer run (-profiletime, or a longer -run workload)",
			doc.Profile.Samples, float64(doc.Profile.Samples)/100))
	}

	// Write: measured from the scratch copy, installed where builds read it.
	fresh := filepath.Join(scratch, "fresh.pgo")
	n, err := pgo.Write(merged, fresh)
	if err != nil {
		return doc, err
	}
	doc.Profile.Bytes = n
	if doc.Profile.SHA256, err = fileSHA256(fresh); err != nil {
		return doc, err
	}
	if !opts.Check {
		if err := writeProfiles(merged, opts, root, mains, doc); err != nil {
			return doc, err
		}
		doc.Notes = append(doc.Notes, fmt.Sprintf("each run profiles afresh (this profile: sha256 %s): a row near its noise can change with the profile; perfloop pgo -check measures the installed profile against a fresh one", doc.Profile.SHA256[:12]))
	}

	// Measure.
	specs := [2]abtest.Spec{
		{Role: "OFF", Label: "pgo off", Dir: cfg.Dir, Tags: cfg.Tags, BuildFlags: []string{"-pgo=off"}},
		{Role: "PGO", Label: "pgo on", Dir: cfg.Dir, Tags: cfg.Tags, BuildFlags: []string{"-pgo=" + fresh}},
	}
	if opts.Check {
		if doc.Stale, err = staleness(ctx, s.Config.Tags, root, module, existing); err != nil {
			return doc, err
		}
		specs[0] = abtest.Spec{Role: "CURRENT", Label: "current profile", Dir: cfg.Dir, Tags: cfg.Tags, BuildFlags: []string{"-pgo=" + existing}}
		specs[1].Role, specs[1].Label = "FRESH", "fresh profile"
	}
	doc.Sides = [2]string{specs[0].Label, specs[1].Label}
	sides, err := abtest.Build(ctx, specs, cfg.PackagePatterns(), cfg.Bench, bar)
	if err != nil {
		return doc, err
	}
	defer abtest.Close(sides)
	res, runErr := abtest.Run(ctx, sides, opts.AB, bar)
	if res != nil {
		fillPGOBenchmarks(doc, res)
	}
	if runErr != nil && !errors.Is(runErr, abtest.ErrNoCommon) {
		return doc, runErr
	}
	if opts.Check {
		return doc, nil
	}
	if opts.BuildCost {
		bar.Status("measuring build time and binary size from an empty build cache")
		if err := buildCost(ctx, cfg, s, mains, fresh, doc); err != nil {
			return doc, err
		}
	}
	bar.Status("comparing the compiler's decisions")
	decisions, err := pgo.Decisions(ctx, pgo.CompileOptions{Dir: cfg.Dir, Tags: cfg.Tags}, cfg.PackagePatterns(), fresh)
	if err != nil {
		return doc, err
	}
	joinDecisions(doc, decisions, byBench, merged)
	return doc, nil
}

// moduleRoot returns the measured packages' module root and path.
func moduleRoot(s *loop.Suite) (root, module string) {
	for _, p := range s.Packages {
		if p.ModuleDir != "" {
			return p.ModuleDir, p.ModulePath
		}
	}
	return "", ""
}

// mainPkg is a main package and its directory.
type mainPkg struct{ importPath, dir string }

// mainsImporting returns the module's main packages that import a
// measured package (or are one): the binaries the profile applies to.
func mainsImporting(ctx context.Context, s *loop.Suite, root string) ([]mainPkg, error) {
	names := s.MainsImporting(ctx, root)
	if len(names) == 0 {
		return nil, nil
	}
	tc := &gotest.Toolchain{Dir: root, Tags: s.Config.Tags}
	pkgs, err := tc.List(ctx, names)
	if err != nil {
		return nil, fmt.Errorf("list main packages: %w", err)
	}
	var out []mainPkg
	for _, p := range pkgs {
		out = append(out, mainPkg{p.ImportPath, p.Dir})
	}
	return out, nil
}

// existingProfile returns the profile -check measures: out, or the first
// main package's default.pgo that exists.
func existingProfile(out string, mains []mainPkg) string {
	if out != "" {
		if _, err := os.Stat(out); err == nil {
			abs, _ := filepath.Abs(out)
			return abs
		}
		return ""
	}
	for _, m := range mains {
		p := filepath.Join(m.dir, "default.pgo")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// profileBenchmarks runs every benchmark once under the CPU profiler and
// returns the profiles' paths, and by benchmark name.
func profileBenchmarks(ctx context.Context, s *loop.Suite, benchtime, scratch string, doc *document.PGO, bar *progress.Bar) ([]string, map[string]string, error) {
	names := loop.ProfileNames(s.Targets)
	byBench := map[string]string{}
	var paths []string
	bar.Start(len(s.Targets), "profiling")
	for i, t := range s.Targets {
		bar.Describe("profiling " + t.Name)
		path := filepath.Join(scratch, names[i]+".cpu.pprof")
		o, err := t.Binary.Run(ctx, gotest.RunConfig{Name: t.Name, Sub: s.Sub, Benchtime: benchtime, CPU: s.Config.CPU,
			Timeout: s.Config.Timeout, Args: []string{"-test.cpuprofile=" + path}})
		bar.Step("")
		if err != nil {
			return paths, byBench, err
		}
		if o.Status != results.StatusOK {
			if o.Status != results.StatusSkipped {
				doc.Failures = append(doc.Failures, fmt.Sprintf("%s %s: %s", t.Binary.Package.ImportPath, t.Name, o.Error))
			}
			continue
		}
		if _, err := os.Stat(path); err != nil {
			continue
		}
		paths = append(paths, path)
		byBench[t.Name] = path
	}
	bar.Done()
	return paths, byBench, nil
}

// pgoMainTest is the test added (through the go command's -overlay, the
// user's files untouched) to a main package so that its test binary runs
// main under the CPU profiler: the testing package writes the profile
// when main returns.
const pgoMainTest = `package main

import (
	"flag"
	"os"
	"testing"
)

func TestPerfloopPGOMain(t *testing.T) {
	os.Args = append([]string{os.Args[0]}, flag.Args()...)
	main()
}
`

// profileCommand builds the main package named by run's first word as a
// test binary whose one test calls main, runs it with the rest of run as
// its arguments under the CPU profiler, and returns the profile's path.
func profileCommand(ctx context.Context, s *loop.Suite, run, scratch string, out io.Writer, bar *progress.Bar) (string, error) {
	f := strings.Fields(run)
	if len(f) == 0 {
		return "", errors.New("-run: give the main package and its arguments, e.g. -run './cmd/app -n 1000'")
	}
	pkgs, err := (&gotest.Toolchain{Dir: s.Config.Dir, Tags: s.Config.Tags}).List(ctx, f[:1])
	if err != nil {
		return "", fmt.Errorf("-run %s: %w", f[0], err)
	}
	if len(pkgs) != 1 || pkgs[0].Name != "main" || pkgs[0].Error != "" {
		return "", fmt.Errorf("-run %q: %s is not one main package", run, f[0])
	}
	pkg := pkgs[0]
	test := filepath.Join(scratch, "perfloop_pgo_main_test.go")
	overlay := filepath.Join(scratch, "overlay.json")
	if err := os.WriteFile(test, []byte(pgoMainTest), 0o644); err != nil {
		return "", err
	}
	o := fmt.Sprintf(`{"Replace":{%q:%q}}`, filepath.Join(pkg.Dir, "zz_perfloop_pgo_main_test.go"), test)
	if err := os.WriteFile(overlay, []byte(o), 0o644); err != nil {
		return "", err
	}
	bar.Status("building " + pkg.ImportPath)
	tc := &gotest.Toolchain{Dir: s.Config.Dir, Tags: s.Config.Tags, BuildFlags: []string{"-overlay=" + overlay}}
	bin, err := tc.Build(ctx, pkg, scratch)
	if err != nil {
		return "", fmt.Errorf("-run: build %s: %w", pkg.ImportPath, err)
	}
	prof := filepath.Join(scratch, "command.cpu.pprof")
	bar.Status("running " + run)
	args := append([]string{"-test.run=^TestPerfloopPGOMain$", "-test.count=1", "-test.timeout=0", "-test.cpuprofile=" + prof, "--"}, f[1:]...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = s.Config.Dir
	if out == nil {
		out = io.Discard
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	runErr := cmd.Run()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if runErr != nil {
		return "", fmt.Errorf("-run %q: %w (the profile is written only when main returns)", run, runErr)
	}
	// The testing package creates the file at the start and writes the
	// profile when the test returns.
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		return "", fmt.Errorf("-run %q: no profile written: main must return (os.Exit ends the program before the profile is written)", run)
	}
	return prof, nil
}

// writeProfiles writes the profile to opts.Out, or beside each main
// package as default.pgo, or (a module without one) to
// .perfloop/default.pgo, and sets doc.Profile.Path to the first written.
// A default.pgo that perfloop did not write (its content is not what the
// last run recorded in loop.PGORecord) is kept unless opts.Replace: it may be
// the user's own, committed profile.
func writeProfiles(p *profile.Profile, opts Options, root string, mains []mainPkg, doc *document.PGO) error {
	ours := map[string]string{}
	if last := loop.LastPGO(root); last != nil {
		for _, w := range last.Written {
			if w.SHA256 != "" && !w.Kept {
				ours[w.Path] = w.SHA256
			}
		}
	}
	write := func(path string, pkgs []string, mayReplace bool) error {
		w := document.PGOWritten{Path: rel(root, path), Packages: pkgs}
		if _, err := os.Stat(path); err == nil {
			w.Replaced = true
			if sum, err := fileSHA256(path); !mayReplace && (err != nil || ours[w.Path] != sum) {
				w.Kept, w.Replaced = true, false
				doc.Written = append(doc.Written, w)
				doc.Notes = append(doc.Notes, fmt.Sprintf("%s was not written by perfloop: kept as it is, the fresh profile only measured (-replace overwrites it; -check compares the two)", w.Path))
				return nil
			}
		}
		if _, err := pgo.Write(p, path); err != nil {
			return err
		}
		var err error
		if w.SHA256, err = fileSHA256(path); err != nil {
			return err
		}
		doc.Written = append(doc.Written, w)
		if doc.Profile.Path == "" {
			doc.Profile.Path = w.Path
		}
		return nil
	}
	switch {
	case opts.Out != "":
		abs, err := filepath.Abs(opts.Out)
		if err != nil {
			return err
		}
		doc.AppliesTo = fmt.Sprintf("builds with -pgo=%s", opts.Out)
		return write(abs, nil, true) // named on the command line
	case len(mains) > 0:
		var names []string
		for _, m := range mains {
			names = append(names, m.importPath)
			if err := write(filepath.Join(m.dir, "default.pgo"), []string{m.importPath}, opts.Replace); err != nil {
				return err
			}
		}
		doc.AppliesTo = fmt.Sprintf("the default builds (-pgo=auto) of %s: go build and go install read default.pgo beside the main package", strings.Join(names, ", "))
		return nil
	}
	dir, err := loop.MakeStateDir(root)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "default.pgo")
	doc.AppliesTo = "the binaries that import this module (it has no main package): copy the profile beside their main package as default.pgo; " +
		"the benchmarks were measured with -pgo=" + rel(root, path)
	return write(path, nil, true) // perfloop's own directory
}

// fileSHA256 returns the hex SHA-256 of a file's content.
func fileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// fillPGOBenchmarks adds the time rows of an interleaved run.
func fillPGOBenchmarks(doc *document.PGO, res *abtest.Result) {
	doc.Rounds, doc.WallSeconds = res.Rounds, res.Wall.Seconds()
	for _, f := range res.Failures {
		doc.Failures = append(doc.Failures, fmt.Sprintf("%s: %s", doc.Sides[f.Side], f))
	}
	doc.Notes = append(doc.Notes, res.Notes...)
	logSum, n := 0.0, 0
	for _, t := range res.Tables {
		if t.Unit != "sec/op" {
			continue
		}
		pkg := ""
		for _, c := range t.Config {
			if v, ok := strings.CutPrefix(c, "pkg: "); ok {
				pkg = v
			}
		}
		for _, row := range t.Rows {
			if len(row.Cells) < 2 || row.Cells[0] == nil || row.Cells[1] == nil {
				continue
			}
			b := document.PGOBenchmark{Package: pkg, Name: "Benchmark" + row.Benchmark, Unit: t.Unit,
				Off: row.Cells[0].Summary.Median, PGO: row.Cells[1].Summary.Median, Verdict: row.Cells[1].Verdict}
			delta, low, high, sig, ok := res.Interval(pkg, row.FullName, t.Unit)
			if !ok {
				continue
			}
			b.Delta, b.Low, b.High, b.Significant = delta, low, high, sig
			if b.Verdict == "" || b.Verdict == "~" {
				b.Verdict = stats.NoChange
			}
			switch {
			case sig && delta < 0:
				doc.Faster++
			case sig && delta > 0:
				doc.Slower++
			case b.Verdict == stats.Inconclusive:
				doc.Inconclusive++
			}
			b.Decisions = []int{}
			logSum += math.Log1p(delta)
			n++
			doc.Benchmarks = append(doc.Benchmarks, b)
		}
	}
	if n > 0 {
		doc.Geomean = math.Expm1(logSum / float64(n))
	}
}

// buildCost builds the main packages (or, without any, the measured
// packages' test binaries) from an empty build cache, with -pgo=off and
// with the profile, and records the time and the binaries' total size.
func buildCost(ctx context.Context, cfg loop.Config, s *loop.Suite, mains []mainPkg, profile string, doc *document.PGO) error {
	verb := []string{"build"}
	var pkgs []string
	for _, m := range mains {
		pkgs = append(pkgs, m.importPath)
	}
	if len(pkgs) == 0 {
		verb = []string{"test", "-c"}
		for _, p := range s.Packages {
			if p.HasTests && p.Error == "" {
				pkgs = append(pkgs, p.ImportPath)
			}
		}
	}
	if len(pkgs) == 0 {
		return nil
	}
	doc.BuildOf = pkgs
	// Off, PGO, PGO, off: one build each is too noisy on a busy
	// machine, and alternating cancels a drift.
	runs := &document.PGOBuildRuns{}
	var size [2]float64
	for _, on := range []bool{false, true, true, false} {
		flag := "-pgo=off"
		if on {
			flag = "-pgo=" + profile
		}
		t, n, err := buildOnce(ctx, cfg, verb, flag, pkgs)
		if err != nil {
			return err
		}
		if on {
			runs.PGO, size[1] = append(runs.PGO, t), float64(n)
		} else {
			runs.Off, size[0] = append(runs.Off, t), float64(n)
		}
	}
	mean := func(xs []float64) float64 { return (xs[0] + xs[1]) / 2 }
	doc.BuildRuns = runs
	doc.BuildSeconds = &document.PGOPair{Off: mean(runs.Off), PGO: mean(runs.PGO)}
	doc.BinaryBytes = &document.PGOPair{Off: size[0], PGO: size[1]}
	return nil
}

// buildOnce runs go build (or go test -c) of pkgs with flag and an empty
// GOCACHE into a temporary directory, and returns its time and the size
// of what it wrote.
func buildOnce(ctx context.Context, cfg loop.Config, verb []string, flag string, pkgs []string) (float64, int64, error) {
	cache, err := os.MkdirTemp("", "perfloop-gocache-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(cache)
	out, err := os.MkdirTemp("", "perfloop-build-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(out)
	args := append(slices.Clone(verb), "-o", out+string(filepath.Separator), flag)
	if cfg.Tags != "" {
		args = append(args, "-tags", cfg.Tags)
	}
	args = append(args, pkgs...)
	cmd, done, err := gotest.GoCommand(ctx, cfg.Dir, []string{"GOCACHE=" + cache}, args...)
	if err != nil {
		return 0, 0, err
	}
	defer done()
	start := time.Now()
	msg, err := cmd.CombinedOutput()
	secs := time.Since(start).Seconds()
	if ctx.Err() != nil {
		return 0, 0, ctx.Err()
	}
	if err != nil {
		return 0, 0, fmt.Errorf("go %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(string(msg)))
	}
	var size int64
	entries, _ := os.ReadDir(out)
	for _, e := range entries {
		if info, err := e.Info(); err == nil {
			size += info.Size()
		}
	}
	return secs, size, nil
}

// joinDecisions adds the compiler's changed decisions, each with the
// benchmarks whose profile passes through its line, and links the
// benchmarks back to them.
func joinDecisions(doc *document.PGO, ds []pgo.Decision, byBench map[string]string, merged *profile.Profile) {
	profs := map[string]*profile.Profile{}
	for name, path := range byBench {
		if p, err := pgo.Read(path); err == nil {
			profs[name] = p
		}
	}
	benchNames := slices.Sorted(func(yield func(string) bool) {
		for name := range profs {
			if !yield(name) {
				return
			}
		}
	})
	for _, d := range ds {
		pd := document.PGODecision{File: d.File, Line: d.Line, Col: d.Col, Kind: d.Kind, Callee: d.Callee, Message: d.Message,
			Benchmarks: []string{}}
		if len(profs) == 0 {
			pd.Share = pgo.Heat(merged, d.File, d.Line)
		}
		for _, name := range benchNames {
			h := pgo.Heat(profs[name], d.File, d.Line)
			if h < 0.01 {
				continue
			}
			pd.Share = max(pd.Share, h)
			pd.Benchmarks = append(pd.Benchmarks, name)
		}
		// Cold sites are noise for the reader: the compiler's budget
		// moves make many small changes the benchmarks never run.
		if pd.Share < 0.01 {
			continue
		}
		doc.Compiler = append(doc.Compiler, pd)
	}
	// Hottest first; at one site the devirtualization (what PGO is
	// mostly for) before the inlining it allows.
	slices.SortStableFunc(doc.Compiler, func(a, b document.PGODecision) int {
		return cmp.Or(-cmp.Compare(a.Share, b.Share), cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)))
	})
	for i, d := range doc.Compiler {
		for j := range doc.Benchmarks {
			b := &doc.Benchmarks[j]
			top, _, _ := strings.Cut(b.Name, "/")
			if slices.Contains(d.Benchmarks, top) {
				b.Decisions = append(b.Decisions, i)
			}
		}
	}
	// A benchmark that changed while the compiler decided nothing
	// differently on its path only had its code moved (the whole
	// program, the standard library too, is compiled anew with a
	// profile): code layout, or noise, not a gain or a cost of PGO.
	if len(profs) == 0 {
		return
	}
	for _, b := range doc.Benchmarks {
		if b.Significant && len(b.Decisions) == 0 {
			doc.Notes = append(doc.Notes, fmt.Sprintf("%s: %s with no different decision of the compiler on its path: its code only moved (layout) or the row is noise; not an effect of the profile to rely on",
				b.Name, fmt.Sprintf("%+.1f%%", 100*b.Delta)))
		}
	}
}

// kindRank orders decision kinds: devirtualization first.
func kindRank(kind string) int {
	switch kind {
	case pgo.KindDevirtualize:
		return 0
	case pgo.KindInline:
		return 1
	}
	return 2
}

// staleness measures how much of the profile at path still matches the
// module's code.
func staleness(ctx context.Context, tags, root, module, path string) (*document.PGOStale, error) {
	p, err := pgo.Read(path)
	if err != nil {
		return nil, err
	}
	list := &gotest.Toolchain{Dir: root, Tags: tags}
	pkgs, err := list.List(ctx, []string{"./..."})
	if err != nil {
		return nil, fmt.Errorf("list the module's packages: %w", err)
	}
	var in []pgo.Package
	for _, pk := range pkgs {
		files, _ := filepath.Glob(filepath.Join(pk.Dir, "*.go"))
		var goFiles []string
		for _, f := range files {
			if !strings.HasSuffix(f, "_test.go") {
				goFiles = append(goFiles, filepath.Base(f))
			}
		}
		in = append(in, pgo.Package{ImportPath: pk.ImportPath, Dir: pk.Dir, GoFiles: goFiles})
	}
	funcs, err := pgo.ModuleFuncs(in)
	if err != nil {
		return nil, err
	}
	st := pgo.Stale(p, module, funcs)
	out := &document.PGOStale{Path: rel(root, path), MissingFuncs: st.MissingFuncs, ShiftedFuncs: st.ShiftedFuncs}
	if st.Total > 0 {
		out.Module = float64(st.Module) / float64(st.Total)
	}
	if st.Module > 0 {
		out.Missing = float64(st.Missing) / float64(st.Module)
		out.Shifted = float64(st.Shifted) / float64(st.Module)
	}
	return out, nil
}

// rel returns path relative to root when it is inside it.
func rel(root, path string) string {
	if r, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}
