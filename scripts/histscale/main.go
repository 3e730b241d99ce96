// Command histscale measures perfloop's history at a team's scale: it
// builds a store the way a CI fleet fills one — one `perfloop record
// -import` per commit of a git repository, each with -count samples of
// every benchmark in sec/op, B/op and allocs/op — and prints what that
// costs:
//
//   - record: the time of each record (parse, save, and the update of the
//     change points it stores), the median and the slowest; with -batch N
//     the commits before the last -last are stored N to a record -import
//     (one history update each), and the last ones one at a time, timed;
//   - history: the time and peak memory of `perfloop history` (text) and
//     `perfloop history -json`;
//   - serve: the time and size of the first page, a later page, a
//     search and two series pages (one that shifted, one that did not),
//     each the median of five requests on loopback;
//   - whether the steps were found: -steps benchmarks get 1.5× slower at
//     the middle commit; every other series is noise (uniform, ±3%), so
//     every change point there is false.
//
// Usage (from the repository root):
//
//	go build -o /tmp/perfloop ./cmd/perfloop
//	go run ./scripts/histscale -perfloop /tmp/perfloop -commits 200 -benchmarks 1000
//	go run ./scripts/histscale -perfloop /tmp/perfloop -commits 200 -benchmarks 1000 \
//		-store 'postgres://perfloop:perfloop@127.0.0.1:5432/perfloop?sslmode=disable'
//	go run ./scripts/histscale -perfloop /tmp/perfloop -commits 1000 -benchmarks 1000 -batch 50
//
// A PostgreSQL store is a schema of its own in that database, dropped at
// the end (-keep keeps it, and the SQLite file and the repository).
package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

var (
	perfloop   = flag.String("perfloop", "perfloop", "perfloop binary to measure")
	commits    = flag.Int("commits", 200, "commits to record")
	benchmarks = flag.Int("benchmarks", 1000, "benchmarks per commit (each gives three series: sec/op, B/op, allocs/op)")
	count      = flag.Int("count", 5, "samples per benchmark and commit")
	steps      = flag.Int("steps", 10, "benchmarks that get 1.5× slower at the middle commit")
	noise      = flag.Float64("noise", 0.03, "uniform noise of each sample, ± this fraction")
	storeDSN   = flag.String("store", "", "store DSN: a postgres:// URL (a schema of its own is made in it), or empty for a SQLite file in a temporary directory")
	batch      = flag.Int("batch", 1, "commits per record -import (one -import -commit pair each) before the last -last commits; 1 records each commit alone")
	last       = flag.Int("last", 10, "the newest commits, recorded one per record and timed on their own")
	keep       = flag.Bool("keep", false, "keep the repository and the store")
)

