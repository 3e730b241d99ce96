package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/perfloop/perfloop/internal/document"
)

// TestMain lets testscript run the real perfloop main in-process, so the
// end-to-end scripts also count toward coverage.
func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"perfloop": func() int { return Main(os.Args[1:]) },
	}))
}

// TestScripts runs the end-to-end scripts in testdata/script, in
// parallel.
func TestScripts(t *testing.T) { testscript.Run(t, scriptParams("testdata/script")) }

// TestScriptsAlone runs the scripts in testdata/alone one at a time, after
// the others have finished: they compare timings taken minutes apart
// (perfloop record at five commits, then history), which a burst of
// compiles on the same two CPUs in between would swamp. The paired A/B
// runs of diff and check hold up under such load; a series over time
// cannot.
func TestScriptsAlone(t *testing.T) {
	p := scriptParams("testdata/alone")
	files, _ := filepath.Glob(filepath.Join(p.Dir, "*.txtar"))
	for _, f := range files {
		one := p
		one.Files, one.Dir = []string{f}, ""
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			// testscript's subtests are parallel; one file per Run
			// keeps them apart.
			testscript.Run(t, one)
		})
	}
}

// TestScriptsHeavy runs the scripts in testdata/heavy (perfloop pgo:
// builds from an empty cache, the standard library compiled with each
// profile) after the others, so that their compiles do not load the
// machine under the scripts that time things.
func TestScriptsHeavy(t *testing.T) { testscript.Run(t, scriptParams("testdata/heavy")) }

// scriptParams are the testscript parameters for the scripts in dir.
func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"checkrows":  checkRows,
			"histrows":   histRows,
			"pgorows":    pgoRows,
			"gitrev":     gitRev,
			"freeport":   freePort,
			"httpget":    httpGet,
			"findrows":   findRows,
			"exitcode":   exitCode,
			"fixrows":    fixRows,
			"sameadvice": sameAdvice,
			"dirstate":   dirStateCmd,
			"cpucovers":  cpuCovers,
			"allocnear":  allocNear,
			"heapholds":  heapHolds,
			"waits":      waits,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "multicore" {
				return runtime.NumCPU() > 1, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			// The scripts build real test binaries: share the
			// caller's module and build caches so they run fast and
			// work offline.
			for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOFLAGS", "GOPROXY", "HOME"} {
				if v, ok := os.LookupEnv(k); ok {
					env.Setenv(k, v)
				}
			}
			if os.Getenv("GOCACHE") == "" {
				if dir, err := os.UserCacheDir(); err == nil {
					env.Setenv("GOCACHE", dir+"/go-build")
				}
			}
			return nil
		},
	}
}

// findRows is "findrows FILE": the findings of a perfloop.report/v1
// document, one per line, "KIND SECTION FILE:LINE BENCHMARK", then its
// core-scaling rows, "scaling BENCHMARK cpu=1,2 locks=FILE:LINE,…" (or
// "not measured: WHY").
func findRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: findrows FILE")
	}
	var d document.Report
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &d); err != nil {
		ts.Fatalf("findrows: %v", err)
	}
	for _, f := range d.Findings {
		fmt.Fprintf(ts.Stdout(), "%s %s %s:%d %s\n", f.Kind, f.Section, f.File, f.Line, f.Benchmark)
	}
	for _, s := range d.Scaling {
		if s.Parameter != "cpu" {
			continue
		}
		if s.NotMeasured != "" {
			fmt.Fprintf(ts.Stdout(), "scaling %s not measured: %s\n", s.Benchmark, s.NotMeasured)
			continue
		}
		var cpus, locks []string
		for _, c := range s.CPU {
			cpus = append(cpus, strconv.Itoa(c))
		}
		for _, l := range s.Locks {
			locks = append(locks, fmt.Sprintf("%s:%d", l.File, l.Line))
		}
		fmt.Fprintf(ts.Stdout(), "scaling %s cpu=%s locks=%s\n", s.Benchmark, strings.Join(cpus, ","), strings.Join(locks, ","))
	}
}

