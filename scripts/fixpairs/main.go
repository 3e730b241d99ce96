// Command fixpairs measures the pairs of rewrites perfloop fix could make
// with the same intent — its own builder and x/tools' modernize
// stringsbuilder (s += x in a loop → strings.Builder), its own strconv and
// perfsprint (fmt.Sprintf → strconv and concatenation) — one against the
// other, with the A/B engine: for each case, perfloop fix runs on the
// module with both rewrites of a pair enabled, and where it keeps both at
// one site, the two patches are committed side by side and
//
//	perfloop diff -json -bench BENCH A B
//
// compares B's edit against A's. It prints a Markdown table: per case
// and pair, what fix measured for each against the commit, and B
// against A.
//
// stringsbuilder is no longer among fix's analyzers, and perfsprint's
// integer and string checks are off (builder and strconv were kept,
// docs/fix.md): the pairs' rows are those of the run recorded there, and
// a run now proposes perfloop's rewrite alone. The go-difflib case
// cannot run: its example test names an identifier the package no
// longer has, which go test's vet refuses.
//
// Usage (from the repository root; needs git and the Go module proxy):
//
//	go build -o ./perfloop ./cmd/perfloop
//	go run ./scripts/fixpairs -perfloop ./perfloop
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"golang.org/x/tools/txtar"
)

var (
	perfloop = flag.String("perfloop", "perfloop", "perfloop binary to run")
	only     = flag.String("case", "", "run only the cases whose name contains `s`")
	keep     = flag.Bool("keep", false, "keep the repositories (their directories are printed)")
)

// pairCase is a module with a site both rewrites of a pair apply to.
type pairCase struct {
	name            string
	module, version string // a real module version, or "" for the planted module
	bench           string // the benchmark that hits the site
	extra           map[string]string
	// goDirective is the go directive the module is given (1.24 when
	// empty): difflib's tests pass a non-constant format to Printf,
	// which go vet (run by go test) refuses from 1.24 on.
	goDirective string
}

// pairs are the rewrites that do the same thing: perfloop's first.
var pairs = [][2]string{{"builder", "stringsbuilder"}, {"strconv", "perfsprint"}}

var cases = []pairCase{
	{name: "planted-join", bench: "BenchmarkJoin"},
	{name: "planted-label", bench: "BenchmarkLabel"},
	{
		name: "runewidth-wrap", module: "github.com/mattn/go-runewidth", version: "v0.0.16", bench: "BenchmarkWrap",
		extra: map[string]string{"wrap_bench_test.go": `package runewidth

import (
	"strings"
	"testing"
)

var sinkWrap string

// BenchmarkWrap wraps a paragraph of mixed-width text at 30 cells.
func BenchmarkWrap(b *testing.B) {
	s := strings.Repeat("Go 言語 wraps text by cells, not bytes. ", 20)
	c := NewCondition()
	for b.Loop() {
		sinkWrap = c.Wrap(s, 30)
	}
}
`},
	},
	{
		name: "difflib-range", module: "github.com/pmezard/go-difflib", version: "v1.0.0", bench: "BenchmarkFormatRange",
		extra: map[string]string{"difflib/range_bench_test.go": `package difflib

import "testing"

var sinkRange string

// BenchmarkFormatRange formats the one-line ranges of a unified diff's
// hunk headers.
func BenchmarkFormatRange(b *testing.B) {
	for i := 0; i < b.N; i++ {
		sinkRange = formatRangeUnified(i&1023, i&1023+1)
	}
}
`},
		goDirective: "1.23",
	},
}

func main() {
	flag.Parse()
	bin, err := filepath.Abs(*perfloop)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("| case | site | pair | A against the commit | B against the commit | B against A |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, c := range cases {
		if !strings.Contains(c.name, *only) {
			continue
		}
		rows, err := run(bin, c)
		if err != nil {
			log.Fatalf("%s: %v", c.name, err)
		}
		for _, r := range rows {
			fmt.Println(r)
		}
	}
}

// fixJSON is what fixpairs reads of perfloop.fix/v1.
type fixJSON struct {
	Kept []struct {
		File, Rewrite, Patch string
		Line                 int
		Benchmarks           []measured
	}
	Rejected []struct {
		File, Rewrite, Reason string
		Line                  int
	}
}

type measured struct {
	Name, Unit  string
	Delta       float64
	CI          [2]float64
	Significant bool
}

// compareJSON is what fixpairs reads of perfloop.compare/v1.
type compareJSON struct {
	Rows []struct {
		Benchmark, Unit string
		Delta           float64
		Significant     bool
	}
}