func main() {
	log.SetFlags(0)
	flag.Parse()
	perf, err := exec.LookPath(*perfloop)
	check(err)
	perf, err = filepath.Abs(perf)
	check(err)
	dir, err := os.MkdirTemp("", "histscale-")
	check(err)
	if *keep {
		fmt.Printf("repository %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	dsn := filepath.Join(dir, ".perfloop", "history.db")
	backend := "SQLite"
	if *storeDSN != "" {
		dsn = postgresSchema(*storeDSN)
		backend = "PostgreSQL"
	}
	fmt.Printf("machine: %s", output("", "uname", "-srm"))
	fmt.Printf("load: %s\n", loadavg())
	fmt.Printf("%s store, %d commits × %d benchmarks × %d samples (%d series), %d benchmarks 1.5× slower at commit %d, ±%.0f%% uniform noise\n",
		backend, *commits, *benchmarks, *count, 3**benchmarks, *steps, *commits/2, 100**noise)

	// The repository: a module and one commit per point.
	check(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/scale\n\ngo 1.24\n"), 0o644))
	git(dir, "init", "-q")
	git(dir, "add", "go.mod")
	var hashes []string
	for c := 0; c < *commits; c++ {
		git(dir, "commit", "-q", "--allow-empty", "-m", fmt.Sprintf("commit %d", c))
		hashes = append(hashes, strings.TrimSpace(git(dir, "rev-parse", "HEAD")))
	}

	// Which benchmarks step: spread over the names.
	stepped := map[int]bool{}
	for i := 0; i < *steps; i++ {
		stepped[(i*7919+13)%*benchmarks] = true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	level := make([]float64, *benchmarks)
	for b := range level {
		level[b] = 100 * float64(1+rng.IntN(1000))
	}
	var recordTimes, recordCPU []float64
	start := time.Now()
	var pending []string // -import FILE -commit REV arguments not yet recorded
	for c, h := range hashes {
		file := filepath.Join(dir, fmt.Sprintf("results-%d.txt", c))
		var text bytes.Buffer
		text.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/scale\ncpu: Scale CPU @ 2.00GHz\n")
		for k := 0; k < *count; k++ {
			for b := 0; b < *benchmarks; b++ {
				ns := level[b]
				if stepped[b] && c >= *commits/2 {
					ns *= 1.5
				}
				ns *= 1 + *noise*(2*rng.Float64()-1)
				fmt.Fprintf(&text, "BenchmarkB%04d-8 \t 1000\t %.1f ns/op\t %d B/op\t %d allocs/op\n", b, ns, 16*(b%50), b%7)
			}
		}
		check(os.WriteFile(file, text.Bytes(), 0o644))
		pending = append(pending, "-import", file, "-commit", h)
		alone := c >= *commits-*last
		if !alone && len(pending)/4 < *batch && c+1 < *commits-*last {
			continue
		}
		t, cpu, _ := timed(dir, perf, append([]string{"record", "-store", dsn}, pending...)...)
		for _, p := range pending {
			if strings.HasPrefix(p, dir) {
				os.Remove(p)
			}
		}
		pending = pending[:0]
		if alone || *batch == 1 {
			recordTimes = append(recordTimes, t)
			recordCPU = append(recordCPU, cpu.Seconds())
		}
		if (c+1)%max(1, *commits/10) == 0 || c+1 == *commits {
			fmt.Printf("  recorded %d commits in %s; the last record took %.2fs (%.2fs CPU); load %s\n", c+1, time.Since(start).Round(time.Second), t, cpu.Seconds(), loadavg())
		}
	}
	sorted := slices.Clone(recordTimes)
	slices.Sort(sorted)
	fmt.Printf("\nrecord: %.1fs in all", time.Since(start).Seconds())
	if *batch > 1 {
		fmt.Printf(" (%d commits per record -import before the last %d)", *batch, *last)
	}
	fmt.Printf("; a commit alone: median %.2fs, the last ten %.2fs (%.2fs CPU), slowest %.2fs\n",
		sorted[len(sorted)/2], medianOf(recordTimes[max(0, len(recordTimes)-10):]), medianOf(recordCPU[max(0, len(recordCPU)-10):]), sorted[len(sorted)-1])

	// history, text and JSON.
	t, cpu, out := timed(dir, perf, "history", "-store", dsn)
	fmt.Printf("history: %.2fs (%.2fs CPU), %d MB peak RSS, %d bytes\n", t, cpu.Seconds(), rssOf(), len(out))
	t, cpu, out = timed(dir, perf, "history", "-store", dsn, "-json")
	fmt.Printf("history -json: %.2fs (%.2fs CPU), %d MB peak RSS, %d bytes\n", t, cpu.Seconds(), rssOf(), len(out))
	found, falseSeries, falsePoints := score(out, stepped, hashes[*commits/2])
	fmt.Printf("steps found: %d of %d; series with a false change point: %d of %d (%d change points)\n",
		found, *steps, falseSeries, 3**benchmarks-*steps, falsePoints)
	t, cpu, _ = timed(dir, perf, "history", "-store", dsn, "-since", hashes[*commits*9/10], "-bench", "B00")
	fmt.Printf("history -since (the last tenth) -bench B00: %.2fs (%.2fs CPU)\n", t, cpu.Seconds())

	// serve.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	check(err)
	addr := ln.Addr().String()
	ln.Close()
	srv := exec.Command(perf, "serve", "-store", dsn, "-addr", addr)
	srv.Dir = dir
	check(srv.Start())
	defer srv.Process.Kill()
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if resp, err := http.Get(base + "/static/dashboard.css"); err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			log.Fatal("perfloop serve did not answer in 30s")
		}
	}
	first := -1
	for b := range stepped {
		first = b
		break
	}
	flat := 0
	for stepped[flat] {
		flat++
	}
	series := func(b int) string {
		return "/series?" + url.Values{"pkg": {"example.com/scale"}, "name": {fmt.Sprintf("BenchmarkB%04d", b)}, "unit": {"sec/op"}, "procs": {"8"}}.Encode()
	}
	fmt.Println()
	fmt.Println("| page | time (median of 5) | size |")
	fmt.Println("|---|---|---|")
	for _, p := range []struct{ name, path string }{
		{"index", "/"},
		{"index, page 20", "/?page=20"},
		{"index, search", "/?q=B05+allocs"},
		{"series that shifted", series(first)},
		{"series", series(flat)},
	} {
		var times []float64
		size := 0
		for range 5 {
			t0 := time.Now()
			resp, err := http.Get(base + p.path)
			check(err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			check(err)
			if resp.StatusCode != 200 {
				log.Fatalf("GET %s: %d\n%.300s", p.path, resp.StatusCode, body)
			}
			times = append(times, time.Since(t0).Seconds())
			size = len(body)
		}
		fmt.Printf("| %s | %.0f ms | %d KB |\n", p.name, 1000*medianOf(times), size>>10)
	}
	fmt.Printf("\nload: %s\n", loadavg())
	srv.Process.Kill()
	srv.Wait()
	for _, f := range cleanup {
		f()
	}
}

// score reads perfloop.history/v1: the stepped benchmarks' sec/op series
// with a change point at commit at, and the other series with any.
func score(data []byte, stepped map[int]bool, at string) (found, falseSeries, falsePoints int) {
	var h struct {
		Benchmarks []struct {
			Name, Unit   string
			ChangePoints []struct{ Commit string } `json:"change_points"`
		}
	}
	check(json.Unmarshal(data, &h))
	num := regexp.MustCompile(`^BenchmarkB(\d+)$`)
	for _, b := range h.Benchmarks {
		m := num.FindStringSubmatch(b.Name)
		var i int
		if m != nil {
			i, _ = strconv.Atoi(m[1]) // not Sscan: it reads 0011 as octal
		}
		isStep := m != nil && stepped[i] && b.Unit == "sec/op"
		bad := 0
		for _, cp := range b.ChangePoints {
			if isStep && cp.Commit == at {
				found++
				continue
			}
			bad++
		}
		if bad > 0 {
			falseSeries++
			falsePoints += bad
		}
	}
	return found, falseSeries, falsePoints
}

// postgresSchema makes a schema of its own in the database dsn names and
// returns dsn with search_path set to it.
func postgresSchema(dsn string) string {
	u, err := url.Parse(dsn)
	check(err)
	schema := fmt.Sprintf("histscale_%d", os.Getpid())
	db, err := sql.Open("pgx", dsn)
	check(err)
	defer db.Close()
	_, err = db.Exec(`CREATE SCHEMA ` + schema)
	check(err)
	if !*keep {
		cleanup = append(cleanup, func() {
			if db, err := sql.Open("pgx", dsn); err == nil {
				db.Exec(`DROP SCHEMA ` + schema + ` CASCADE`)
				db.Close()
			}
		})
	} else {
		fmt.Printf("schema %s\n", schema)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

var cleanup []func()

// lastRSS is the peak RSS of the last command timed ran.
var lastRSS int64

func rssOf() int64 { return lastRSS >> 20 }

// timed runs perfloop and returns its wall time, its CPU time (user and
// system) and its stdout; lastRSS is its peak RSS.
func timed(dir, name string, args ...string) (float64, time.Duration, []byte) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &stderr
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		log.Fatalf("%s %.200s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	wall := time.Since(t0).Seconds()
	var cpu time.Duration
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		lastRSS = ru.Maxrss << 10
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return wall, cpu, out.Bytes()
}

func git(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=s", "GIT_AUTHOR_EMAIL=s@example.com",
		"GIT_COMMITTER_NAME=s", "GIT_COMMITTER_EMAIL=s@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
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

func medianOf(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
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
		for _, f := range cleanup {
			f()
		}
		log.Fatal(err)
	}
}
