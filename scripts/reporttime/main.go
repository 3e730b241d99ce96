// Command reporttime measures what perfloop report costs beside the
// benchmarks it explains, and checks that a faster report still says the
// same: it runs `perfloop bench` and `perfloop report` with the same flags
// on the same packages, alternating which goes first, for one or two
// perfloop binaries (the current one, and optionally an earlier build to
// compare with), and prints
//
//   - the median wall time of each command and the report/bench ratio;
//   - for two binaries, how far apart their reports' CPU hotspots (flat and
//     cum of each benchmark's top functions) and allocation shares (bytes
//     and objects of its top sites) are: the largest difference in points.
//
// With -gotest it measures instead what a user compares perfloop with:
// `go test -bench . -benchmem` against `perfloop report`, at the same
// -count and -benchtime, alternating, on the packages and on each module
// of -modules (a copy of its source, fetched with go mod download), and
// prints the ratios as the table of docs/report.md.
//
// Usage (from the repository root):
//
//	go build -o /tmp/perfloop ./cmd/perfloop
//	go run ./scripts/reporttime -perfloop /tmp/perfloop [-old /tmp/perfloop-old] -trials 3 ./examples/...
//	go run ./scripts/reporttime -perfloop /tmp/perfloop -gotest -count 3 -trials 2 \
//		-modules github.com/gobwas/glob@v0.2.3,... ./examples/...
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var (
	perfloop  = flag.String("perfloop", "perfloop", "perfloop binary to measure")
	old       = flag.String("old", "", "an earlier perfloop binary to compare with (optional)")
	trials    = flag.Int("trials", 3, "runs of each command")
	count     = flag.Int("count", 6, "-count for bench and report")
	benchtime = flag.String("benchtime", "100ms", "-benchtime for bench and report")
)

func main() {
	log.SetFlags(0)
	flag.Parse()
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./examples/..."}
	}
	tmp, err := os.MkdirTemp("", "reporttime-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if *gotest {
		compareGoTest(pkgs, tmp)
		return
	}

	bins := []string{*perfloop}
	if *old != "" {
		bins = append(bins, *old)
	}
	common := []string{"-count", fmt.Sprint(*count), "-benchtime", *benchtime}
	times := map[string][]float64{}
	reports := map[string]string{}
	all := map[int][]string{} // report.json paths per binary, per trial
	var firsts [][]string     // the current binary's first screens, per trial
	for trial := 0; trial < *trials; trial++ {
		for bi, bin := range bins {
			out := filepath.Join(tmp, fmt.Sprintf("r%d-%d", bi, trial))
			cmds := [][]string{
				append(append([]string{"bench"}, common...), append([]string{"-o", out + ".txt"}, pkgs...)...),
				append(append([]string{"report"}, common...), append([]string{"-out", out}, pkgs...)...),
			}
			if trial%2 == 1 {
				cmds[0], cmds[1] = cmds[1], cmds[0]
			}
			for _, args := range cmds {
				start := time.Now()
				cmd := exec.Command(bin, args...)
				cmd.Stdout, cmd.Stderr = nil, os.Stderr
				if err := cmd.Run(); err != nil {
					log.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
				}
				key := fmt.Sprintf("%d %s", bi, args[0])
				times[key] = append(times[key], time.Since(start).Seconds())
			}
			reports[fmt.Sprint(bi)] = filepath.Join(out, "report.json")
			all[bi] = append(all[bi], filepath.Join(out, "report.json"))
			if bi == 0 {
				firsts = append(firsts, firstScreen(filepath.Join(out, "report.json")))
			}
		}
	}
	fmt.Printf("%s, -count %d -benchtime %s, %d trials (median wall seconds)\n\n", strings.Join(pkgs, " "), *count, *benchtime, *trials)
	fmt.Printf("%-10s %8s %8s %8s\n", "perfloop", "bench", "report", "ratio")
	for bi, bin := range bins {
		b, r := median(times[fmt.Sprintf("%d bench", bi)]), median(times[fmt.Sprintf("%d report", bi)])
		name := "current"
		if bi == 1 {
			name = "earlier"
		}
		fmt.Printf("%-10s %8.1f %8.1f %7.2f×   (%s)\n", name, b, r, r/b, bin)
	}
	if len(firsts) > 1 {
		fmt.Printf("\nfirst screen of the current build across %d trials (root causes, in order):\n", len(firsts))
		for i, f := range firsts {
			fmt.Printf("  trial %d: %s\n", i+1, strings.Join(f, " "))
		}
		fmt.Printf("  in every trial: %d of %d\n", inAll(firsts), len(firsts[0]))
	}
	if len(bins) == 2 {
		cur, prev := load(all[0][0]), load(all[1][0])
		fmt.Printf("\nagreement with the earlier build (differences in points of share; p50 / p90 / max):\n")
		fmt.Printf("  hotspots with a share of 2%% or more, flat: %s, cum: %s\n", spread(cur.hot("flat"), prev.hot("flat")), spread(cur.hot("cum"), prev.hot("cum")))
		if len(all[1]) > 1 {
			p2 := load(all[1][1])
			fmt.Printf("  the earlier build against itself (run-to-run noise), flat: %s, cum: %s\n", spread(p2.hot("flat"), prev.hot("flat")), spread(p2.hot("cum"), prev.hot("cum")))
		}
		low := cur.lowSetup(0.05)
		fmt.Printf("  allocation sites of the %d benchmarks whose setup is under 5%% of their bytes, bytes: %s, objects: %s\n",
			len(low), spread(cur.sites("bytes", low), prev.sites("bytes", low)), spread(cur.sites("objects", low), prev.sites("objects", low)))
		fmt.Printf("  (the others differ by design: the earlier build counted setup in the shares, the current one measures the timed loop's allocations per op)\n")
		fmt.Printf("  top allocation site per benchmark: %d of %d the same\n", sameTop(cur, prev), len(prev.topSites()))
	}
}

