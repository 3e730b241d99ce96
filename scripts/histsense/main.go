// Command histsense measures how well perfloop history finds a step in a
// benchmark's series on a loaded machine, and how often it reports a step
// where there is none. Each try builds a git repository of five commits,
// records each with `perfloop record` (its default flags unless -args says
// otherwise) while busy loops run beside it, and reads `perfloop history
// -json`:
//
//   - with -factor 2 (the default), the third commit makes BenchmarkWork
//     twice as slow: a try is found when Work's sec/op series has a change
//     point at the third commit; any other change point of any series is
//     counted as false;
//   - with -factor 1 (A/A), every commit has the same code (the commits
//     change comments only): every change point is false, counted per
//     series.
//
// -flat N adds N benchmarks that never change, so that one try gives
// more series for the false-positive count.
//
// Usage (from the repository root):
//
//	go build -o /tmp/perfloop ./cmd/perfloop
//	go run ./scripts/histsense -perfloop /tmp/perfloop -tries 20 -busy 2
//	go run ./scripts/histsense -perfloop /tmp/perfloop -tries 20 -busy 2 -factor 1 -flat 10
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var (
	perfloop = flag.String("perfloop", "perfloop", "perfloop binary to measure")
	tries    = flag.Int("tries", 20, "histories to build")
	busy     = flag.Int("busy", 2, "busy loops (yes >/dev/null) running beside the records")
	factor   = flag.Int("factor", 2, "how many times slower the third commit makes BenchmarkWork (1: A/A)")
	flat     = flag.Int("flat", 0, "benchmarks besides Work that never change")
	commits  = flag.Int("commits", 5, "commits per history")
	at       = flag.Int("at", 3, "the commit (1-based) that makes Work slower")
	args     = flag.String("args", "", "more flags for perfloop record, space-separated (default: none, record's defaults)")
	keep     = flag.Bool("keep", false, "keep each try's repository (its path is printed)")
)

func main() {
	log.SetFlags(0)
	flag.Parse()
	perf, err := exec.LookPath(*perfloop)
	check(err)
	if perf, err = filepath.Abs(perf); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("machine: %s", output("", "uname", "-srm"))
	fmt.Printf("go: %s", output("", "go", "version"))
	fmt.Printf("perfloop record %s; %d commits, Work ×%d at commit %d, %d flat benchmarks\n",
		strings.TrimSpace(*args), *commits, *factor, *at, *flat)
	for i := 0; i < *busy; i++ {
		cmd := exec.Command("yes")
		check(cmd.Start())
		defer cmd.Process.Kill()
	}
	if *busy > 0 {
		fmt.Printf("%d busy loops (yes >/dev/null) running beside the records\n", *busy)
	}
	var (
		found, falseSeries, series int
		recordTimes                []float64
	)
	for t := 1; t <= *tries; t++ {
		r := try(perf)
		recordTimes = append(recordTimes, r.recordSeconds...)
		series += r.series
		falseSeries += len(r.falseAt)
		mark := "missed"
		if r.found {
			found++
			mark = "found"
		}
		if *factor == 1 {
			mark = "A/A"
		}
		fmt.Printf("try %2d: %-6s Work %s; false change points in %d of %d series %v; load %s\n",
			t, mark, r.work, len(r.falseAt), r.series, r.falseAt, loadavg())
	}
	sort.Float64s(recordTimes)
	med := 0.0
	if n := len(recordTimes); n > 0 {
		med = recordTimes[n/2]
	}
	if *factor != 1 {
		fmt.Printf("\n%d× step found in %d of %d tries\n", *factor, found, *tries)
	}
	fmt.Printf("series with a false change point: %d of %d (%.1f%%)\n", falseSeries, series, 100*float64(falseSeries)/float64(max(series, 1)))
	fmt.Printf("record: median %.1fs per commit\n", med)
}

type result struct {
	found         bool
	work          string   // Work's sec/op change points, as "c3 +98%"
	falseAt       []string // series with a false change point
	series        int
	recordSeconds []float64
}

