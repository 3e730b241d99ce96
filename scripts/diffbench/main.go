// Command diffbench measures perfloop diff's accuracy and speed on this
// machine and prints the figures that README.md's diff section quotes:
//
//   - A/A: BASE equal to HEAD, the share of benchmark×unit rows flagged;
//   - power: a slowdown injected into one of four benchmarks (5% and
//     10%), the share of trials that flag it and the share of the other
//     rows flagged;
//   - time to verdict beside the workflow diff replaces: go test -bench
//     -count=10 on BASE, the same on HEAD, then benchstat — with
//     benchstat's own false-positive rate on the same A/A runs.
//
// Usage (from the repository root):
//
//	go build -o ./perfloop ./cmd/perfloop
//	go run ./scripts/diffbench -perfloop ./perfloop -aa 25 -power 20
//
// With -busy 2, two busy loops run beside the trials (noisy neighbours),
// and each slowdown's report says how often a trial that claimed it could
// detect a change of that size (or flagged it) did flag it.
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
	"strings"
	"time"
)

var (
	perfloop  = flag.String("perfloop", "perfloop", "perfloop binary to measure")
	aaTrials  = flag.Int("aa", 25, "A/A trials (each also times the go test + benchstat workflow)")
	power     = flag.Int("power", 20, "trials per injected slowdown")
	benchtime = flag.String("benchtime", "100ms", "-benchtime of the go test workflow")
	diffTime  = flag.String("diffbenchtime", "", "-benchtime of perfloop diff (\"\": its default)")
	withHand  = flag.Bool("hand", true, "also time the go test + benchstat workflow in the A/A trials")
	busy      = flag.Int("busy", 0, "run `n` busy loops (processes) beside the trials: noisy neighbours")
	diffLimit = flag.String("time", "", "-time of perfloop diff (\"\": its default)")
)

const goMod = "module example.com/dr\n\ngo 1.24\n"

// work.go: four independent CPU-bound functions. SLOWDOWN is replaced by
// the share of the input Sum passes over a second time, so Sum's cost grows
// by that share. It is a variable, not a constant, so that the compiled
// code of BASE and HEAD is the same and only data differs: a change of code
// size would move the other functions and change their speed for real
// (alignment), which is not what the power trials measure.
const workGo = `package dr

var slowdown = SLOWDOWN

// Sum adds the squares of xs.
func Sum(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x * x
	}
	for _, x := range xs[:len(xs)*slowdown/100] {
		s += x * x
	}
	return s
}

// Hash is FNV-1a over b.
func Hash(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// Count counts the set bits below n.
func Count(n int) int {
	c := 0
	for i := 0; i < n; i++ {
		for x := i; x != 0; x &= x - 1 {
			c++
		}
	}
	return c
}

// Collatz returns the total steps of the Collatz sequences below n.
func Collatz(n int) int {
	t := 0
	for i := 1; i < n; i++ {
		for x := i; x != 1; t++ {
			if x%2 == 0 {
				x /= 2
			} else {
				x = 3*x + 1
			}
		}
	}
	return t
}
`

const workTest = `package dr

import "testing"

var (
	sink  float64
	isink int
	usink uint64
)

func BenchmarkA(b *testing.B) {
	xs := make([]float64, 4096)
	for i := range xs {
		xs[i] = float64(i)
	}
	for b.Loop() {
		sink = Sum(xs)
	}
}

func BenchmarkB(b *testing.B) {
	buf := make([]byte, 4096)
	for b.Loop() {
		usink = Hash(buf)
	}
}

func BenchmarkC(b *testing.B) {
	for b.Loop() {
		isink = Count(2000)
	}
}

func BenchmarkD(b *testing.B) {
	for b.Loop() {
		isink = Collatz(200)
	}
}
`

