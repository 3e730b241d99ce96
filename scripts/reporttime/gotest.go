package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

var (
	gotest  = flag.Bool("gotest", false, "measure perfloop report against go test -bench (instead of perfloop bench) on the packages and on each -module")
	modules = flag.String("modules", "", "comma-separated third-party modules (path@version) to measure with -gotest, each on a copy of its source")
)

// target is a module whose benchmarks -gotest measures: its directory and
// the package patterns.
type target struct {
	name string
	dir  string
	pkgs []string
}

// compareGoTest runs `go test -bench` and `perfloop report` with the same
// -count and -benchtime on each target, alternating which goes first from
// one trial to the next and from one command to the other within a trial,
// so a machine whose load drifts weighs on both alike, and prints per
// target the benchmarks' count, both medians and their ratio.
func compareGoTest(pkgs []string, tmp string) {
	targets := []target{{name: strings.Join(pkgs, " "), dir: ".", pkgs: pkgs}}
	for _, m := range strings.Split(*modules, ",") {
		if m = strings.TrimSpace(m); m != "" {
			targets = append(targets, fetch(m, tmp))
		}
	}
	load0 := loadavg()
	type row struct {
		t          target
		benchmarks int
		gt, rep    []float64
	}
	var rows []row
	for ti, t := range targets {
		r := row{t: t}
		for trial := 0; trial < *trials; trial++ {
			out := filepath.Join(tmp, fmt.Sprintf("t%d-%d", ti, trial))
			bt := []string{"-count", fmt.Sprint(*count), "-benchtime", *benchtime}
			goCmd := append(append([]string{"test", "-run", "^$", "-bench", ".", "-benchmem"}, bt...), t.pkgs...)
			repCmd := append(append(append([]string{"report"}, bt...), "-out", out), t.pkgs...)
			steps := []func(){
				func() {
					var stdout bytes.Buffer
					d := timed(t.dir, "go", goCmd, &stdout)
					r.gt = append(r.gt, d)
					r.benchmarks = resultLines(stdout.String()) / max(*count, 1)
				},
				func() { r.rep = append(r.rep, timed(t.dir, *perfloop, repCmd, io.Discard)) },
			}
			if trial%2 == 1 {
				steps[0], steps[1] = steps[1], steps[0]
			}
			for _, step := range steps {
				step()
			}
			fmt.Fprintf(os.Stderr, "%s trial %d: go test %.1fs, report %.1fs\n", t.name, trial+1, r.gt[len(r.gt)-1], r.rep[len(r.rep)-1])
		}
		rows = append(rows, r)
	}
	fmt.Printf("-count %d -benchtime %s, %d trials alternating, median wall seconds; load average %s at the start, %s at the end\n\n", *count, *benchtime, *trials, load0, loadavg())
	fmt.Printf("| module | benchmarks | go test -bench | perfloop report | report / go test |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		g, p := median(r.gt), median(r.rep)
		fmt.Printf("| %s | %d | %.1f s | %.1f s | %.2f× |\n", r.t.name, r.benchmarks, g, p, p/g)
	}
}

// timed runs name args in dir and returns its wall seconds; a failure is
// fatal, since a ratio of a failed run means nothing.
func timed(dir, name string, args []string, stdout io.Writer) float64 {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start).Seconds()
	if err != nil {
		log.Fatalf("%s %s (in %s): %v\n%s", name, strings.Join(args, " "), dir, err, lastLines(stderr.String(), 10))
	}
	return d
}

// resultLines counts the benchmark result lines of go test's output.
func resultLines(out string) int {
	n := 0
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Benchmark") && strings.Contains(l, " ns/op") {
			n++
		}
	}
	return n
}

// fetch downloads a module (go mod download) and copies its source to a
// writable directory under tmp, with a go.mod naming it when it has none.
func fetch(mod, tmp string) target {
	out, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		log.Fatalf("go mod download %s: %v", mod, err)
	}
	var info struct{ Path, Dir string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		log.Fatalf("go mod download %s: no directory (%v)", mod, err)
	}
	dir := filepath.Join(tmp, "mod", strings.ReplaceAll(info.Path, "/", "_"))
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		log.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", info.Dir, dir).CombinedOutput(); err != nil {
		log.Fatalf("copy %s: %v: %s", info.Dir, err, out)
	}
	if out, err := exec.Command("chmod", "-R", "u+w", dir).CombinedOutput(); err != nil {
		log.Fatalf("chmod %s: %v: %s", dir, err, out)
	}
	// A module without go.mod gets one at an old go line, as its users
	// build it: go vet's checks for newer lines (a non-constant format
	// string) would fail go test.
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+info.Path+"\n\ngo 1.16\n"), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	tidy := exec.Command("go", "mod", "tidy")
	tidy.Dir = dir
	if out, err := tidy.CombinedOutput(); err != nil {
		log.Fatalf("go mod tidy in %s: %v: %s", mod, err, out)
	}
	return target{name: mod, dir: dir, pkgs: []string{"./..."}}
}

// loadavg is the machine's 1-, 5- and 15-minute load averages, or "?".
func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