// exitCode is the script command "exitcode N CMD [ARGS...]": it runs CMD
// as exec does and fails unless CMD exits with status N; its output is
// stdout and stderr for the commands that follow.
func exitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N CMD [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// dirStateCmd is "dirstate DIR": every file under DIR, one per line, with
// its size and modification time in nanoseconds, for cmp to tell whether a
// command created, removed or wrote any file there.
func dirStateCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: dirstate DIR")
	}
	dir := ts.MkAbs(args[0])
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(ts.Stdout(), "%s %d bytes, modified %d\n", filepath.ToSlash(rel), info.Size(), info.ModTime().UnixNano())
		return nil
	})
	ts.Check(err)
}

// fixRows is "fixrows FILE": the candidates of a perfloop.fix/v1 document,
// one per line: "kept FILE:LINE REWRITE UNIT" (UNIT the first unit with a
// significant gain), "review FILE:LINE REWRITE" for a kept patch for
// review, "rejected FILE:LINE REWRITE: REASON".
func fixRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: fixrows FILE")
	}
	var r struct {
		Kept []struct {
			File       string
			Line       int
			Rewrite    string
			Review     bool
			Benchmarks []struct {
				Unit        string
				Delta       float64
				Significant bool
			}
		}
		Rejected []struct {
			File    string
			Line    int
			Rewrite string
			Reason  string
		}
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &r); err != nil {
		ts.Fatalf("fixrows: %v", err)
	}
	for _, k := range r.Kept {
		unit := "none"
		for _, b := range k.Benchmarks {
			if b.Significant && b.Delta < 0 {
				unit = b.Unit
				break
			}
		}
		kind := "kept"
		if k.Review {
			kind = "review"
		}
		fmt.Fprintf(ts.Stdout(), "%s %s:%d %s %s\n", kind, k.File, k.Line, k.Rewrite, unit)
	}
	for _, x := range r.Rejected {
		fmt.Fprintf(ts.Stdout(), "rejected %s:%d %s: %s\n", x.File, x.Line, x.Rewrite, x.Reason)
	}
}

// checkRows is the script command "checkrows FILE": it prints the rows of
// a perfloop.check/v1 document, one per line, as "regression BENCHMARK
// UNIT" and "layout BENCHMARK UNIT", for stdout to match.
func checkRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: checkrows FILE")
	}
	var c struct {
		Regressions, Layout []struct{ Benchmark, Unit string }
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &c); err != nil {
		ts.Fatalf("checkrows: %v", err)
	}
	for _, r := range c.Regressions {
		fmt.Fprintf(ts.Stdout(), "regression %s %s\n", r.Benchmark, r.Unit)
	}
	for _, r := range c.Layout {
		fmt.Fprintf(ts.Stdout(), "layout %s %s\n", r.Benchmark, r.Unit)
	}
}

// histRows is "histrows FILE": the series of a perfloop.history/v1
// document, one line each, "SERIES NAME UNIT points=N changes=C1,C2".
func histRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: histrows FILE")
	}
	var h struct {
		Benchmarks []struct {
			Name, Unit   string
			Points       []struct{ Commit string }
			ChangePoints []struct{ Commit string } `json:"change_points"`
		}
	}
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &h); err != nil {
		ts.Fatalf("histrows: %v", err)
	}
	for _, b := range h.Benchmarks {
		var cs []string
		for _, c := range b.ChangePoints {
			cs = append(cs, c.Commit)
		}
		fmt.Fprintf(ts.Stdout(), "SERIES %s %s points=%d changes=%s\n", b.Name, b.Unit, len(b.Points), strings.Join(cs, ","))
	}
}