func main() {
	log.SetFlags(0)
	flag.Parse()
	dir, err := os.MkdirTemp("", "diffbench-")
	check(err)
	defer os.RemoveAll(dir)
	repo := filepath.Join(dir, "repo")
	check(os.MkdirAll(repo, 0o755))
	writeModule(repo, 0)
	run(repo, "git", "init", "-q")
	run(repo, "git", "add", "-A")
	run(repo, "git", "-c", "user.email=d@b", "-c", "user.name=d", "commit", "-qm", "base")
	// A second copy for the hand workflow's HEAD side.
	copyDir := filepath.Join(dir, "head")
	check(os.MkdirAll(copyDir, 0o755))
	writeModule(copyDir, 0)

	fmt.Printf("machine: %s", run(repo, "uname", "-srm"))
	fmt.Printf("go: %s", run(repo, "go", "version"))
	for i := 0; i < *busy; i++ {
		cmd := exec.Command("sh", "-c", "while :; do :; done")
		check(cmd.Start())
		defer cmd.Process.Kill()
	}
	if *busy > 0 {
		fmt.Printf("%d busy loops running beside the trials\n", *busy)
	}

	// A/A.
	var aa struct{ rows, flagged, secRows, secFlagged, bsRows, bsFlagged int }
	var diffWall, handWall time.Duration
	var rounds int
	for i := 0; i < *aaTrials; i++ {
		var d diffResult
		var hand time.Duration
		var bsFlag, bsRows int
		// Alternate which workflow goes first, so drift hits both.
		switch {
		case !*withHand:
			d = diff(repo)
		case i%2 == 0:
			d = diff(repo)
			hand, bsRows, bsFlag = handWorkflow(repo, copyDir)
		default:
			hand, bsRows, bsFlag = handWorkflow(repo, copyDir)
			d = diff(repo)
		}
		diffWall += d.wall
		handWall += hand
		rounds += d.rounds
		aa.rows += d.rows
		aa.flagged += len(d.flagged)
		aa.secRows += d.secRows
		for _, f := range d.flagged {
			if strings.Contains(f, " sec/op ") {
				aa.secFlagged++
			}
		}
		aa.bsRows += bsRows
		aa.bsFlagged += bsFlag
		fmt.Printf("A/A %2d: diff %5.1fs %2d rounds flagged %v | go test+benchstat %5.1fs benchstat flagged %d/%d sec/op rows\n",
			i+1, d.wall.Seconds(), d.rounds, d.flagged, hand.Seconds(), bsFlag, bsRows)
	}
	if *aaTrials > 0 {
		fmt.Printf("\nA/A over %d runs: perfloop diff flagged %d of %d rows (%.1f%%), %d of %d sec/op rows (%.1f%%); benchstat flagged %d of %d sec/op rows (%.1f%%)\n",
			*aaTrials, aa.flagged, aa.rows, pct(aa.flagged, aa.rows), aa.secFlagged, aa.secRows, pct(aa.secFlagged, aa.secRows),
			aa.bsFlagged, aa.bsRows, pct(aa.bsFlagged, aa.bsRows))
		if *withHand {
			fmt.Printf("time to verdict: perfloop diff %.1fs mean (%.1f rounds), go test -count=10 ×2 + benchstat %.1fs mean: ratio %.2f\n\n",
				diffWall.Seconds()/float64(*aaTrials), float64(rounds)/float64(*aaTrials), handWall.Seconds()/float64(*aaTrials),
				diffWall.Seconds()/handWall.Seconds())
		} else {
			fmt.Printf("time to verdict: perfloop diff %.1fs mean (%.1f rounds)\n\n", diffWall.Seconds()/float64(*aaTrials), float64(rounds)/float64(*aaTrials))
		}
	}

	// Power.
	for _, slow := range []int{5, 10} {
		if *power == 0 {
			break
		}
		writeModule(repo, slow)
		hits, others, otherFlagged := 0, 0, 0
		// claimed: trials that flagged the slowdown or said they could
		// have detected a change smaller than it; found: those of them
		// that flagged it. The "could detect" figure is honest when
		// found/claimed is at least 80%.
		claimed, found, inconclusive := 0, 0, 0
		var wall time.Duration
		for i := 0; i < *power; i++ {
			d := diff(repo)
			wall += d.wall
			hit := false
			for _, f := range d.flagged {
				if f == "A sec/op slower" {
					hit = true
				} else if strings.HasSuffix(f, "sec/op") || strings.Contains(f, "sec/op ") {
					otherFlagged++
				}
			}
			others += d.secRows - 1
			if hit {
				hits++
			}
			mde, ok := d.mde["A"]
			if hit || ok && mde < float64(slow)/100 {
				claimed++
				if hit {
					found++
				}
			}
			if d.verdict["A"] == "inconclusive" {
				inconclusive++
			}
			fmt.Printf("%d%% slower %2d: %5.1fs %2d rounds flagged %v\n", slow, i+1, d.wall.Seconds(), d.rounds, d.flagged)
		}
		fmt.Printf("\n%d%% slowdown: flagged in %d of %d trials (%.0f%%), inconclusive in %d; other sec/op rows flagged %d of %d (%.1f%%); mean time %.1fs\n",
			slow, hits, *power, pct(hits, *power), inconclusive, otherFlagged, others, pct(otherFlagged, others), wall.Seconds()/float64(*power))
		fmt.Printf("  trials that flagged it or claimed they could detect a %d%% change: %d, of which flagged: %d (%.0f%%)\n\n",
			slow, claimed, found, pct(found, claimed))
	}
	writeModule(repo, 0)
}