type doc struct {
	Hotspots []struct {
		Benchmark, Function string
		Flat, Cum           float64
	}
	Allocations []struct {
		Benchmark, File string
		Line            int64
		BytesShare      float64 `json:"bytes_share"`
		ObjectsShare    float64 `json:"objects_share"`
	}
	Benchmarks []struct {
		Name  string
		Setup *float64 `json:"setup_alloc_share"`
	}
}

// lowSetup returns the benchmarks whose setup share is known and below x.
func (d *doc) lowSetup(x float64) map[string]bool {
	m := map[string]bool{}
	for _, b := range d.Benchmarks {
		if b.Setup != nil && *b.Setup < x {
			m[b.Name] = true
		}
	}
	return m
}

func load(path string) *doc {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var d doc
	if err := json.Unmarshal(data, &d); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	return &d
}

func (d *doc) hot(which string) map[string]float64 {
	m := map[string]float64{}
	for _, h := range d.Hotspots {
		v := h.Flat
		if which == "cum" {
			v = h.Cum
		}
		if v >= 0.02 {
			m[h.Benchmark+" "+h.Function] = v
		}
	}
	return m
}

func (d *doc) sites(which string, only map[string]bool) map[string]float64 {
	m := map[string]float64{}
	for _, a := range d.Allocations {
		if !only[a.Benchmark] {
			continue
		}
		v := a.BytesShare
		if which == "objects" {
			v = a.ObjectsShare
		}
		m[fmt.Sprintf("%s %s:%d", a.Benchmark, a.File, a.Line)] = v
	}
	return m
}

func (d *doc) topSites() map[string]string {
	best := map[string]float64{}
	top := map[string]string{}
	for _, a := range d.Allocations {
		if a.BytesShare > best[a.Benchmark] {
			best[a.Benchmark] = a.BytesShare
			top[a.Benchmark] = fmt.Sprintf("%s:%d", a.File, a.Line)
		}
	}
	return top
}

func sameTop(a, b *doc) int {
	ta, tb := a.topSites(), b.topSites()
	n := 0
	for k, v := range tb {
		if ta[k] == v {
			n++
		}
	}
	return n
}

// spread summarizes the differences, in points, between the shares both
// maps have: median, 90th percentile and largest, and how many.
func spread(a, b map[string]float64) string {
	var ds []float64
	for k, vb := range b {
		if va, ok := a[k]; ok {
			ds = append(ds, 100*math.Abs(va-vb))
		}
	}
	if len(ds) == 0 {
		return "none in common"
	}
	sort.Float64s(ds)
	q := func(p float64) float64 { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
	return fmt.Sprintf("%.1f / %.1f / %.1f over %d", q(0.5), q(0.9), ds[len(ds)-1], len(ds))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 0 {
		// Two trials: their mean, not the slower one.
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return s[len(s)/2]
}

// firstScreen returns the file:line of the first ten "fix" findings of a
// report.json.
func firstScreen(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	var d struct {
		Findings []struct {
			Section, File string
			Line          int64
		}
	}
	if err := json.Unmarshal(data, &d); err != nil {
		log.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, f := range d.Findings {
		if f.Section == "fix" && len(out) < 10 {
			out = append(out, fmt.Sprintf("%s:%d", filepath.Base(f.File), f.Line))
		}
	}
	return out
}

// inAll counts the entries of the first list that every list has.
func inAll(lists [][]string) int {
	n := 0
	for _, x := range lists[0] {
		all := true
		for _, l := range lists[1:] {
			found := false
			for _, y := range l {
				found = found || x == y
			}
			all = all && found
		}
		if all {
			n++
		}
	}
	return n
}