// gitRev is "gitrev REV VAR": sets $VAR to REV's full commit hash.
func gitRev(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gitrev REV VAR")
	}
	cmd := exec.Command("git", "rev-parse", args[0])
	cmd.Dir = ts.Getenv("WORK")
	out, err := cmd.Output()
	ts.Check(err)
	ts.Setenv(args[1], strings.TrimSpace(string(out)))
}

// freePort is "freeport VAR": sets $VAR to a loopback TCP port free now.
func freePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freeport VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ts.Setenv(args[0], strconv.Itoa(port))
}

// httpGet is "httpget URL": GETs URL, retrying for up to 30s while
// nothing listens yet, and prints the status and the body.
func httpGet(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: httpget URL")
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := http.Get(args[0])
		if err != nil {
			if time.Now().After(deadline) {
				ts.Fatalf("httpget %s: %v", args[0], err)
			}
			time.Sleep(100 * time.Millisecond)
			continue
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		ts.Check(err)
		fmt.Fprintf(ts.Stdout(), "status %d\n%s", resp.StatusCode, body)
		if (resp.StatusCode != http.StatusOK) != neg {
			ts.Fatalf("httpget %s: status %d", args[0], resp.StatusCode)
		}
		return
	}
}

// pgoRows is "pgorows FILE": a perfloop.pgo/v1 document as lines for
// stdout to match: "WRITTEN PATH PKGS", "BENCH NAME UNIT low<=delta<=high
// verdict=V" (or the order broken), "BUILD off>0 pgo>0 bytes off>0
// pgo>0", "DECISION FILE:LINE KIND CALLEE BENCHMARKS", "PROFILE
// samples>0 source=S".
func pgoRows(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: pgorows FILE")
	}
	var d document.PGO
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &d); err != nil {
		ts.Fatalf("pgorows: %v", err)
	}
	out := ts.Stdout()
	for _, w := range d.Written {
		fmt.Fprintf(out, "WRITTEN %s %s\n", w.Path, strings.Join(w.Packages, " "))
	}
	for _, b := range d.Benchmarks {
		order := "low<=delta<=high"
		if !(b.Low <= b.Delta && b.Delta <= b.High) {
			order = fmt.Sprintf("low=%g delta=%g high=%g", b.Low, b.Delta, b.High)
		}
		fmt.Fprintf(out, "BENCH %s %s %s verdict=%s\n", b.Name, b.Unit, order, b.Verdict)
	}
	if b, s := d.BuildSeconds, d.BinaryBytes; b != nil && s != nil {
		fmt.Fprintf(out, "BUILD off>0 pgo>0 bytes off>0 pgo>0\n")
		if !(b.Off > 0 && b.PGO > 0 && s.Off > 0 && s.PGO > 0) {
			fmt.Fprintf(out, "BUILD ZERO %+v %+v\n", b, s)
		}
	}
	for _, c := range d.Compiler {
		fmt.Fprintf(out, "DECISION %s:%d %s %s %s\n", c.File, c.Line, c.Kind, c.Callee, strings.Join(c.Benchmarks, " "))
	}
	samples := "samples=0"
	if d.Profile.Samples > 0 {
		samples = "samples>0"
	}
	fmt.Fprintf(out, "PROFILE %s source=%s\n", samples, d.Profile.Source)
}