type diffResult struct {
	wall          time.Duration
	rounds        int
	rows, secRows int
	flagged       []string // "A sec/op slower"
	// mde and verdict are the sec/op rows' reported smallest detectable
	// change (when not significant) and verdicts, by benchmark.
	mde     map[string]float64
	verdict map[string]string
}

func diff(repo string) diffResult {
	start := time.Now()
	args := []string{"diff", "-json", "-bench", "A|B|C|D"}
	if *diffTime != "" {
		args = append(args, "-benchtime", *diffTime)
	}
	if *diffLimit != "" {
		args = append(args, "-time", *diffLimit)
	}
	cmd := exec.Command(*perfloop, append(args, "HEAD")...)
	cmd.Dir = repo
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		log.Fatalf("perfloop diff: %v\n%s", err, stderr.Bytes())
	}
	var doc struct {
		Rounds int
		Rows   []struct {
			Benchmark, Unit, Verdict string
			Significant              bool
			MDE                      *float64
		}
	}
	check(json.Unmarshal(out, &doc))
	d := diffResult{wall: wall, rounds: doc.Rounds, rows: len(doc.Rows), mde: map[string]float64{}, verdict: map[string]string{}}
	for _, r := range doc.Rows {
		if r.Unit == "sec/op" {
			d.secRows++
			d.verdict[r.Benchmark] = r.Verdict
			if r.MDE != nil {
				d.mde[r.Benchmark] = *r.MDE
			}
		}
		if r.Significant {
			d.flagged = append(d.flagged, r.Benchmark+" "+r.Unit+" "+r.Verdict)
		}
	}
	return d
}

// handWorkflow times what diff replaces: go test -count=10 on BASE, on
// HEAD, then benchstat; it returns the wall time and how many sec/op rows
// benchstat called changed.
func handWorkflow(base, head string) (time.Duration, int, int) {
	start := time.Now()
	args := []string{"test", "-run", "^$", "-bench", "A|B|C|D", "-benchtime", *benchtime, "-count", "10", "."}
	old := run(base, "go", args...)
	new := run(head, "go", args...)
	check(os.WriteFile(filepath.Join(base, "..", "old.txt"), []byte(old), 0o644))
	check(os.WriteFile(filepath.Join(base, "..", "new.txt"), []byte(new), 0o644))
	csv := run(filepath.Join(base, ".."), "benchstat", "-format", "csv", "old.txt", "new.txt")
	wall := time.Since(start)
	rows, flagged, unit := 0, 0, ""
	for _, line := range strings.Split(csv, "\n") {
		f := strings.Split(line, ",")
		if len(f) >= 7 && f[0] == "" && f[2] == "CI" {
			unit = f[1]
			continue
		}
		if unit != "sec/op" || len(f) < 7 || f[0] == "" || f[0] == "geomean" {
			continue
		}
		rows++
		if f[5] != "~" {
			flagged++
		}
	}
	return wall, rows, flagged
}

func writeModule(dir string, slowdown int) {
	check(os.WriteFile(filepath.Join(dir, "go.mod"), []byte(goMod), 0o644))
	src := strings.ReplaceAll(workGo, "SLOWDOWN", fmt.Sprint(slowdown))
	check(os.WriteFile(filepath.Join(dir, "work.go"), []byte(src), 0o644))
	check(os.WriteFile(filepath.Join(dir, "work_test.go"), []byte(workTest), 0o644))
}

func run(dir, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