func try(perf string) result {
	dir, err := os.MkdirTemp("", "histsense-")
	check(err)
	if *keep {
		fmt.Printf("repository %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	var res result
	var hashes []string
	recordArgs := strings.Fields(*args)
	for c := 1; c <= *commits; c++ {
		slow := 1
		if c >= *at {
			slow = *factor
		}
		writeModule(dir, c, slow)
		if c == 1 {
			git(dir, "init", "-q")
		}
		git(dir, "add", "-A")
		git(dir, "commit", "-qm", fmt.Sprintf("c%d", c))
		hashes = append(hashes, strings.TrimSpace(git(dir, "rev-parse", "HEAD")))
		start := time.Now()
		cmd := exec.Command(perf, append(append([]string{"record"}, recordArgs...), "./...")...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			log.Fatalf("perfloop record at c%d: %v\n%s", c, err, out)
		}
		res.recordSeconds = append(res.recordSeconds, time.Since(start).Seconds())
	}
	cmd := exec.Command(perf, "history", "-json")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("perfloop history: %v", err)
	}
	var h struct {
		Benchmarks []struct {
			Name, Unit   string
			ChangePoints []struct {
				Commit string
				Delta  float64
			} `json:"change_points"`
		}
	}
	check(json.Unmarshal(out, &h))
	index := map[string]int{}
	for i, c := range hashes {
		index[c] = i + 1
	}
	res.work = "no change point"
	for _, b := range h.Benchmarks {
		res.series++
		step := *factor != 1 && b.Name == "BenchmarkWork" && b.Unit == "sec/op"
		var cps []string
		falsePoint := false
		for _, cp := range b.ChangePoints {
			cps = append(cps, fmt.Sprintf("c%d %+.0f%%", index[cp.Commit], 100*cp.Delta))
			if step && index[cp.Commit] == *at {
				res.found = true
				continue
			}
			falsePoint = true
		}
		if step && len(cps) > 0 {
			res.work = strings.Join(cps, ", ")
		}
		if falsePoint {
			res.falseAt = append(res.falseAt, fmt.Sprintf("%s %s: %s", strings.TrimPrefix(b.Name, "Benchmark"), b.Unit, strings.Join(cps, ", ")))
		}
	}
	return res
}

// writeModule writes the module as commit c has it: Work does slow times
// the work; a comment changes at every commit, so no two commits are the
// same tree.
func writeModule(dir string, c, slow int) {
	files := map[string]string{
		"go.mod": "module example.com/hist\n\ngo 1.24\n",
		"work.go": fmt.Sprintf(`package hist

// Work does n units of work (commit %d).
func Work(n int) int {
	s := 0
	for i := 0; i < %d*n*1000; i++ {
		s += i ^ (s >> 3)
	}
	return s
}
`, c, slow),
		"work_test.go": workTest(*flat),
	}
	for name, text := range files {
		check(os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
}

// flatKinds are the bodies of the benchmarks that never change: a few
// kinds of work, each at its own size.
var flatKinds = []string{
	`xs := make([]float64, %[1]d)
	for i := range xs {
		xs[i] = float64(i)
	}
	for b.Loop() {
		s := 0.0
		for _, x := range xs {
			s += x * x
		}
		fsink = s
	}`,
	`m := map[int]int{}
	for i := 0; i < %[1]d; i++ {
		m[i] = i
	}
	for b.Loop() {
		s := 0
		for i := 0; i < %[1]d; i++ {
			s += m[i]
		}
		sink = s
	}`,
	`buf := make([]byte, %[1]d)
	for b.Loop() {
		h := uint64(14695981039346656037)
		for _, c := range buf {
			h ^= uint64(c)
			h *= 1099511628211
		}
		usink = h
	}`,
	`for b.Loop() {
		var sb strings.Builder
		for i := 0; i < %[1]d/10; i++ {
			sb.WriteString(strconv.Itoa(i))
		}
		ssink = sb.String()
	}`,
	`xs := make([]int, %[1]d/4)
	for b.Loop() {
		for i := range xs {
			xs[i] = (i * 7919) %% len(xs)
		}
		sort.Ints(xs)
	}`,
}

func workTest(flat int) string {
	var b strings.Builder
	b.WriteString(`package hist

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

var (
	sink  int
	fsink float64
	usink uint64
	ssink string
	_     = sort.Ints
	_     = strconv.Itoa
	_     = strings.ToLower
)

func BenchmarkWork(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sink = Work(10)
	}
}
`)
	for i := 0; i < flat; i++ {
		kind := flatKinds[i%len(flatKinds)]
		size := 1000 * (1 + i/len(flatKinds))
		fmt.Fprintf(&b, "\nfunc BenchmarkFlat%02d(b *testing.B) {\n\t%s\n}\n", i, fmt.Sprintf(kind, size))
	}
	return b.String()
}

func git(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=h", "GIT_AUTHOR_EMAIL=h@example.com",
		"GIT_COMMITTER_NAME=h", "GIT_COMMITTER_EMAIL=h@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.CombinedOutput()
	if err != nil {
		log.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func output(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	check(err)
	return string(out)
}

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

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