// run builds a case's repository, runs fix on it and diffs the two
// rewrites of each pair kept at one site.
func run(bin string, c pairCase) ([]string, error) {
	dir, err := os.MkdirTemp("", "fixpairs-"+c.name+"-")
	if err != nil {
		return nil, err
	}
	if *keep {
		log.Printf("%s: %s", c.name, dir)
	} else {
		defer os.RemoveAll(dir)
	}
	mod := filepath.Join(dir, "mod")
	if err := source(mod, c); err != nil {
		return nil, err
	}
	git := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-c", "user.email=fixpairs@example.com", "-c", "user.name=fixpairs"}, args...)...)
		cmd.Dir = mod
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return nil
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-qm", "base"}, {"tag", "base"}} {
		if err := git(args...); err != nil {
			return nil, err
		}
	}
	out := filepath.Join(dir, "fixes")
	fixOut, err := perf(mod, bin, "fix", "-json", "-out", out, "-bench", "^"+c.bench+"$", "-count", "3", "-benchtime", "50ms", "-candidate-time", "90s", "./...")
	if err != nil {
		return nil, err
	}
	var res fixJSON
	if err := json.Unmarshal(fixOut, &res); err != nil {
		return nil, fmt.Errorf("perfloop fix -json: %v", err)
	}
	var rows []string
	for _, p := range pairs {
		outcome := map[string]string{}
		patch := map[string]string{}
		site := ""
		for _, k := range res.Kept {
			for _, name := range p {
				if k.Rewrite == name {
					outcome[name] = "kept: " + gains(k.Benchmarks)
					patch[name] = k.Patch
					site = fmt.Sprintf("%s:%d", k.File, k.Line)
				}
			}
		}
		for _, r := range res.Rejected {
			for _, name := range p {
				if r.Rewrite == name && outcome[name] == "" {
					outcome[name] = r.Reason
					site = fmt.Sprintf("%s:%d", r.File, r.Line)
				}
			}
		}
		if site == "" {
			continue // neither rewrite applies in this case
		}
		versus := "—"
		if patch[p[0]] != "" && patch[p[1]] != "" {
			for _, name := range p {
				for _, args := range [][]string{{"checkout", "-q", "-b", name, "base"}, {"apply", patch[name]}, {"commit", "-qam", name}} {
					if err := git(args...); err != nil {
						return nil, err
					}
				}
			}
			d, err := perf(mod, bin, "diff", "-json", "-bench", "^"+c.bench+"$", p[0], p[1], "./...")
			if err != nil {
				return nil, err
			}
			var cmp compareJSON
			if err := json.Unmarshal(d, &cmp); err != nil {
				return nil, fmt.Errorf("perfloop diff -json: %v", err)
			}
			var parts []string
			for _, r := range cmp.Rows {
				if r.Significant {
					parts = append(parts, fmt.Sprintf("%+.1f%% %s", r.Delta*100, r.Unit))
				}
			}
			versus = "no significant change"
			if len(cmp.Rows) == 0 {
				versus = "not run: the same machine code"
			}
			if len(parts) > 0 {
				versus = strings.Join(parts, ", ")
			}
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | A %s, B %s | %s | %s | %s |", c.name, site, p[0], p[1], or(outcome[p[0]], "not proposed"), or(outcome[p[1]], "not proposed"), versus))
	}
	return rows, nil
}

// source writes the case's module into dir: the planted module of fix's
// end-to-end script, or a real module's version and the case's
// benchmark, with its go directive raised to 1.24 (b.Loop, and the
// analyzers' Go version checks).
func source(dir string, c pairCase) error {
	if c.module == "" {
		ar, err := txtar.ParseFile(filepath.Join("internal", "cli", "testdata", "heavy", "fix.txtar"))
		if err != nil {
			return err
		}
		for _, f := range ar.Files {
			if name, ok := strings.CutPrefix(f.Name, "mod/"); ok {
				if err := write(filepath.Join(dir, name), f.Data); err != nil {
					return err
				}
			}
		}
		return nil
	}
	out, err := exec.Command("go", "mod", "download", "-json", c.module+"@"+c.version).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s@%s: %v", c.module, c.version, err)
	}
	var m struct{ Dir, Error string }
	if err := json.Unmarshal(out, &m); err != nil {
		return err
	}
	if m.Error != "" {
		return errors.New(m.Error)
	}
	err = filepath.WalkDir(m.Dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return write(filepath.Join(dir, rel), data)
	})
	if err != nil {
		return err
	}
	for name, text := range c.extra {
		if err := write(filepath.Join(dir, name), []byte(text)); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		// A module from before modules (go-difflib v1.0.0): its path is
		// the one it is downloaded by.
		cmd := exec.Command("go", "mod", "init", c.module)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go mod init: %v\n%s", err, out)
		}
	}
	gov := c.goDirective
	if gov == "" {
		gov = "1.24"
	}
	cmd := exec.Command("go", "mod", "edit", "-go="+gov)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod edit: %v\n%s", err, out)
	}
	cmd = exec.Command("go", "mod", "tidy")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go mod tidy: %v\n%s", err, out)
	}
	return nil
}

func write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// perf runs perfloop in dir and returns its stdout; exit status 1 (a
// failed benchmark, a regression) is not an error here.
func perf(dir, bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || ee.ExitCode() != 1) {
		return nil, fmt.Errorf("perfloop %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out.Bytes(), nil
}

// gains writes the significant rows of a kept candidate.
func gains(ms []measured) string {
	var parts []string
	for _, m := range ms {
		if m.Significant {
			parts = append(parts, fmt.Sprintf("%+.1f%% [%+.1f, %+.1f] %s", m.Delta*100, m.CI[0]*100, m.CI[1]*100, m.Unit))
		}
	}
	return strings.Join(parts, ", ")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
