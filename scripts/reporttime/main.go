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
// Usage (from the repository root):
//
//	go build -o /tmp/perfloop ./cmd/perfloop
//	go run ./scripts/reporttime -perfloop /tmp/perfloop [-old /tmp/perfloop-old] -trials 3 ./examples/...
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

	bins := []string{*perfloop}
	if *old != "" {
		bins = append(bins, *old)
	}
	common := []string{"-count", fmt.Sprint(*count), "-benchtime", *benchtime}
	times := map[string][]float64{}
	reports := map[string]string{}
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
	if len(bins) == 2 {
		cur, prev := load(reports["0"]), load(reports["1"])
		fmt.Printf("\nagreement of the last trial's reports (largest difference, in points of share):\n")
		fmt.Printf("  hotspots flat %.1f, cum %.1f over %d functions\n", maxDiff(cur.hot("flat"), prev.hot("flat")), maxDiff(cur.hot("cum"), prev.hot("cum")), len(prev.hot("flat")))
		fmt.Printf("  allocation sites bytes %.1f, objects %.1f over %d sites\n", maxDiff(cur.sites("bytes"), prev.sites("bytes")), maxDiff(cur.sites("objects"), prev.sites("objects")), len(prev.sites("bytes")))
		fmt.Printf("  top site per benchmark: %d of %d the same\n", sameTop(cur, prev), len(prev.topSites()))
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
		m[h.Benchmark+" "+h.Function] = v
	}
	return m
}

func (d *doc) sites(which string) map[string]float64 {
	m := map[string]float64{}
	for _, a := range d.Allocations {
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

// maxDiff is the largest difference, in points, between the shares both
// maps have (the entries shown by both reports).
func maxDiff(a, b map[string]float64) float64 {
	d := 0.0
	for k, vb := range b {
		if va, ok := a[k]; ok {
			d = math.Max(d, 100*math.Abs(va-vb))
		}
	}
	return d
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
