// Command runoverhead measures what perfloop run costs the program it
// profiles: the program's wall time under perfloop run (report.json's
// wall_seconds: from its start to its exit, the build cached) against the
// plain binary's (go build, the same arguments), in alternation so both
// see the same machine, and prints per trial and as medians
//
//   - the wall times and their ratio (perfloop run's target: ≤ 1.05), and
//     the CPU times (user + system) and theirs, which a machine busy with
//     other work disturbs less;
//   - the peak RSS of each: perfloop run's (the program's VmHWM) and the
//     plain binary's from /usr/bin/time -v, when it is installed;
//   - perfloop run's own wall time around it (the cached build, the
//     analysis, the report), for scale.
//
// Usage (from the repository root):
//
//	go build -o /tmp/perfloop ./cmd/perfloop
//	go run ./scripts/runoverhead -perfloop /tmp/perfloop -dir DIR -trials 7 ./cmd/app -- ARGS...
//
// DIR is the main package's module (the go command and the program run
// there). The program's stdout and stderr are discarded; its stdin is the
// null device.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
)

var (
	perfloop = flag.String("perfloop", "perfloop", "perfloop binary to measure")
	dir      = flag.String("dir", ".", "the main package's module directory")
	trials   = flag.Int("trials", 7, "runs of each")
	extra    = flag.String("flags", "", "more perfloop run flags, space-separated (-runs is always 1)")
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("runoverhead: ")
	flag.Parse()
	if flag.NArg() < 1 {
		log.Fatal("usage: runoverhead [-perfloop BIN] [-dir DIR] [-trials N] PACKAGE [-- ARGS...]")
	}
	pkg, args := flag.Arg(0), flag.Args()[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	tmp, err := os.MkdirTemp("", "runoverhead-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	plain := filepath.Join(tmp, "plain")
	build := exec.Command("go", "build", "-o", plain, pkg)
	build.Dir, build.Stderr = *dir, os.Stderr
	if err := build.Run(); err != nil {
		log.Fatalf("go build %s: %v", pkg, err)
	}
	pl := func(out string) []string {
		a := []string{"run", "-out", out}
		a = append(a, strings.Fields(*extra)...)
		return append(append(a, pkg, "--"), args...)
	}
	// One run first: perfloop's build of the wrapped program is cached
	// from then on.
	if _, err := runPerfloop(pl(filepath.Join(tmp, "warm"))); err != nil {
		log.Fatal(err)
	}
	timeV, _ := exec.LookPath("/usr/bin/time")
	fmt.Printf("# perfloop run overhead: %s %s in %s; %d trials, alternating which runs first\n", pkg, strings.Join(args, " "), *dir, *trials)
	fmt.Printf("%-6s %10s %10s %7s %10s %10s %7s %12s %12s %10s  %s\n", "trial", "plain s", "run s", "ratio", "plain cpu", "run cpu", "ratio", "plain RSS", "run RSS", "perfloop s", "final gc (estimated cost)")
	var ratios, plains, runs, cpuRatios []float64
	for i := 1; i <= *trials; i++ {
		var p plainRun
		var r runResult
		doPlain := func() {
			if p, err = runPlain(timeV, plain, args); err != nil {
				log.Fatal(err)
			}
		}
		doRun := func() {
			out := filepath.Join(tmp, "out")
			os.RemoveAll(out)
			if r, err = runPerfloop(pl(out)); err != nil {
				log.Fatal(err)
			}
		}
		if i%2 == 1 {
			doPlain()
			doRun()
		} else {
			doRun()
			doPlain()
		}
		ratio := r.wall / p.wall
		ratios, plains, runs = append(ratios, ratio), append(plains, p.wall), append(runs, r.wall)
		cpuRatio := 0.0
		if p.cpu > 0 {
			cpuRatio = r.cpu / p.cpu
			cpuRatios = append(cpuRatios, cpuRatio)
		}
		fmt.Printf("%-6d %10.3f %10.3f %7.3f %10.3f %10.3f %7.3f %12s %12s %10.2f  %s (%.1f%%)\n", i, p.wall, r.wall, ratio, p.cpu, r.cpu, cpuRatio, mib(p.rss), mib(r.rss), r.total, r.finalGC, 100*r.finalGCCost)
	}
	fmt.Printf("median: plain %.3fs, under perfloop run %.3fs, wall ratio %.3f (min %.3f, max %.3f); target ≤ 1.05\n",
		median(plains), median(runs), median(ratios), minOf(ratios), maxOf(ratios))
	if len(cpuRatios) > 0 {
		fmt.Printf("median CPU ratio %.3f (min %.3f, max %.3f)\n", median(cpuRatios), minOf(cpuRatios), maxOf(cpuRatios))
	}
}

type plainRun struct {
	wall, cpu float64 // cpu is 0 when unknown
	rss       int64   // bytes, 0 when unknown
}

// maxRSS, userTime and sysTime are /usr/bin/time -v's lines.
var (
	maxRSS   = regexp.MustCompile(`Maximum resident set size \(kbytes\): ([0-9]+)`)
	userTime = regexp.MustCompile(`User time \(seconds\): ([0-9.]+)`)
	sysTime  = regexp.MustCompile(`System time \(seconds\): ([0-9.]+)`)
)

// runPlain runs the plain binary, under /usr/bin/time -v when timeV is
// set, for its peak RSS (time's own is small: the child's ru_maxrss
// starts at the process it was forked from).
func runPlain(timeV, bin string, args []string) (plainRun, error) {
	var cmd *exec.Cmd
	if timeV != "" {
		cmd = exec.Command(timeV, append([]string{"-v", bin}, args...)...)
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = *dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return plainRun{}, fmt.Errorf("run %s: %w", bin, err)
	}
	r := plainRun{wall: wall}
	if m := maxRSS.FindSubmatch(stderr.Bytes()); m != nil {
		kb, _ := strconv.ParseInt(string(m[1]), 10, 64)
		r.rss = kb * 1024
	}
	u, s := userTime.FindSubmatch(stderr.Bytes()), sysTime.FindSubmatch(stderr.Bytes())
	if u != nil && s != nil {
		us, _ := strconv.ParseFloat(string(u[1]), 64)
		ss, _ := strconv.ParseFloat(string(s[1]), 64)
		r.cpu = us + ss
	}
	return r, nil
}

type runResult struct {
	wall, cpu, total float64
	rss              int64
	// finalGC is what the wrapper did before the final heap profile
	// (report.json's final_gc), finalGCCost its estimated cost.
	finalGC     string
	finalGCCost float64
}

// runPerfloop runs perfloop with args (the last -out's report.json is
// read) and returns the program's wall time and peak RSS as the report
// says, and perfloop's own wall time.
func runPerfloop(args []string) (runResult, error) {
	cmd := exec.Command(*perfloop, args...)
	cmd.Dir = *dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	total := time.Since(start).Seconds()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		return runResult{}, fmt.Errorf("perfloop %s: %w", strings.Join(args, " "), err)
	}
	out := args[2]
	if !filepath.IsAbs(out) {
		out = filepath.Join(*dir, out)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		return runResult{}, fmt.Errorf("perfloop run wrote no report (%v): %s", err, stderr.String())
	}
	var doc struct {
		Run struct {
			Variants []struct {
				WallSeconds float64 `json:"wall_seconds"`
				UserSeconds float64 `json:"user_seconds"`
				SysSeconds  float64 `json:"sys_seconds"`
				MaxRSSBytes int64   `json:"max_rss_bytes"`
				FinalGC     string  `json:"final_gc"`
				FinalGCCost float64 `json:"final_gc_cost"`
			} `json:"variants"`
		} `json:"run"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Run.Variants) == 0 {
		return runResult{}, fmt.Errorf("read report.json: %v", err)
	}
	v := doc.Run.Variants[0]
	return runResult{wall: v.WallSeconds, cpu: v.UserSeconds + v.SysSeconds, total: total, rss: v.MaxRSSBytes, finalGC: v.FinalGC, finalGCCost: v.FinalGCCost}, nil
}

func mib(b int64) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	} else {
		return (s[n/2-1] + s[n/2]) / 2
	}
}

func minOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func maxOf(xs []float64) float64 {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