// sameAdvice is "sameadvice REPORT EXPLAIN FILE:LINE": the advice perfloop
// explain printed under the site (the "fix:" line in the text file
// EXPLAIN) is the suggestion of the report's finding at that line and the
// advice its allocation entry carries.
func sameAdvice(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: sameadvice REPORT EXPLAIN FILE:LINE")
	}
	var d document.Report
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &d); err != nil {
		ts.Fatalf("sameadvice: %v", err)
	}
	file, lineText, _ := strings.Cut(args[2], ":")
	line, _ := strconv.ParseInt(lineText, 10, 64)
	var finding, site string
	for _, f := range d.Findings {
		if f.File == file && f.Line == line {
			finding = f.Suggestion
		}
	}
	for _, a := range d.Allocations {
		if a.File == file && a.Line == line && a.Escape != nil {
			site = a.Escape.Fix
		}
	}
	explained := ""
	lines := strings.Split(ts.ReadFile(args[1]), "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), args[2]+" ") {
			for _, m := range lines[i+1:] {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(m), "fix: "); ok {
					explained = rest
					break
				}
				if !strings.HasPrefix(m, "    ") {
					break
				}
			}
		}
	}
	if finding == "" || explained == "" || finding != explained || site != explained {
		ts.Fatalf("advice at %s:\n  report finding: %q\n  report site:    %q\n  explain:        %q", args[2], finding, site, explained)
	}
}

// readRun reads the run of a perfloop.report/v1 document.
func readRun(ts *testscript.TestScript, cmd, path string) *document.Run {
	var d document.Report
	if err := json.Unmarshal([]byte(ts.ReadFile(path)), &d); err != nil {
		ts.Fatalf("%s: %v", cmd, err)
	}
	if d.Run == nil || len(d.Run.Variants) == 0 {
		ts.Fatalf("%s: %s has no run", cmd, path)
	}
	return d.Run
}

// waits is "waits FILE BENCHMARK": the perfloop.report/v1 document FILE
// calls BENCHMARK waiting (rule leave-off-cpu) — unless fewer than half a
// core sat idle while its benchmarks ran (spare_cores), where a waiting
// benchmark and one starved by other processes cannot be told apart, and
// report must say neither; in both it is never broken nor a baseline.
func waits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waits FILE BENCHMARK")
	}
	var d document.Report
	if err := json.Unmarshal([]byte(ts.ReadFile(args[0])), &d); err != nil {
		ts.Fatalf("waits: %v", err)
	}
	var rules []document.Rule
	for _, f := range d.Findings {
		if slices.Contains(f.Benchmarks, args[1]) || f.Benchmark == args[1] {
			rules = append(rules, f.Rule)
			if f.Rule == document.RuleLeaveOffCPU && !strings.Contains(f.Message, "of a core over the time it ran: it spends most of its time waiting") {
				ts.Fatalf("waits: %s's verdict says %q", args[1], f.Message)
			}
		}
	}
	for _, r := range rules {
		if r == document.RuleBrokenNoWork || r == document.RuleLeaveBaseline {
			ts.Fatalf("waits: %s is %s", args[1], r)
		}
	}
	if slices.Contains(rules, document.RuleLeaveOffCPU) {
		return
	}
	if d.SpareCores != nil && *d.SpareCores < 0.5 {
		ts.Logf("waits: %.2f cores idle: no verdict on %s, as none can be told", *d.SpareCores, args[1])
		return
	}
	spare := "an unknown number of"
	if d.SpareCores != nil {
		spare = fmt.Sprintf("%.2f", *d.SpareCores)
	}
	ts.Fatalf("waits: %s is not called waiting (%v), with %s cores idle", args[1], rules, spare)
}

// cpuCovers is "cpucovers FILE FRACTION": every variant of the run in the
// perfloop.report/v1 document FILE has a CPU profile whose samples add up
// to at least FRACTION of its user time.
func cpuCovers(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cpucovers FILE FRACTION")
	}
	frac, err := strconv.ParseFloat(args[1], 64)
	ts.Check(err)
	for _, v := range readRun(ts, "cpucovers", args[0]).Variants {
		ts.Logf("%s: %.3fs sampled of %.3fs user time", v.Name, v.CPUSeconds, v.UserSeconds)
		if v.CPUSeconds < frac*v.UserSeconds {
			ts.Fatalf("%s: the CPU profile holds %.3fs of the run's %.3fs of user time, less than %v of it", v.Name, v.CPUSeconds, v.UserSeconds, frac)
		}
	}
}

// allocNear is "allocnear FILE TOTALFILE FRACTION": the bytes and the
// objects allocated by the first variant of the run in FILE, with what
// perfloop took off the runtime's count as its own and its CPU profile
// writer's, are within FRACTION of the numbers in TOTALFILE (the
// program's runtime.MemStats TotalAlloc and Mallocs, which count the
// profiler too; a file with one number gives the bytes only). What was
// taken off is at most half: a run slowed down by a busy machine writes
// more profile segments, each allocating, but never that many.
func allocNear(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: allocnear FILE TOTALFILE FRACTION")
	}
	fields := strings.Fields(ts.ReadFile(args[1]))
	if len(fields) == 0 {
		ts.Fatalf("allocnear: %s is empty", args[1])
	}
	frac, err := strconv.ParseFloat(args[2], 64)
	ts.Check(err)
	v := readRun(ts, "allocnear", args[0]).Variants[0]
	prof := []int64{v.ProfilerAllocBytes, v.ProfilerAllocObjects}
	for i, got := range []int64{v.AllocBytes, v.AllocObjects}[:min(2, len(fields))] {
		want, err := strconv.ParseFloat(fields[i], 64)
		ts.Check(err)
		what := []string{"bytes (TotalAlloc)", "objects (Mallocs)"}[i]
		ts.Logf("%s: allocated %d %s, %d the profiler's; the program's count %.0f", v.Name, got, what, prof[i], want)
		if d := float64(got+prof[i]) - want; d > frac*want || -d > frac*want {
			ts.Fatalf("%s: allocated %d %s and %d the profiler's, the runtime counted %.0f: more than %v apart", v.Name, got, what, prof[i], want, frac)
		}
		if float64(prof[i]) > want/2 {
			ts.Fatalf("%s: %d %s taken off as the profiler's, of %.0f", v.Name, prof[i], what, want)
		}
	}
}

// heapHolds checks that the heap profile PROFILE holds the whole run: its
// alloc_space (the sampled records, scaled as pprof scales them) is
// within FRACTION of the bytes in TOTALFILE (the program's TotalAlloc).
// It asks the profile, not the wrapper: whether the collection before
// the final heap profile ran is what the runtime published, which a
// gctrace line cannot say for sure (the runtime wakes runtime.GC's
// caller before it prints the cycle's line, and a program that exits
// right after may cut the line short). With neg, the profile holds less
// than 1-FRACTION of the bytes.
func heapHolds(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: heapholds PROFILE TOTALFILE FRACTION")
	}
	fields := strings.Fields(ts.ReadFile(args[1]))
	if len(fields) == 0 {
		ts.Fatalf("heapholds: %s is empty", args[1])
	}
	want, err := strconv.ParseFloat(fields[0], 64)
	ts.Check(err)
	frac, err := strconv.ParseFloat(args[2], 64)
	ts.Check(err)
	f, err := os.Open(ts.MkAbs(args[0]))
	ts.Check(err)
	defer f.Close()
	p, err := profile.Parse(f)
	ts.Check(err)
	idx := -1
	for i, st := range p.SampleType {
		if st.Type == "alloc_space" {
			idx = i
		}
	}
	if idx < 0 {
		ts.Fatalf("heapholds: %s has no alloc_space", args[0])
	}
	var got float64
	for _, s := range p.Sample {
		got += float64(s.Value[idx])
	}
	ts.Logf("heap profile holds %.0f bytes; the program allocated %.0f (%.1f%%)", got, want, 100*got/want)
	switch d := got - want; {
	case neg && got > (1-frac)*want:
		ts.Fatalf("the heap profile holds %.0f of %.0f bytes: not less than %v of them", got, want, 1-frac)
	case !neg && (d > frac*want || -d > frac*want):
		ts.Fatalf("the heap profile holds %.0f of %.0f bytes: more than %v apart", got, want, frac)
	}
}
